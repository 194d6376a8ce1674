// glob: newest first, ties by path, the cap, refused patterns, and patterns
// that would expand without bound or loop, on real trees.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BACKSLASH_RULE, MAX_BRACE_EXPANSION } from "../src/guards/patterns.js";
import { MAX_RESULT_LINES } from "../src/core/tool.js";
import { call, type FileSpec, treeMaker } from "./helpers.js";

const tree = treeMaker();

describe("glob: matching and order", () => {
  const root = tree({
    "src/main.ts": { content: "", mtime: 3_000 },
    "src/util.ts": { content: "", mtime: 1_000 },
    "src/tools/test_grep.ts": { content: "", mtime: 2_000 },
    "src/tools/grep.ts": { content: "", mtime: 2_000 },
    "README.md": { content: "", mtime: 4_000 },
    ".github/workflows/ci.yml": { content: "", mtime: 5_000 },
  });

  it("returns files newest first, ties by path", async () => {
    const result = await call(root, "glob", { pattern: "**/*.ts" });
    expect(result).toEqual({
      content: "src/main.ts\nsrc/tools/grep.ts\nsrc/tools/test_grep.ts\nsrc/util.ts",
      isError: false,
      summary: "4 files",
      facts: { total: 4, capped: false },
    });
  });

  it("matches a pattern with a directory part", async () => {
    expect((await call(root, "glob", { pattern: "src/**/test_*.ts" })).content).toBe("src/tools/test_grep.ts");
  });

  it("searches under path, showing paths relative to the workspace root", async () => {
    expect((await call(root, "glob", { pattern: "*.ts", path: "src/tools" })).content).toBe(
      "src/tools/grep.ts\nsrc/tools/test_grep.ts",
    );
  });

  it("returns files only, never directories", async () => {
    expect((await call(root, "glob", { pattern: "src/*" })).content).toBe("src/main.ts\nsrc/util.ts");
  });

  it("includes dotfiles", async () => {
    expect((await call(root, "glob", { pattern: "**/*.yml" })).content).toBe(".github/workflows/ci.yml");
  });

  it("is case-sensitive when the pattern has an upper-case letter (smart case)", async () => {
    expect((await call(root, "glob", { pattern: "**/*.TS" })).content).toBe('No files match "**/*.TS".');
  });

  it("says so when nothing matches, which is not an error", async () => {
    expect(await call(root, "glob", { pattern: "**/*.py", path: "src" })).toEqual({
      content: 'No files match "**/*.py" in src.',
      isError: false,
      summary: "no files",
      facts: { total: 0, capped: false },
    });
  });

  it("shows clean relative paths for patterns with ./ or //", async () => {
    expect((await call(root, "glob", { pattern: "./src//*.ts" })).content).toBe("src/main.ts\nsrc/util.ts");
    expect((await call(root, "glob", { pattern: "src/./tools/*.ts" })).content).toBe(
      "src/tools/grep.ts\nsrc/tools/test_grep.ts",
    );
  });

  it("lists a file once when braces make walks that overlap", async () => {
    // Two walks (src and src/tools) both meet src/tools/*.ts: fast-glob must still drop the repeats.
    expect(await call(root, "glob", { pattern: "{src,src/tools}/**/*.ts" })).toMatchObject({
      content: "src/main.ts\nsrc/tools/grep.ts\nsrc/tools/test_grep.ts\nsrc/util.ts",
      summary: "4 files",
    });
  });

  it("refuses a path that is a file or does not exist", async () => {
    expect((await call(root, "glob", { pattern: "*", path: "README.md" })).content).toBe(
      "Error: README.md is a file, not a directory; use read_file to read it",
    );
    expect((await call(root, "glob", { pattern: "*", path: "nope" })).content).toBe(
      "Error: not found: nope; use list_files to see what exists",
    );
  });
});

describe("glob: the cap", () => {
  it(`shows the ${MAX_RESULT_LINES} newest and says how many there are`, async () => {
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < 250; i++)
      files[`dir${i % 5}/f${String(i).padStart(3, "0")}.txt`] = { content: "", mtime: 100_000 - i };
    const { content, summary } = await call(tree(files), "glob", { pattern: "**/*.txt" });
    const lines = content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[0]).toBe("dir0/f000.txt");
    expect(lines[MAX_RESULT_LINES - 1]).toBe("dir4/f099.txt");
    expect(lines[MAX_RESULT_LINES]).toBe(
      "(showing the 100 newest of 250 files; use a narrower pattern or path to see others)",
    );
    expect(summary).toBe("250 files");
  });

  it("shows exactly the cap without a footer", async () => {
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < MAX_RESULT_LINES; i++) files[`f${i}.txt`] = "";
    expect((await call(tree(files), "glob", { pattern: "*.txt" })).content.split("\n")).toHaveLength(MAX_RESULT_LINES);
  });
});

