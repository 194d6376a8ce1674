// read_file on the encodings real code bases hold: UTF-16 and UTF-32 with a byte-order mark (which
// grep's rg also reads), files of control or undecodable bytes (binary), and control characters in text.
import { describe, expect, it } from "vitest";
import { call, treeMaker } from "./helpers.js";

const tree = treeMaker();
const TEXT = "first line\r\nneedle here\nthird: ünïcödé 😀 needle\n";

function encode(text: string, encoding: string): Buffer {
  const utf16le = Buffer.from(`\uFEFF${text}`, "utf16le");
  if (encoding === "utf-16le") return utf16le;
  if (encoding === "utf-16be") return Buffer.from(utf16le).swap16();
  const codePoints = [0xfeff, ...[...text].map((char) => char.codePointAt(0)!)];
  const out = Buffer.alloc(codePoints.length * 4);
  for (const [i, code] of codePoints.entries()) {
    if (encoding === "utf-32le") out.writeUInt32LE(code, i * 4);
    else out.writeUInt32BE(code, i * 4);
  }
  return out;
}

describe("read_file decodes files marked by a byte-order mark", () => {
  const root = tree({
    "u16le.txt": encode(TEXT, "utf-16le"),
    "u16be.txt": encode(TEXT, "utf-16be"),
    "u32le.txt": encode(TEXT, "utf-32le"),
    "u32be.txt": encode(TEXT, "utf-32be"),
    "u8bom.txt": Buffer.from(`\uFEFF${TEXT}`),
    "odd16.txt": Buffer.concat([encode("ab\n", "utf-16le"), Buffer.from([0x63])]), // a cut-off last character
  });

  it.each(["u16le.txt", "u16be.txt", "u32le.txt", "u32be.txt", "u8bom.txt"])("%s", async (file) => {
    expect((await call(root, "read_file", { path: file })).content).toBe(
      "1\tfirst line\n2\tneedle here\n3\tthird: ünïcödé 😀 needle\n(lines 1-3 of 3)",
    );
  });

  it("reads every grep hit at its line", async () => {
    const grep = await call(root, "grep", { pattern: "needle" });
    const hits = grep.content.split("\n").filter((line) => /^[\w.]+:\d+:/.test(line));
    expect(hits.length).toBeGreaterThanOrEqual(6); // rg reads UTF-16 and UTF-8 with a mark; UTF-32 it leaves out
    for (const hit of hits) {
      const [, file, line, text] = /^([^:]+):(\d+):(.*)$/.exec(hit)!;
      const read = await call(root, "read_file", { path: file, offset: Number(line), limit: 1 });
      expect(read.content.split("\n")[0], hit).toBe(`${line}\t${text}`);
    }
  });

  it("shows a cut-off last character as U+FFFD", async () => {
    expect((await call(root, "read_file", { path: "odd16.txt" })).content).toBe("1\tab\n2\t\uFFFD\n(lines 1-2 of 2)");
  });
});

describe("read_file calls binary what rg does (a NUL byte), and shows the rest as text, escaped", () => {
  const controls = Buffer.from([0x41, 0x42, 0x01, 0x02, 0x03, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0x08, 0x0e]);
  const root = tree({
    "controls.bin": Buffer.concat(Array.from({ length: 20 }, () => controls)),
    "short-controls.bin": Buffer.from([0x41, 0x42, 0x01, 0x02, 0x03, 0x1b, 0x5b, 0x32, 0x4a, 0x0a]),
    "utf16-no-mark.txt": Buffer.from("plain text\n", "utf16le"),
    "log.txt": `started\n${"ordinary text ".repeat(10)}\n\x1b[31mred\x1b[0m and a bell\x07\n\x1b]52;c;Y2xpcA==\x07\nform\x0cfeed\n\tover\rwritten\u2028there\n`,
    "latin1.txt": Buffer.concat([Buffer.from(`${"plain ascii text ".repeat(5)}caf`), Buffer.from([0xe9, 0x0a])]),
  });

  it("a file with a NUL byte near the start is binary", async () => {
    expect(await call(root, "read_file", { path: "utf16-no-mark.txt" })).toEqual({
      content:
        "Error: utf16-no-mark.txt is a binary file (a NUL byte in its first 8 KiB, as rg judges); read_file shows text only",
      isError: true,
      summary: "error",
    });
  });

  it("a file of control bytes without NUL is text, as grep reads it, every control escaped", async () => {
    expect((await call(root, "read_file", { path: "short-controls.bin" })).content).toBe(
      "1\tAB\\x01\\x02\\x03\\x1b[2J\n(lines 1-1 of 1)",
    );
    expect((await call(root, "read_file", { path: "controls.bin" })).content).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
  });

  it("shows the control characters of a text file as escapes, never raw", async () => {
    const { content } = await call(root, "read_file", { path: "log.txt" });
    expect(content).toBe(
      [
        "1\tstarted",
        `2\t${"ordinary text ".repeat(10)}`,
        "3\t\\x1b[31mred\\x1b[0m and a bell\\x07",
        "4\t\\x1b]52;c;Y2xpcA==\\x07",
        "5\tform\\x0cfeed",
        "6\t\tover\\rwritten\\u2028there", // escaped as paths are (escapePath), the tab kept
        "(lines 1-6 of 6)",
      ].join("\n"),
    );
    expect(content).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u2028]/);
  });

  it("keeps a text file with one undecodable byte as text, the byte shown as \\xNN", async () => {
    expect((await call(root, "read_file", { path: "latin1.txt" })).content).toBe(
      `1\t${"plain ascii text ".repeat(5)}caf\\xe9\n(lines 1-1 of 1)`,
    );
  });
});
