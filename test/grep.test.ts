// grep: output format, context and separators, include, order, the cap, long
// lines, rg's own errors, and patterns that look like options, with the real rg.
import { tools } from "../src/core/scout.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { grep, MAX_CONTEXT } from "../src/core/grep.js";
import { MAX_MATCH_CHARS, MAX_SEARCH_FILE_BYTES, RG_TIMEOUT_MS, rgArguments } from "../src/guards/rg-search.js";
import { formatCount } from "../src/guards/format.js";
import { MAX_PATTERN_CHARS } from "../src/guards/patterns.js";
import { runTool } from "../src/core/tool.js";
import { MAX_RG_MEMORY_BYTES, newOutcome, ripgrep } from "../src/guards/ripgrep.js";
import { MAX_RESULT_LINES } from "../src/core/tool.js";
import { MAX_ECHO_CHARS } from "../src/guards/result-budget.js";
import { Workspace } from "../src/core/workspace.js";
import { call, type FileSpec, mkdirDeep, TOO_DEEP, treeMaker } from "./helpers.js";

const tree = treeMaker();

const CAP_MESSAGE = "(showing the first 100 lines; more matches exist — narrow pattern, path or include)";

describe("grep: output", () => {
  const root = tree({
    "src/a.ts": { content: "one\nfoo two\nthree\nfour\nfive\nsix\nfoo seven\n", mtime: 2_000 },
    "src/b.ts": { content: "foo\n", mtime: 3_000 },
    "docs/c.md": { content: "Bar md\nfoo md\n", mtime: 1_000 }, // no "Foo": grep uses smart case
  });

  it("prints path:line:text, files newest first, lines in file order", async () => {
    const result = await call(root, "grep", { pattern: "foo" });
    expect(result).toEqual({
      content: "src/b.ts:1:foo\nsrc/a.ts:2:foo two\nsrc/a.ts:7:foo seven\ndocs/c.md:2:foo md",
      isError: false,
      summary: "4 matching lines in 3 files",
      facts: { capped: false },
    });
  });

  it("prints context lines as path-line-text with -- between groups", async () => {
    const { content } = await call(root, "grep", { pattern: "foo", context: 1 });
    expect(content).toBe(
      [
        "src/b.ts:1:foo",
        "--",
        "src/a.ts-1-one",
        "src/a.ts:2:foo two",
        "src/a.ts-3-three",
        "--",
        "src/a.ts-6-six",
        "src/a.ts:7:foo seven",
        "--",
        "docs/c.md-1-Bar md",
        "docs/c.md:2:foo md",
      ].join("\n"),
    );
  });

  it(`merges overlapping context, up to ${MAX_CONTEXT} lines`, async () => {
    const { content } = await call(root, "grep", { pattern: "foo", path: "src/a.ts", context: MAX_CONTEXT });
    expect(content).toBe(
      "src/a.ts-1-one\nsrc/a.ts:2:foo two\nsrc/a.ts-3-three\nsrc/a.ts-4-four\nsrc/a.ts-5-five\nsrc/a.ts-6-six\nsrc/a.ts:7:foo seven",
    );
  });

  it("orders files with the same mtime by path, whatever order the directory lists them in", async () => {
    const names = ["m", "c", "z", "a", "q", "b"]; // created in this order; ext4 lists them in hash order
    const dir = tree(
      Object.fromEntries([
        ...names.map((name) => [`${name}.txt`, { content: "MARK\n", mtime: 5_000 }]),
        ["new.txt", { content: "MARK\n", mtime: 9_000 }],
        ["sub/old.txt", { content: "MARK\n", mtime: 1_000 }],
        ["sub/a.txt", { content: "MARK\n", mtime: 5_000 }],
      ]),
    );
    expect((await call(dir, "grep", { pattern: "MARK" })).content).toBe(
      ["new", "a", "b", "c", "m", "q", "sub/a", "z", "sub/old"].map((name) => `${name}.txt:1:MARK`).join("\n"),
    );
  });

  it("fills the cap from tied files in path order", async () => {
    const sixty = "MARK\n".repeat(60);
    const dir = tree({
      "z.txt": { content: sixty, mtime: 5_000 },
      "b.txt": { content: sixty, mtime: 5_000 },
      "a.txt": { content: sixty, mtime: 5_000 },
    });
    const lines = (await call(dir, "grep", { pattern: "MARK" })).content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[59]).toBe("a.txt:60:MARK");
    expect(lines[60]).toBe("b.txt:1:MARK");
    expect(lines[99]).toBe("b.txt:40:MARK");
    expect(lines[100]).toBe(CAP_MESSAGE);
  });

  it("uses smart case, as glob does: an upper-case letter makes the pattern exact, (?-i) too", async () => {
    const cased = tree({ "c.md": "Foo md\nfoo md\n" });
    expect((await call(cased, "grep", { pattern: "Foo" })).content).toBe("c.md:1:Foo md");
    expect((await call(cased, "grep", { pattern: "^foo md" })).content).toBe("c.md:1:Foo md\nc.md:2:foo md");
    expect((await call(cased, "grep", { pattern: "(?-i)^foo md" })).content).toBe("c.md:2:foo md");
  });

  it("searches a regex", async () => {
    expect((await call(root, "grep", { pattern: "^f(oo|ive)$" })).content).toBe("src/b.ts:1:foo\nsrc/a.ts:5:five");
  });

  it("searches one directory or one file given as path", async () => {
    expect((await call(root, "grep", { pattern: "foo", path: "docs" })).content).toBe("docs/c.md:2:foo md");
    expect((await call(root, "grep", { pattern: "seven", path: "src/a.ts" })).content).toBe("src/a.ts:7:foo seven");
  });

  it("filters by include: a bare name glob matches at any depth, a path glob from the root", async () => {
    expect((await call(root, "grep", { pattern: "foo", include: "*.md" })).content).toBe("docs/c.md:2:foo md");
    expect((await call(root, "grep", { pattern: "foo", include: "src/**/a.*" })).content).toBe(
      "src/a.ts:2:foo two\nsrc/a.ts:7:foo seven",
    );
    expect((await call(root, "grep", { pattern: "foo", include: "{*.md,b.ts}" })).content).toBe(
      "src/b.ts:1:foo\ndocs/c.md:2:foo md",
    );
  });

  it("says so when nothing matches, which is not an error", async () => {
    expect(await call(root, "grep", { pattern: "nothing here" })).toEqual({
      content: "No matches for /nothing here/ in the workspace.",
      isError: false,
      summary: "no matches",
      facts: { total: 0 },
    });
    expect((await call(root, "grep", { pattern: "zzz", path: "src", include: "*.ts" })).content).toBe(
      "No matches for /zzz/ in src (files matching *.ts).",
    );
  });

  it("passes rg's regex error back, with its caret, as an error", async () => {
    const result = await call(root, "grep", { pattern: "foo(" });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: rg could not search: rg: regex parse error:\n/);
    expect(result.content).toContain("^");
    expect(result.content).toContain("unclosed group");
  });

  it("refuses an empty pattern, an excluding include and an include with ..", async () => {
    expect((await call(root, "grep", { pattern: "" })).content).toBe(
      'Error: pattern must not be empty; to list files use glob with "**/*"',
    );
    expect((await call(root, "grep", { pattern: "x", include: "!*.ts" })).content).toBe(
      'Error: include "!*.ts" must name the files to search; excluding with "!" is not supported',
    );
    expect((await call(root, "grep", { pattern: "x", include: "../*.ts" })).content).toBe(
      'Error: include "../*.ts" must not contain a ".." segment',
    );
  });

  it("refuses a path that does not exist or is not a regular file", async () => {
    expect((await call(root, "grep", { pattern: "x", path: "nope" })).content).toBe(
      "Error: not found: nope; use list_files to see what exists",
    );
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    expect((await call(root, "grep", { pattern: "x", path: "pipe" })).content).toBe(
      "Error: pipe is not a regular file (a FIFO, socket or device); it was not opened",
    );
  });

  it("shows a lone CR inside a line escaped, as read_file does, and drops the CR of a CRLF line end", async () => {
    const dir = tree({
      "a.txt": "header\rtoken = NEEDLE\n",
      "b.txt": { content: "one NEEDLE\r\ntwo\r\n", mtime: 1_000 },
    });
    expect((await call(dir, "grep", { pattern: "NEEDLE" })).content).toBe(
      "a.txt:1:header\\rtoken = NEEDLE\nb.txt:1:one NEEDLE",
    );
  });

  it("skips a FIFO inside a searched directory instead of hanging on it", async () => {
    const dir = tree({ "a.txt": "x\n" });
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    expect((await call(dir, "grep", { pattern: "x" })).content).toBe("a.txt:1:x");
  });

  it("stops rg at its deadline when rg cannot finish: here a FIFO named to rg, which it opens and waits on", async () => {
    // grep never names a FIFO to rg (it refuses one, and skips FIFO ignore files); ripgrep() is given one here,
    // with a short deadline, since a deadline can only be seen to work by reaching it.
    const dir = tree({ "a.txt": "x\n" });
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const outcome = newOutcome();
    for await (const _ of ripgrep(
      ["--no-config", "x", "--", "pipe"],
      { root: dir, deadline: Date.now() + 300, reportable: () => true },
      outcome,
    ));
    expect(outcome.timedOut).toBe(true);
  });

  it("a FIFO named .gitignore is read by neither Scout nor rg (rg used to wait on it until its deadline)", async () => {
    const dir = tree({ "sub/a.txt": "x\n" });
    execFileSync("mkfifo", [path.join(dir, "sub/.gitignore")]);
    const note = "(ignore files not read, so their rules do not apply: sub/.gitignore (it is not a regular file))";
    expect((await call(dir, "grep", { pattern: "x" })).content).toBe(`sub/a.txt:1:x\n${note}`);
    expect((await call(dir, "glob", { pattern: "**/*" })).content).toBe(`sub/a.txt\n${note}`);
  });

  it("stops when the caller cancels", async () => {
    const result = await runTool(
      "grep",
      { pattern: "foo" },
      { workspace: new Workspace(root), signal: AbortSignal.abort() },
      tools,
    );
    expect(result).toMatchObject({ isError: true, content: "Error: grep was cancelled" });
  });
});