describe("glob: refused patterns", () => {
  const root = tree({ "a.txt": "" });

  it.each([
    ["..", "../*"],
    ["..", "src/../../*"],
    ["..", "**/../*"],
    ["..", "{..,a}/*"],
    ["..", "{a,..}/*"],
    ["..", "@(..)/*"],
    ["..", "+(x|..)/*"],
    ["..", "{.,.}./*"], // braces that expand to ".."
    ["..", ".{.,}/*"],
    ["..", "{,.}./x/*"],
    ["..", "{a,{b,..}}/*"],
  ])("refuses a %s segment: %s", async (_, pattern) => {
    expect(await call(root, "glob", { pattern })).toMatchObject({
      isError: true,
      content: `Error: pattern "${pattern}" must not contain a ".." segment`,
    });
  });

  it.each(["/etc/*", "/**/*", "C:/Windows/*", "C:\\Windows\\*"])(
    "refuses an absolute pattern without echoing it: %s",
    async (pattern) => {
      expect(await call(root, "glob", { pattern })).toMatchObject({
        isError: true,
        content: "Error: pattern must be relative to the workspace, not an absolute path",
      });
    },
  );

  it("refuses ~", async () => {
    expect(await call(root, "glob", { pattern: "~/.ssh/*" })).toMatchObject({
      isError: true,
      content: 'Error: pattern "~/.ssh/*": "~" is not expanded; use a relative pattern',
    });
  });

  it("refuses an empty pattern and a NUL byte", async () => {
    expect((await call(root, "glob", { pattern: "" })).content).toBe("Error: pattern must not be empty");
    expect((await call(root, "glob", { pattern: "a\0b" })).content).toBe("Error: pattern must not contain a NUL byte");
  });
});

describe("glob: patterns that could run away end cleanly", () => {
  const root = tree({ "f1.txt": "", "a/b.txt": "" });
  const tooMany = (pattern: string) =>
    `Error: pattern "${pattern}" expands to more than ${MAX_BRACE_EXPANSION} alternatives; use a simpler pattern`;

  it.each([
    "{1..100000}",
    "{1..99999999999999999999}",
    "{1..100}{1..100}",
    "{1..1000..1}x{a..z}", // a letter range counts too
    "{a..z}{a..z}{a..z}",
    "{a,b,c,d,e,f,g,h,i,j,{x}}".repeat(6), // nested groups: 11^6 patterns
    "{{1..40},{1..40}}{{1..40},{1..40}}",
  ])("refuses a brace expansion that is too large: %s", async (pattern) => {
    expect(await call(root, "glob", { pattern })).toMatchObject({ isError: true, content: tooMany(pattern) });
  });

  it("accepts a brace expansion within the limit", async () => {
    expect((await call(root, "glob", { pattern: "f{1..1000}.txt" })).content).toBe("f1.txt");
    expect((await call(root, "glob", { pattern: "{a,{b,c}}/*.txt" })).content).toBe("a/b.txt");
  });

  // A pattern with "\" that matches nothing gets its "/" form as a hint, when that one matches: it is walked only
  // if it passes the checks the pattern passed, so a "\" cannot hide a pattern glob would refuse.
  it.each([
    "a\\*x*y*z.txt", // "a/*x*y*z.txt": three wildcards in one segment
    "x{1..20}\\{1..20}\\{1..20}\\{1..20}", // "x{1..20}/{1..20}/{1..20}/{1..20}": 160,000 patterns
  ])('answers %s at once, without suggesting a "/" form the checks refuse', async (pattern) => {
    const dir = tree({ "a/1x2y3z.txt": "", "x1/1/1/1": "" }); // each matches the "/" form
    const started = Date.now();
    const { content } = await call(dir, "glob", { pattern });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(content).toMatch(/^No files match /);
    expect(content).toContain(BACKSLASH_RULE);
    expect(content).not.toContain("Did you mean");
  });

  it("refuses a symlink in the pattern's fixed folders, which fast-glob would follow", async () => {
    const dir = tree({ "app/src/a.ts": "", "outside/secret.txt": "" });
    const app = path.join(dir, "app");
    fs.symlinkSync("../outside", path.join(app, "out"));
    fs.symlinkSync("src", path.join(app, "src-link"));
    expect(await call(app, "glob", { pattern: "out/*" })).toMatchObject({
      isError: true,
      content:
        'Error: the folder in pattern "out" is outside the workspace; paths must stay inside the directory Scout was started in',
    });
    expect((await call(app, "glob", { pattern: "{src,out}/*" })).isError).toBe(true);
    expect((await call(app, "glob", { pattern: "src-link/*.ts" })).content).toBe(
      'Error: the folder in pattern "src-link" goes through a symlink (it is "src"); glob does not follow symlinks, so write "src" in the pattern',
    );
    expect((await call(app, "glob", { pattern: "*.ts", path: "src-link" })).content).toBe("src/a.ts"); // a path is followed, as in grep
    expect((await call(app, "glob", { pattern: "**/*" })).content).toBe("src/a.ts"); // never followed while walking
  });

  it("does not follow symlinks, so loops end", async () => {
    fs.symlinkSync(".", path.join(root, "loop"));
    fs.symlinkSync("../a", path.join(root, "a/self"));
    fs.symlinkSync("b.txt", path.join(root, "a/link.txt"));
    fs.utimesSync(path.join(root, "f1.txt"), 2_000, 2_000);
    fs.utimesSync(path.join(root, "a/b.txt"), 1_000, 1_000);
    expect((await call(root, "glob", { pattern: "**/*" })).content).toBe("f1.txt\na/b.txt");
  });
});
