// read_file: every parameter, every error, and the awkward files (FIFO,
// binary, huge, invalid UTF-8, CRLF, long lines), on real temporary files.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LINE_CHARS } from "../src/guards/line-window.js";
import { MAX_RESULT_LINES } from "../src/core/tool.js";
import { call, treeMaker } from "./helpers.js";

const tree = treeMaker();

/** "line 1\nline 2\n…" with `n` lines, each ending in a newline. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

describe("read_file: the window", () => {
  const root = tree({ "412.txt": numbered(412), "small.txt": "alpha\nbeta\ngamma\n" });

  it("reads a small file whole, numbered like cat -n, with a footer", async () => {
    const result = await call(root, "read_file", { path: "small.txt" });
    expect(result).toEqual({
      content: "1\talpha\n2\tbeta\n3\tgamma\n(lines 1-3 of 3)",
      isError: false,
      summary: "lines 1-3 of 3",
      facts: { total: 3, capped: false },
    });
  });

  it("returns the first 100 lines by default and says how to continue", async () => {
    const { content, isError } = await call(root, "read_file", { path: "412.txt" });
    const lines = content.split("\n");
    expect(isError).toBe(false);
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[0]).toBe("  1\tline 1");
    expect(lines[99]).toBe("100\tline 100");
    expect(lines[100]).toBe("(lines 1-100 of 412; call read_file with offset=101 to continue)");
  });

  it("honours offset, continuing where the footer said", async () => {
    const { content } = await call(root, "read_file", { path: "412.txt", offset: 101 });
    const lines = content.split("\n");
    expect(lines[0]).toBe("101\tline 101");
    expect(lines.at(-1)).toBe("(lines 101-200 of 412; call read_file with offset=201 to continue)");
  });

  it("honours limit, padding line numbers to the widest one shown", async () => {
    const { content } = await call(root, "read_file", { path: "412.txt", offset: 8, limit: 3 });
    expect(content).toBe(
      " 8\tline 8\n 9\tline 9\n10\tline 10\n(lines 8-10 of 412; call read_file with offset=11 to continue)",
    );
  });

  it("stops at the end of the file without a continue hint", async () => {
    const { content } = await call(root, "read_file", { path: "412.txt", offset: 410 });
    expect(content).toBe("410\tline 410\n411\tline 411\n412\tline 412\n(lines 410-412 of 412)");
  });

  it("reads the very last line", async () => {
    const { content } = await call(root, "read_file", { path: "412.txt", offset: 412, limit: 1 });
    expect(content).toBe("412\tline 412\n(lines 412-412 of 412)");
  });

  it("refuses an offset past the end and says how many lines there are", async () => {
    const result = await call(root, "read_file", { path: "small.txt", offset: 4 });
    expect(result).toMatchObject({
      content: "Error: offset 4 is past the end of small.txt, which has 3 lines",
      isError: true,
    });
  });

  it("takes a limit over the cap as the cap, and says so", async () => {
    const result = await call(root, "read_file", { path: "small.txt", limit: MAX_RESULT_LINES + 1 });
    expect(result.isError).toBe(false);
    expect(result.content.split("\n").at(-1)).toBe(
      `(arguments taken as meant: limit ${MAX_RESULT_LINES + 1} is over its maximum, ${MAX_RESULT_LINES}, which was used)`,
    );
  });
});

describe("read_file: line endings and encodings", () => {
  const long = "x".repeat(MAX_LINE_CHARS + 250);
  const root = tree({
    "empty.txt": "",
    "crlf.txt": "one\r\ntwo\r\n",
    "no-newline.txt": "first\nlast",
    "blank-lines.txt": "\n\n",
    // "ok", two invalid bytes, "!", in a line of text (a file of mostly invalid bytes is binary)
    "bad-utf8.txt": Buffer.concat([Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x21]), Buffer.from(" and then text\n")]),
    "long.txt": `short\n${long}\n${"y".repeat(MAX_LINE_CHARS)}\n`,
    // A line of several MB: kept bounded while streaming, still clipped at the same place.
    "huge-line.txt": `${"z".repeat(3 * 1024 * 1024)}\nafter\n`,
  });

  it("says an empty file is empty", async () => {
    expect(await call(root, "read_file", { path: "empty.txt" })).toEqual({
      content: "(empty.txt is empty: 0 lines)",
      isError: false,
      summary: "empty file",
      facts: { total: 0 },
    });
  });

  it("drops the \\r of CRLF line endings", async () => {
    expect((await call(root, "read_file", { path: "crlf.txt" })).content).toBe("1\tone\n2\ttwo\n(lines 1-2 of 2)");
  });

  it("counts a last line without a newline", async () => {
    expect((await call(root, "read_file", { path: "no-newline.txt" })).content).toBe(
      "1\tfirst\n2\tlast\n(lines 1-2 of 2)",
    );
  });

  it("counts empty lines", async () => {
    expect((await call(root, "read_file", { path: "blank-lines.txt" })).content).toBe("1\t\n2\t\n(lines 1-2 of 2)");
  });

  it("shows invalid UTF-8 bytes as \\xNN instead of failing", async () => {
    const result = await call(root, "read_file", { path: "bad-utf8.txt" });
    expect(result).toMatchObject({ content: "1\tok\\xff\\xfe! and then text\n(lines 1-1 of 1)", isError: false });
  });

  it(`clips lines over ${MAX_LINE_CHARS} characters with a visible marker, and only those`, async () => {
    const lines = (await call(root, "read_file", { path: "long.txt" })).content.split("\n");
    expect(lines[0]).toBe("1\tshort");
    expect(lines[1]).toBe(`2\t${"x".repeat(MAX_LINE_CHARS)} … [line clipped at ${MAX_LINE_CHARS} characters]`);
    expect(lines[2]).toBe(`3\t${"y".repeat(MAX_LINE_CHARS)}`);
    expect(lines[3]).toBe("(lines 1-3 of 3)");
  });

  it("clips a multi-megabyte line and still counts the lines after it", async () => {
    const { content } = await call(root, "read_file", { path: "huge-line.txt" });
    expect(content).toBe(
      `1\t${"z".repeat(MAX_LINE_CHARS)} … [line clipped at ${MAX_LINE_CHARS} characters]\n2\tafter\n(lines 1-2 of 2)`,
    );
  });
});

describe("read_file: errors", () => {
  const root = tree({
    "src/main.ts": { content: "main\n", mtime: 1_000 },
    "lib/main.js": { content: "main\n", mtime: 3_000 },
    "test/main.test.ts": { content: "main\n", mtime: 2_000 },
    "old/main.py": { content: "main\n", mtime: 500 },
    "README.md": "read me\n",
    "binary.bin": Buffer.concat([Buffer.from("looks like text"), Buffer.from([0]), Buffer.from("more\n")]),
    "late-nul.txt": Buffer.concat([Buffer.from(`${"a".repeat(9000)}\n`), Buffer.from([0])]),
    ".env": "API_KEY=read-file-secret\n",
    "ignored/notes.txt": "ignored but readable\n",
    ".gitignore": "ignored/\n",
  });

  it("suggests up to three similar paths, newest first, when a file is not found", async () => {
    const result = await call(root, "read_file", { path: "main.ts" });
    expect(result).toMatchObject({
      isError: true,
      content: "Error: file not found: main.ts; did you mean: lib/main.js, test/main.test.ts, src/main.ts?",
    });
  });

  it("finds a suggestion that differs only in case", async () => {
    expect((await call(root, "read_file", { path: "readme.md" })).content).toBe(
      "Error: file not found: readme.md; did you mean: README.md?",
    );
  });

  it("points to glob and list_files when nothing similar exists", async () => {
    expect((await call(root, "read_file", { path: "nothing/here.txt" })).content).toBe(
      "Error: file not found: nothing/here.txt; use glob or list_files to find it",
    );
  });

  it("never suggests a protected file", async () => {
    const result = await call(root, "read_file", { path: "sub/.env" });
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain("read-file-secret");
    expect(result.content).toBe(
      'Error: path "sub/.env" is protected (secrets, keys and .git internals are never read or listed)',
    );
  });

  it("refuses a directory and suggests list_files", async () => {
    expect(await call(root, "read_file", { path: "src" })).toMatchObject({
      isError: true,
      content: "Error: src is a directory; use list_files to see what it holds",
    });
  });

  it("refuses a FIFO without opening it, so nothing hangs", async () => {
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const result = await call(root, "read_file", { path: "pipe" });
    expect(result).toMatchObject({
      isError: true,
      content: "Error: pipe is not a regular file (a FIFO, socket or device); it was not opened",
    });
  });

  it("refuses a binary file (a NUL byte in the first 8 KiB)", async () => {
    expect(await call(root, "read_file", { path: "binary.bin" })).toMatchObject({
      isError: true,
      content:
        "Error: binary.bin is a binary file (a NUL byte in its first 8 KiB, as rg judges); read_file shows text only",
    });
  });

  it("reads a file whose first NUL byte comes after the first 8 KiB", async () => {
    const result = await call(root, "read_file", { path: "late-nul.txt", limit: 1 });
    expect(result.isError).toBe(false);
    expect(result.content.endsWith("(lines 1-1 of 2; call read_file with offset=2 to continue)")).toBe(true);
  });

  it("refuses a protected file without showing its content", async () => {
    const result = await call(root, "read_file", { path: ".env" });
    expect(result).toMatchObject({
      isError: true,
      content: 'Error: path ".env" is protected (secrets, keys and .git internals are never read or listed)',
    });
  });

  it("refuses a path outside the workspace", async () => {
    expect(await call(root, "read_file", { path: "../x.txt" })).toMatchObject({
      isError: true,
      content:
        'Error: path "../x.txt" is outside the workspace; paths must stay inside the directory Scout was started in',
    });
  });

  it("reads a git-ignored file when it is named explicitly", async () => {
    expect((await call(root, "read_file", { path: "ignored/notes.txt" })).content).toBe(
      "1\tignored but readable\n(lines 1-1 of 1)",
    );
  });

  it("accepts an absolute path inside the workspace and shows it relative", async () => {
    const result = await call(root, "read_file", { path: path.join(root, "README.md") });
    expect(result.content).toBe("1\tread me\n(lines 1-1 of 1)");
    const missing = await call(root, "read_file", { path: path.join(root, "missing.txt") });
    expect(missing.content).toBe("Error: file not found: missing.txt; use glob or list_files to find it");
  });
});

describe("read_file: clipping never splits a character", () => {
  it("cuts before an emoji rather than through it, so the text stays valid Unicode", async () => {
    // "a" then emoji (two UTF-16 units each): a cut at an even unit would split one.
    const root = tree({ "emoji.txt": `a${"😀".repeat(MAX_LINE_CHARS)}\n` });
    const { content } = await call(root, "read_file", { path: "emoji.txt" });
    expect(Buffer.from(content).toString()).toBe(content); // a lone surrogate would not survive UTF-8
    expect(content).toBe(
      `1\ta${"😀".repeat((MAX_LINE_CHARS - 2) / 2)} … [line clipped at ${MAX_LINE_CHARS} characters]\n(lines 1-1 of 1)`,
    );
  });
});