describe("grep: patterns that look like options are searched for", () => {
  const root = tree({ "flags.txt": "run with --files\nor -e here\n" });

  it.each([
    ["--files", "flags.txt:1:run with --files"],
    ["-e", "flags.txt:2:or -e here"],
    ["--", "flags.txt:1:run with --files"],
  ])("%s", async (pattern, expected) => {
    expect((await call(root, "grep", { pattern })).content).toBe(expected);
  });

  it("treats a path that looks like an option as a path", async () => {
    fs.writeFileSync(path.join(root, "--files"), "inside the file named --files\n");
    expect((await call(root, "grep", { pattern: "inside", path: "--files" })).content).toBe(
      "--files:1:inside the file named --files",
    );
  });
});

describe("grep: the cap and long lines", () => {
  it(`stops at ${MAX_RESULT_LINES} lines and says more matches exist`, async () => {
    const root = tree({ "many.txt": Array.from({ length: 300 }, (_, i) => `hit ${i + 1}\n`).join("") });
    const { content, summary } = await call(root, "grep", { pattern: "hit" });
    const lines = content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[MAX_RESULT_LINES - 1]).toBe("many.txt:100:hit 100");
    expect(lines[MAX_RESULT_LINES]).toBe(CAP_MESSAGE);
    expect(summary).toBe("100 matching lines in 1 file");
  });

  it("shows exactly the cap without the message", async () => {
    const root = tree({ "exact.txt": "hit\n".repeat(MAX_RESULT_LINES) });
    const lines = (await call(root, "grep", { pattern: "hit" })).content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES);
    expect(lines.at(-1)).toBe("exact.txt:100:hit");
  });

  it("counts separators in the cap, never going over it", async () => {
    // A hit on every 4th line with context 1: groups of three lines and a "--",
    // arranged so that line 100 would be a separator.
    const root = tree({
      "groups.txt": Array.from({ length: 400 }, (_, i) => (i % 4 === 1 ? "hit\n" : "x\n")).join(""),
    });
    const lines = (await call(root, "grep", { pattern: "hit", context: 1 })).content.split("\n");
    expect(lines.length).toBeLessThanOrEqual(MAX_RESULT_LINES + 1);
    expect(lines.at(-1)).toBe(CAP_MESSAGE);
    expect(lines.at(-2)).not.toBe("--");
  });

  it("returns at the cap when a pattern matches two million lines", async () => {
    const root = tree({ "huge.txt": "MARK line\n".repeat(2_000_000) });
    const lines = (await call(root, "grep", { pattern: "MARK" })).content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[0]).toBe("huge.txt:1:MARK line");
    expect(lines.at(-1)).toBe(CAP_MESSAGE);
  });

  it(`clips hits and context lines at ${MAX_MATCH_CHARS} characters`, async () => {
    const long = "a".repeat(5_000);
    const root = tree({ "long.txt": `before ${long}\nhit ${long}\nshort hit\n` });
    const { content } = await call(root, "grep", { pattern: "hit", context: 1 });
    const marker = ` … [line clipped at ${MAX_MATCH_CHARS} characters]`;
    expect(content).toBe(
      [
        `long.txt-1-${`before ${long}`.slice(0, MAX_MATCH_CHARS)}${marker}`,
        `long.txt:2:${`hit ${long}`.slice(0, MAX_MATCH_CHARS)}${marker}`,
        "long.txt:3:short hit",
      ].join("\n"),
    );
  });

  it("never cuts an emoji in half when clipping", async () => {
    const root = tree({ "emoji.txt": `a${"😀".repeat(MAX_MATCH_CHARS)}\n` });
    const { content } = await call(root, "grep", { pattern: "a" });
    expect(content).toBe(
      `emoji.txt:1:a${"😀".repeat((MAX_MATCH_CHARS - 2) / 2)} … [line clipped at ${MAX_MATCH_CHARS} characters]`,
    );
  });
});

