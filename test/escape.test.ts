// escapeControl: what Scout prints for a person cannot drive the terminal.
import { describe, expect, it } from "vitest";
import { escapeControl } from "../src/escape.js";

describe("escapeControl", () => {
  it("makes ESC, BEL, CR, DEL and the C1 controls visible; keeps newline, tab and all other text", () => {
    expect(escapeControl("a\x1b]0;title\x07b\r\x7f\x9b2J")).toBe("a\\x1b]0;title\\x07b\\x0d\\x7f\\x9b2J");
    expect(escapeControl("line 1\n\tindented · ✓ 日本 🙂")).toBe("line 1\n\tindented · ✓ 日本 🙂");
  });

  it("escapes a stream chunk by chunk exactly as it escapes the whole text", () => {
    const text = "start \x1b]52;c;ZXZpbA==\x07 \x1b[2J end 🙂";
    for (let cut = 0; cut <= text.length; cut++)
      expect(escapeControl(text.slice(0, cut)) + escapeControl(text.slice(cut))).toBe(escapeControl(text));
  });
});
