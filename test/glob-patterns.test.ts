// glob patterns a hostile or careless model can write: brace bombs, backtracking wildcards,
// names in another case, and folder names full of pattern syntax, on real trees.
import { tools } from "../src/core/scout.js";
import fs from "node:fs";
import path from "node:path";
import braces from "braces";
import { describe, expect, it } from "vitest";
import { runTool, SCOUT_LIMITS } from "../src/core/tool.js";
import { findNewestFiles } from "../src/guards/file-walk.js";
import { braceExpansionSize, MAX_GROUP_WAYS, MAX_PATTERN_CHARS } from "../src/guards/patterns.js";
import { Workspace } from "../src/core/workspace.js";
import { call, treeMaker } from "./helpers.js";

const tree = treeMaker();
const LONG_NAME = "a".repeat(200);

describe("brace bombs are refused before anything is expanded", () => {
  const root = tree({ "1.txt": "one\n", [LONG_NAME]: "aaa\n" });

  it.each([
    "{ 1..1000}{ 1..1000}{ 1..1000}", // spaces: the braces library reads " 1" as 1
    "{1..1e3}{1..1e3}{1..1e3}", // exponents
    "{1..999}{1..999}",
    "{a..z}{a..z}{a..z}",
    "{a,b,c,d,e,f,g,h,i,j}{a,b,c,d,e,f,g,h,i,j}{a,b,c,d,e,f,g,h,i,j}{k,l}",
    "{x,{ 1..100}}{x,{ 1..100}}", // nested groups add up: 101 × 101
    'src/"x"/{ 1..1000}{ 1..1000}', // a quoted part before the groups
    "{1..1000..1}{ 1..1000}",
  ])("glob and grep's include refuse %s", async (pattern) => {
    const glob = await call(root, "glob", { pattern });
    expect(glob.content).toBe(
      `Error: pattern "${pattern}" expands to more than 1000 alternatives; use a simpler pattern`,
    );
    const grep = await call(root, "grep", { pattern: "one", include: pattern });
    expect(grep.content).toBe(
      `Error: include "${pattern}" expands to more than 1000 alternatives; use a simpler pattern`,
    );
  });

  it.each([
    "{a,b}{1..3}",
    "{ 1..5}",
    "{1..1e1}",
    "{a..e..2}",
    "x{a,{b,c}}y{d,e}",
    "{10..1..3}",
    '"{a,b}"{c,d}',
    "\\{a,b}{c,d}",
    "{}{a,b}",
    "{a,b",
    "\x24{a,b}{c,d}", // ${…} is kept as written
    "[{]a,b[}]",
  ])("counts %s exactly as the braces library expands it", (pattern) => {
    expect(braceExpansionSize(pattern)).toBe(braces(pattern, { expand: true, keepEscaping: true }).length);
  });

  it("still expands a pattern within the limit", async () => {
    expect((await call(root, "glob", { pattern: "{ 1..3}.txt" })).content).toBe("1.txt");
  });
});