describe("grep: what it searches", () => {
  it("skips binary files in a directory", async () => {
    const root = tree({ "bin.dat": Buffer.from("MARK\0\0\0"), "text.txt": "MARK\n" });
    expect((await call(root, "grep", { pattern: "MARK" })).content).toBe("text.txt:1:MARK");
  });

  it("says a binary file named explicitly matches, instead of claiming no matches", async () => {
    const root = tree({ "bin.dat": Buffer.from("MARK\0\0\0 MARK\n") });
    expect(await call(root, "grep", { pattern: "MARK", path: "bin.dat" })).toEqual({
      content: "bin.dat is a binary file that matches /MARK/; its lines are not shown",
      isError: false,
      summary: "binary file matches",
    });
    expect((await call(root, "grep", { pattern: "nope", path: "bin.dat" })).content).toBe(
      "No matches for /nope/ in bin.dat.",
    );
  });

  it("searches a git-ignored file when it is named explicitly, but not in a directory search", async () => {
    const root = tree({ ".gitignore": "*.log\n", "app.log": "MARK in log\n", "a.txt": "MARK\n" });
    expect((await call(root, "grep", { pattern: "MARK" })).content).toBe("a.txt:1:MARK");
    expect((await call(root, "grep", { pattern: "MARK", path: "app.log" })).content).toBe("app.log:1:MARK in log");
  });

  it("shows invalid UTF-8 bytes as \\xNN, as read_file does", async () => {
    const root = tree({ "bad.txt": Buffer.from([0x4d, 0x41, 0x52, 0x4b, 0xff, 0x0a]) });
    expect((await call(root, "grep", { pattern: "MARK" })).content).toBe("bad.txt:1:MARK\\xff");
  });
});

