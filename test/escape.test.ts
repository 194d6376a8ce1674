// escapeControl: what Scout prints for a person cannot drive the terminal.
import { describe, expect, it } from "vitest";
import { escapeControl, escapeListed, escapePath } from "../src/guards/escape.js";

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

describe("escapePath: no two names print the same", () => {
  it("doubles a backslash that would read as an escape, so a written \\n is not a newline", () => {
    expect(escapePath("a\\nb")).toBe("a\\\\nb"); // a backslash and an "n"
    expect(escapePath("a\nb")).toBe("a\\nb"); // a newline
    expect(escapePath("x\\x1b")).toBe("x\\\\x1b");
    expect(escapePath("x\x1b")).toBe("x\\x1b");
    expect(escapePath("u\\u2028")).toBe("u\\\\u2028");
    expect(escapePath("two\\\\")).toBe("two\\\\\\"); // the first, before a backslash, is doubled
  });

  it("leaves a backslash that reads as no escape as it is: Windows-style names stay readable", () => {
    for (const name of ["lib\\util.js", "sub\\file.md", "a\\b", "end\\", "x\\xg", "u\\u12"])
      expect(escapePath(name)).toBe(name);
  });
});

describe("escapeListed: a listed name cannot pass for a footer or a symlink", () => {
  it('writes the "(" of a name that reads as a note, and a last "@", as escapes', () => {
    expect(escapeListed("(showing the 100 newest of 9 files)")).toBe("\\x28showing the 100 newest of 9 files)");
    expect(escapeListed("link@")).toBe("link\\x40");
    expect(escapeListed("(x)@")).toBe("(x)\\x40");
    for (const name of ["(marketing)/page.tsx", "a(b)", "(open", "x@y", "src/app.ts"])
      expect(escapeListed(name)).toBe(name);
  });
});