describe("wildcards that would backtrack for minutes are refused", () => {
  const root = tree({
    [LONG_NAME]: "aaa\n",
    [`d/${LONG_NAME}/x/${LONG_NAME}`]: "aaa\n",
    "src/app/main.test.ts": "",
  });

  it.each([
    "*a*a*a*a*a*b",
    "**/*a*a*a*a*a*b",
    "*a*a*b",
    "*a*/*a*b",
    "**/a/**/a/**/b",
    "**/a/**/*a*b",
    "{x,*a*a*a*b}",
    "@(*a*a*b)",
    "*(a)*(a)*(a)b",
    "+(a)+(a)+(a)+(a)b",
    "a**b**c**d",
  ])("%s", async (pattern) => {
    const { content, isError } = await call(root, "glob", { pattern });
    expect(isError).toBe(true);
    expect(content).toMatch(/has too many wildcards to match in bounded time/);
  });

  it.each(["+(a*)b", "*(a|*b)", "!(*a)x"])("%s repeats a wildcard inside a repeating group", async (pattern) => {
    expect((await call(root, "glob", { pattern })).content).toBe(
      `Error: pattern "${pattern}" repeats a wildcard inside "*(…)", "+(…)" or "!(…)", which can take minutes to match; use a simpler pattern`,
    );
  });

  // The cases: 18 and 21 "?(a|aa)" took 11.7 s and 2 min 32 s on one 60-character name; the second
  // took 34.9 s on Scout's own tree, with no hostile name at all.
  it.each([
    `${"?(a|aa)".repeat(18)}b`,
    `${"?(a|aa)".repeat(21)}b`,
    `**/${"?([a-z.-]|[a-z.-][a-z.-])".repeat(17)}Z`,
    `${"@(a|aa)".repeat(5)}b`, // 32 ways, none optional
    `${"(a|aa)".repeat(5)}b`, // plain groups alternate too
    "*.@(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q)", // 17 alternatives in one group
    "{x,y}/?(a|aa)?(a|aa)?(a|aa)b", // on each pattern the braces expand to: 27 ways
    "?(a)?(b)?(c)?(d)?(e)", // 2 ways each: 32
    "src/?(a|b)/?(a|b)/?(a|b)", // 27 ways over three segments
  ])("%s: its groups multiply the ways to match: refused before any name is matched", async (pattern) => {
    const { content, isError } = await call(root, "glob", { pattern });
    expect(isError).toBe(true);
    expect(content).toMatch(
      new RegExp(
        `has groups \\("@\\(…\\)", "\\?\\(…\\)", "\\(…\\|…\\)"\\) that can match a name in more than ${MAX_GROUP_WAYS} ways`,
      ),
    );
  });

  it.each(["@(a|@(b|c))", "?(?(a))", "@(x|(a|aa))"])("%s: a group inside a group is refused", async (pattern) => {
    expect((await call(root, "glob", { pattern })).content).toBe(
      `Error: pattern "${pattern}" has a group inside a group ("@(a|?(b))"), whose ways to match multiply; use braces instead ("{a,b}"), which are expanded before matching`,
    );
  });

  it.each([
    ["**/*.@(ts|tsx|js|jsx|mjs|cjs)", "src/app/main.test.ts"],
    ["src/@(app|lib)/*.@(ts|js)", "src/app/main.test.ts"],
    ["src/app/main.test?(s).ts", "src/app/main.test.ts"],
    ["src/app/?(a|b|m)ain.test.ts", "src/app/main.test.ts"],
    ["*a*b", "No files match"],
    ["**/*test*.ts", "src/app/main.test.ts"],
    ["**/app/**/*.ts", "src/app/main.test.ts"],
    ["*/*/*.ts", "src/app/main.test.ts"],
    ["src/@(app|lib)/*.ts", "src/app/main.test.ts"],
    ["[!b]*a*", `${LONG_NAME}`],
    ["src/(app)/*test*.ts", "src/app/main.test.ts"], // a group at the start of a segment does not repeat
    ["src/(app|lib)/*.ts", "src/app/main.test.ts"],
    ["src/(ap*)/*.ts", "src/app/main.test.ts"],
  ])("keeps the everyday pattern %s", async (pattern, first) => {
    const { content, isError } = await call(root, "glob", { pattern });
    expect(isError).toBe(false);
    expect(content.startsWith(first)).toBe(true);
  });

  it("stops a walk at its deadline, and when the signal aborts", async () => {
    const workspace = new Workspace(root);
    const late = await findNewestFiles(workspace, ".", "**/*", { deadline: Date.now() - 1, limits: SCOUT_LIMITS });
    expect(late.stopped).toBe("deadline");
    const aborted = new AbortController();
    aborted.abort();
    const cancelled = await findNewestFiles(workspace, ".", "**/*", { signal: aborted.signal, limits: SCOUT_LIMITS });
    expect(cancelled).toEqual({ newest: [], total: 0, stopped: "cancelled", cappedFolders: 0 });
    const result = await runTool("glob", { pattern: "**/*" }, { workspace, signal: aborted.signal }, tools);
    expect(result).toEqual({ content: "Error: glob was cancelled", isError: true, summary: "error" });
  });
});