describe("grep: many hits (rg again, newest first, stopped at the cap)", () => {
  it("orders tied files by path and fills the cap, as with few hits", async () => {
    const many = "MARK\n".repeat(600); // 1,800 lines in all: past the single parallel pass
    const dir = tree({
      "z.txt": { content: many, mtime: 5_000 },
      "b.txt": { content: many, mtime: 5_000 },
      "new.txt": { content: "MARK\n", mtime: 9_000 },
    });
    const lines = (await call(dir, "grep", { pattern: "MARK" })).content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[0]).toBe("new.txt:1:MARK");
    expect(lines[1]).toBe("b.txt:1:MARK");
    expect(lines[99]).toBe("b.txt:99:MARK");
    expect(lines[100]).toBe(CAP_MESSAGE);
  });

  it("gives the same answer either way for a pattern with a few hits among many files", async () => {
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < 30; i++)
      files[`f${i}.txt`] = { content: `${i % 10 === 0 ? "RARE\n" : ""}${"common\n".repeat(50)}`, mtime: 1_000 + i };
    const dir = tree(files);
    expect((await call(dir, "grep", { pattern: "RARE" })).content).toBe(
      "f20.txt:1:RARE\nf10.txt:1:RARE\nf0.txt:1:RARE",
    );
    const common = (await call(dir, "grep", { pattern: "common" })).content.split("\n");
    expect(common[0]).toBe("f29.txt:1:common");
    expect(common[50]).toBe("f28.txt:1:common");
    expect(common[100]).toBe(CAP_MESSAGE);
  });
});

describe("grep: very long lines and big files", () => {
  it("shows a line longer than one JSON message clipped, at its right line number, with its context", async () => {
    // rg's --json sends a line as one message; past 64 KiB Scout keeps only its start.
    const huge = "x".repeat(300_000);
    const root = tree({
      "long.txt": `first\nbefore\nMARK ${huge}\nafter\n`,
      "bytes.txt": Buffer.concat([
        Buffer.from("MARK "),
        Buffer.from([0xff]),
        Buffer.from("y".repeat(300_000)),
        Buffer.from("\n"),
      ]),
      "ctrl.txt": `MARK ${"\x01".repeat(100_000)}\n`,
    });
    const marker = ` … [line clipped at ${MAX_MATCH_CHARS} characters]`;
    expect((await call(root, "grep", { pattern: "MARK", path: "long.txt", context: 1 })).content).toBe(
      ["long.txt-2-before", `long.txt:3:MARK ${"x".repeat(MAX_MATCH_CHARS - 5)}${marker}`, "long.txt-4-after"].join(
        "\n",
      ),
    );
    expect((await call(root, "grep", { pattern: "MARK", path: "bytes.txt" })).content).toBe(
      `bytes.txt:1:MARK \\xff${"y".repeat(MAX_MATCH_CHARS - 9)}${marker}`,
    );
    expect((await call(root, "grep", { pattern: "MARK", path: "ctrl.txt" })).content).toBe(
      // escaped first, as read_file does, then clipped: 48 whole escapes and the start of the next
      `ctrl.txt:1:${`MARK ${"\\x01".repeat(100)}`.slice(0, MAX_MATCH_CHARS)}${marker}`,
    );
  });

  it(`skips files over ${MAX_SEARCH_FILE_BYTES / 2 ** 20} MiB in a folder once rg runs short of memory, and refuses one named alone`, {
    timeout: 60_000,
  }, async () => {
    // One line of 96 MiB: rg holds a whole line in memory (a 500 MB one took 1.3 GB), so it passes
    // MAX_RG_MEMORY_BYTES, is stopped, and searches again without files over the limit.
    const root = tree({ "small.txt": "MARK small\n" });
    fs.writeFileSync(path.join(root, "big.txt"), `MARK ${"x".repeat(3 * MAX_SEARCH_FILE_BYTES)}\n`);
    expect((await call(root, "grep", { pattern: "MARK" })).content).toBe(
      `small.txt:1:MARK small\n(files over ${MAX_SEARCH_FILE_BYTES / 2 ** 20} MiB were not searched)`,
    );
    fs.truncateSync(path.join(root, "big.txt"), MAX_SEARCH_FILE_BYTES + 1);
    expect(await call(root, "grep", { pattern: "MARK", path: "big.txt" })).toMatchObject({
      isError: true,
      content: `Error: big.txt is 32.0 MiB, over grep's ${MAX_SEARCH_FILE_BYTES / 2 ** 20} MiB limit; it was not searched`,
    });
  });
});

describe("grep: paths rg cannot read", () => {
  // As root nothing is unreadable by permission; a path longer than PATH_MAX is unreadable to anyone.
  it('answers "No matches" with a footer counting them, not an error', async () => {
    const root = tree({ "a.txt": "MARK\n" });
    mkdirDeep(root, TOO_DEEP);
    const result = await call(root, "grep", { pattern: "NOPE" });
    expect(result.isError).toBe(false);
    const [first, footer] = result.content.split("\n");
    expect(first).toBe("No matches for /NOPE/ in the workspace.");
    expect(footer).toMatch(/^\(rg could not read 1 file or folder: d{200}\/d{200}\/.*: Filename too long\)$/);
    expect((await call(root, "grep", { pattern: "MARK" })).content.split("\n")[0]).toBe("a.txt:1:MARK");
  });
});