describe("smart case: a pattern without upper-case letters matches any case", () => {
  const root = tree({
    "fileA.txt": { content: "", mtime: 3_000 },
    "FileB.TXT": { content: "", mtime: 2_000 },
    "docs/README.MD": { content: "", mtime: 1_000 },
    "Docs2/Guide.Md": { content: "", mtime: 1_000 },
  });

  it.each([
    ["*.txt", "fileA.txt\nFileB.TXT"],
    ["docs/*.md", "docs/README.MD"],
    ["**/*.md", "Docs2/Guide.Md\ndocs/README.MD"],
    ["DOCS/*", 'No files match "DOCS/*".'],
    ["docs2/guide.md", "Docs2/Guide.Md"],
    ["*.TXT", "FileB.TXT"],
    ["File*", "FileB.TXT"],
    ["**/README.md", 'No files match "**/README.md".'],
  ])("%s", async (pattern, expected) => {
    expect((await call(root, "glob", { pattern })).content).toBe(expected);
  });
});

describe("a pattern naming a file literally finds it, whatever syntax its folders hold", () => {
  const root = tree({
    "src/app/[test]/(dashboard)/code.tsx": { content: "", mtime: 2_000 },
    "src/app/[slug]/(marketing)/page.tsx": "",
    "src/app/t/dashboard/code.tsx": { content: "", mtime: 1_000 },
    "lib/{a,b}.js": "",
    "lib/a.js": "",
    "notes/+(x).md": "",
    "[private]/.env": "SECRET=1\n",
    "[ignored]/x.txt": "",
    ".gitignore": "[[]ignored]/\n",
  });
  fs.symlinkSync("src/app", path.join(root, "[link]"));

  it.each([
    // "[test]" also reads as one letter of "test", and "(dashboard)" as a group: both files are found
    ["src/app/[test]/(dashboard)/code.tsx", "src/app/[test]/(dashboard)/code.tsx\nsrc/app/t/dashboard/code.tsx"],
    ["src/app/\\[test\\]/\\(dashboard\\)/code.tsx", "src/app/[test]/(dashboard)/code.tsx"],
    ["src/app/[slug]/(marketing)/page.tsx", "src/app/[slug]/(marketing)/page.tsx"],
    ["notes/+(x).md", "notes/+(x).md"],
  ])("%s", async (pattern, expected) => {
    expect((await call(root, "glob", { pattern })).content).toBe(expected);
  });

  it("adds the literal file to what the pattern matches", async () => {
    expect((await call(root, "glob", { pattern: "lib/{a,b}.js" })).content.split("\n").sort()).toEqual([
      "lib/a.js",
      "lib/{a,b}.js",
    ]);
  });

  it("never through a symlink, nor a protected or ignored file", async () => {
    for (const pattern of ["[link]/[test]/(dashboard)/code.tsx", "[private]/.env", "[ignored]/x.txt"]) {
      const { content } = await call(root, "glob", { pattern });
      expect(content.startsWith(`No files match "${pattern}".`)).toBe(true);
    }
  });

  it("tells the model how to escape when nothing matches", async () => {
    expect((await call(root, "glob", { pattern: "src/app/[nope]/page.tsx" })).content).toBe(
      'No files match "src/app/[nope]/page.tsx". [ ] ( ) { } are pattern syntax; to match them in a name, put \\ before each, e.g. "app/\\[slug\\]/page.tsx".',
    );
  });
});

describe("long patterns and escaped extglobs get their true reason", () => {
  const root = tree({ "src/a.ts": "one\n" });

  it(`refuses a pattern over ${MAX_PATTERN_CHARS} characters for its length, not as too many alternatives`, async () => {
    const long = "a".repeat(MAX_PATTERN_CHARS + 1); // no braces at all
    const expected = (arg: string) =>
      `Error: ${arg} is 10,001 characters long, over the 10,000-character limit; use a shorter pattern`;
    expect((await call(root, "glob", { pattern: long })).content).toBe(expected("pattern"));
    expect((await call(root, "grep", { pattern: "one", include: long })).content).toBe(expected("include"));
    expect((await call(root, "glob", { pattern: "a".repeat(MAX_PATTERN_CHARS) })).content).toMatch(/^No files match/);
  });

  it("an escaped extglob naming a symlinked folder is refused as a symlink, not as a backslash separator", async () => {
    const linked = tree({ "real/a.txt": "x\n" });
    fs.symlinkSync("real", path.join(linked, "@(x)"));
    for (const pattern of ["\\@\\(x\\)/*", "\\@(x)/*", "@\\(x\\)/*"]) {
      expect((await call(linked, "glob", { pattern })).content, pattern).toBe(
        'Error: the folder in pattern "@(x)" goes through a symlink (it is "real"); glob does not follow symlinks, so write "real" in the pattern',
      );
    }
  });
});