describe("grep: rg's memory", () => {
  it(`stops rg past ${MAX_RG_MEMORY_BYTES / 2 ** 20} MiB: a JSON object for every match of one long line`, {
    timeout: RG_TIMEOUT_MS + 30_000,
  }, async () => {
    // A 24 MB line matched at every byte: plain rg output stayed at 59 MB, --json grows to gigabytes.
    const root = tree({ "dense.txt": `${"a".repeat(24_000_000)}\n` });
    expect(await call(root, "grep", { pattern: "a" })).toMatchObject({
      isError: true,
      content: `Error: rg needed more than ${MAX_RG_MEMORY_BYTES / 2 ** 20} MiB of memory for this search and was stopped, even with files over 32 MiB skipped: too much to search at once (a very large tree, or lines with very many matches); narrow the path or include, or the pattern`,
    });
  });
});

describe("grep: control characters in lines", () => {
  it("escapes a hit line's ESC, BEL and C1 controls exactly as read_file escapes the same line", async () => {
    const line = "title \x1b]0;pwned\x07 red \x1b[31mX\x9b2J\tend";
    const root = tree({ "a.txt": `${line}\n` });
    const grepped = await call(root, "grep", { pattern: "title" });
    const read = await call(root, "read_file", { path: "a.txt" });
    expect(grepped.content).not.toMatch(/[\x1b\x07\x9b]/);
    const shown = read.content.split("\n")[0].replace(/^\s*1\t/, "");
    expect(grepped.content).toBe(`a.txt:1:${shown}`);
    expect(shown).toBe("title \\x1b]0;pwned\\x07 red \\x1b[31mX\\x9b2J\tend");
  });
});

describe("grep: long patterns", () => {
  const root = tree({ "a.txt": "one\n" });

  it(`refuses a pattern over ${MAX_PATTERN_CHARS} characters, named in the description, instead of failing to start rg`, async () => {
    const { content, isError } = await call(root, "grep", { pattern: "x".repeat(200_000) });
    expect(isError).toBe(true);
    expect(content).toBe(
      "Error: pattern is 200,000 characters long, over the 10,000-character limit; use a shorter pattern",
    );
    expect(grep.description).toContain(`${formatCount(MAX_PATTERN_CHARS)} characters`);
  });

  it(`quotes a long pattern back clipped to ${MAX_ECHO_CHARS} characters in "No matches"`, async () => {
    const pattern = `${"y".repeat(MAX_PATTERN_CHARS - 1)}z`;
    const { content } = await call(root, "grep", { pattern });
    expect(content.length).toBeLessThan(400);
    expect(content).toMatch(/^No matches for \/y+ … \[9,800 characters cut\] … y+z\/ in the workspace\.$/);
  });
});

describe("grep: an include cannot make rg enter a folder Scout hides", () => {
  // Each case took rg to its 10 s deadline: the include named the hidden folder, rg entered it, and opened its
  // .gitignore, a FIFO or /dev/zero; the real hit was lost.
  it.each([
    ["{vendor,*.c}", "vendor", "fifo"],
    ["{vendor,*.c}", "vendor", "/dev/zero"],
    ["{node_modules,x,*.c}", "node_modules", "fifo"],
    ["{node_modules,x,*.c}", "node_modules", "/dev/zero"],
  ])("include %s with %s/.gitignore a %s", async (include, folder, kind) => {
    const dir = tree({ ".gitignore": "vendor/\n", "src/a.c": "needle\n", [`${folder}/b.c`]: "needle\n" });
    const gitignore = path.join(dir, folder, ".gitignore");
    if (kind === "fifo") execFileSync("mkfifo", [gitignore]);
    else fs.symlinkSync(kind, gitignore);
    const { content, isError } = await call(dir, "grep", { pattern: "needle", include });
    expect(isError, content).toBe(false);
    expect(content.split("\n")[0]).toBe("src/a.c:1:needle");
    expect(content).not.toContain(`${folder}/b.c`);
  });

  it("puts the include before the exclusions, where the last matching glob wins", () => {
    const args = rgArguments("x", "{node_modules,*.c}", 0, ".", 100, false);
    expect(args.indexOf("--glob={node_modules,*.c}")).toBeLessThan(args.indexOf("--glob=!node_modules/"));
  });
});
