// Visibility: one shared rule decides which files exist for the search tools.
// The invariant: glob "**/*", grep with a pattern every file matches, and a
// recursive list_files walk return the same set of files, on a tree with
// ignored, hidden, protected and symlinked entries, and a FIFO.
import { tools } from "../src/core/scout.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { describe, expect, it } from "vitest";
import { runTool } from "../src/core/tool.js";
import { MAX_GLOBSTARS_PER_RULE } from "../src/guards/ignore-rules.js";
import { rgWouldReadSkipped } from "../src/guards/rg-ignore-walk.js";
import { DENIED_GLOBS, rgSkipsName } from "../src/guards/protected.js";
import { Workspace } from "../src/core/workspace.js";
import { call, makeTree } from "./helpers.js";

const base = makeTree({
  // Every file holds the line MARK, ignore files as a comment.
  "app/.gitignore": "# MARK\n*.log\nbuild/\n/root-only.txt\n**/gen/**\n!important.log\n",
  "app/.ignore": "# MARK\n*.bak\nscratch/\n!negated.log\n", // a "!" here cannot undo .gitignore
  "app/.rgignore": "# MARK\nsrc/b.ts\n*.md\n", // rg's own file: Scout does not honour it
  "app/src/a.ts": "MARK\n",
  "app/src/b.ts": "MARK\n",
  "app/src/gen/z.ts": "MARK\n",
  "app/gen/x.ts": "MARK\n",
  "app/app.log": "MARK\n",
  "app/important.log": "MARK\n",
  "app/negated.log": "MARK\n",
  "app/root-only.txt": "MARK\n",
  "app/build/out.js": "MARK\n",
  "app/sub/root-only.txt": "MARK\n",
  "app/sub/build/out.js": "MARK\n",
  "app/sub/.gitignore": "# MARK\n!keep.log\nlocal.txt\n",
  "app/sub/keep.log": "MARK\n",
  "app/sub/other.log": "MARK\n",
  "app/sub/local.txt": "MARK\n",
  "app/sub/.ignore": "# MARK\nnotes.md\n",
  "app/sub/notes.md": "MARK\n",
  "app/notes.md": "MARK\n",
  "app/sub/deep/.gitignore": "# MARK\n*.tmp\n",
  "app/sub/deep/x.tmp": "MARK\n",
  "app/sub/deep/y.txt": "MARK\n",
  "app/a.bak": "MARK\n",
  "app/scratch/s.txt": "MARK\n",
  "app/.github/workflows/ci.yml": "MARK\n",
  "app/.editorconfig": "MARK\n",
  "app/.env": "MARK\n",
  "app/.env.local": "MARK\n",
  "app/.Env.Production": "MARK\n",
  "app/.env.example": "MARK\n",
  "app/.env.sample": "MARK\n",
  "app/config/.env.test": "MARK\n",
  "app/id_rsa": "MARK\n",
  "app/ID_ED25519.pub": "MARK\n",
  "app/keys/server.pem": "MARK\n",
  "app/keys/api.KEY": "MARK\n",
  "app/keys/readme.txt": "MARK\n",
  "app/.npmrc": "MARK\n",
  "app/.netrc": "MARK\n",
  "app/.ssh/config": "MARK\n",
  "app/.aws/credentials": "MARK\n",
  "app/.git/config": "MARK\n",
  "app/.git/HEAD": "MARK\n",
  "app/sub/.git/config": "MARK\n",
  "app/node_modules/pkg/index.js": "MARK\n",
  "app/sub/node_modules/x.js": "MARK\n",
  "app/Node_Modules/x.js": "MARK\n", // noise folders are matched exactly, like .gitignore names
  "app/docs/read me.md": "MARK\n",
  "app/docs/ünï.txt": "MARK\n",
  "outside/o.txt": "MARK\n",
});
const root = path.join(base, "app");
fs.symlinkSync("src/a.ts", path.join(root, "link-a.ts"));
fs.symlinkSync("src", path.join(root, "link-src"));
fs.symlinkSync("../outside", path.join(root, "link-out"));
fs.symlinkSync("../outside/o.txt", path.join(root, "link-o.txt"));
fs.symlinkSync(".env", path.join(root, "link-env"));
fs.symlinkSync(".", path.join(root, "sub/loop"));
execFileSync("mkfifo", [path.join(root, "sub/pipe")]); // not a file: no tool shows it, none hangs on it

const VISIBLE = [
  ".editorconfig",
  ".env.example",
  ".env.sample",
  ".github/workflows/ci.yml",
  ".gitignore",
  ".ignore",
  ".rgignore",
  "Node_Modules/x.js",
  "docs/read me.md",
  "docs/ünï.txt",
  "important.log",
  "keys/readme.txt",
  "notes.md",
  "src/a.ts",
  "src/b.ts",
  "sub/.gitignore",
  "sub/.ignore",
  "sub/deep/.gitignore",
  "sub/deep/y.txt",
  "sub/keep.log",
  "sub/root-only.txt",
].sort();
const VISIBLE_IN_SUB = VISIBLE.filter((file) => file.startsWith("sub/"));

async function globFiles(dir: string): Promise<string[]> {
  const { content, isError } = await call(root, "glob", { pattern: "**/*", path: dir });
  expect(isError).toBe(false);
  return content.split("\n").sort();
}

async function grepFiles(dir: string): Promise<string[]> {
  const { content, isError } = await call(root, "grep", { pattern: "MARK", path: dir });
  expect(isError).toBe(false);
  return content
    .split("\n")
    .map((line) => /^(.*):1:(# )?MARK$/.exec(line)![1])
    .sort();
}

/** Every file a recursive list_files walk shows (not directories, not symlinks). */
async function listedFiles(dir: string): Promise<string[]> {
  const { content, isError } = await call(root, "list_files", { path: dir });
  expect(isError).toBe(false);
  const files: string[] = [];
  for (const line of content.split("\n")) {
    if (line.startsWith("(")) continue; // the footer
    const rel = dir === "." ? line : `${dir}/${line}`;
    if (line.endsWith("/")) files.push(...(await listedFiles(rel.slice(0, -1))));
    else if (!line.endsWith("@")) files.push(rel);
  }
  return files.sort();
}

describe("the visibility invariant", () => {
  it("glob '**/*' shows exactly the visible files", async () => {
    expect(await globFiles(".")).toEqual(VISIBLE);
  });

  it("grep searches exactly the files glob shows", async () => {
    expect(await grepFiles(".")).toEqual(await globFiles("."));
  });

  it("a recursive list_files walk shows exactly the files glob shows", async () => {
    expect(await listedFiles(".")).toEqual(await globFiles("."));
  });

  it("holds for a subdirectory too (rg does not read the root's .gitignore there)", async () => {
    expect(await globFiles("sub")).toEqual(VISIBLE_IN_SUB);
    expect(await grepFiles("sub")).toEqual(VISIBLE_IN_SUB);
    expect(await listedFiles("sub")).toEqual(VISIBLE_IN_SUB);
  });
});

describe("newest first", () => {
  it("all three tools order by the nanosecond: two times 50 ns apart are not a tie", async () => {
    const dir = path.join(base, "nanoseconds");
    fs.mkdirSync(dir);
    for (const [name, time] of [
      ["a.txt", "2024-05-01 10:00:00.000000050"],
      ["b.txt", "2024-05-01 10:00:00.000000100"],
    ]) {
      fs.writeFileSync(path.join(dir, name), "MARK\n");
      execFileSync("touch", ["-d", time, path.join(dir, name)]); // fs.utimes takes seconds as a double: no nanoseconds at today's dates
    }
    const workspace = new Workspace(dir);
    // b.txt is newer; as mtimeMs floats (about 0.24 µs apart at today's dates) the two would tie, and a.txt come first by name.
    expect((await runTool("glob", { pattern: "*" }, { workspace }, tools)).content).toBe("b.txt\na.txt");
    expect((await runTool("list_files", {}, { workspace }, tools)).content).toBe("b.txt\na.txt");
    expect((await runTool("grep", { pattern: "MARK" }, { workspace }, tools)).content).toBe(
      "b.txt:1:MARK\na.txt:1:MARK",
    );
  });
});

describe("ignore rules", () => {
  it("are read again on every call: a .gitignore written mid-session hides at once, from every tool", async () => {
    const dir = path.join(base, "session");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "a.log"), "MARK\n");
    fs.writeFileSync(path.join(dir, "b.txt"), "MARK\n");
    const workspace = new Workspace(dir); // one session's workspace, as the REPL keeps it
    const seen = async () => [
      (await runTool("glob", { pattern: "*.{log,txt}" }, { workspace }, tools)).content,
      (await runTool("grep", { pattern: "MARK" }, { workspace }, tools)).content,
      (await runTool("list_files", {}, { workspace }, tools)).content
        .split("\n")
        .filter((line) => line !== ".gitignore")
        .sort()
        .join("\n"),
    ];
    expect(await seen()).toEqual([expect.stringContaining("a.log"), expect.stringContaining("a.log"), "a.log\nb.txt"]);
    fs.writeFileSync(path.join(dir, ".gitignore"), "*.log\n");
    expect(await seen()).toEqual(["b.txt", "b.txt:1:MARK", "(1 entry hidden by ignore rules or protection)\nb.txt"]);
  });

  it("a row of globstars in a .gitignore line is matched as one, so it cannot stall the tools", async () => {
    // Matched as written, the first line backtracks for minutes on the deep path (no answer before the test's timeout).
    const deep = `a/${"d/".repeat(24)}f.txt`;
    const dir = path.join(base, "globstars");
    fs.mkdirSync(path.dirname(path.join(dir, deep)), { recursive: true });
    fs.writeFileSync(path.join(dir, ".gitignore"), `a/${"**/".repeat(14)}z\na/**/d/**/d/**/f.txt\n`);
    fs.writeFileSync(path.join(dir, deep), "MARK\n");
    const workspace = new Workspace(dir);
    // The second line has more than MAX_GLOBSTARS_PER_RULE globstars: Scout skips it, rg applies it.
    expect(MAX_GLOBSTARS_PER_RULE).toBeLessThan(3);
    expect((await runTool("glob", { pattern: "**/*.txt" }, { workspace }, tools)).content).toBe(deep);
    expect((await runTool("grep", { pattern: "MARK" }, { workspace }, tools)).content).toBe(
      "No matches for /MARK/ in the workspace.",
    );
  });

  it("a symlinked folder is judged where it points, so a link cannot show what the rules hide", async () => {
    const dir = path.join(base, "links");
    for (const [file, text] of [
      ["src/main.c", "MARK\n"],
      ["src/private_notes.txt", "MARK\n"],
      ["build/out.js", "MARK\n"],
      [".gitignore", "build/\n/src/private_notes.txt\n"],
    ]) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    fs.symlinkSync("src", path.join(dir, "lnk"));
    fs.symlinkSync("build", path.join(dir, "out"));
    const workspace = new Workspace(dir);
    const run = async (name: string, input: object) => (await runTool(name, input, { workspace }, tools)).content;
    expect(await run("list_files", { path: "lnk" })).toBe("main.c\n(1 entry hidden by ignore rules or protection)");
    expect(await run("glob", { pattern: "*", path: "lnk" })).toBe("src/main.c");
    expect(await run("grep", { pattern: "MARK", path: "lnk" })).toBe("src/main.c:1:MARK");
    expect(await run("list_files", { path: "out" })).toMatch(/^Error: out is hidden by ignore rules/);
    expect(await run("glob", { pattern: "out/*" })).toMatch(
      /^Error: the folder in pattern "out" goes through a symlink \(it is "build"\)/,
    );
  });

  it("a deeper .gitignore re-includes with !", async () => {
    expect((await call(root, "glob", { pattern: "**/*.log" })).content.split("\n").sort()).toEqual([
      "important.log",
      "sub/keep.log",
    ]);
  });

  it("a ! in .ignore cannot bring back a file .gitignore hides", async () => {
    expect((await call(root, "glob", { pattern: "negated.log" })).content).toBe('No files match "negated.log".');
    expect((await call(root, "grep", { pattern: "MARK", include: "negated.log" })).content).toBe(
      "No matches for /MARK/ in the workspace (files matching negated.log).",
    );
  });

  it("list_files counts what the rules hide", async () => {
    const { content } = await call(root, "list_files", { path: "sub" });
    expect(content.split("\n").at(-1)).toBe(
      "(6 entries hidden by ignore rules or protection; 1 FIFO, socket or device not listed)",
    ); // build, other.log, local.txt, notes.md, .git, node_modules; pipe
  });

  it("read_file reads an ignored file or a node_modules file named explicitly", async () => {
    expect((await call(root, "read_file", { path: "app.log" })).content).toBe("1\tMARK\n(lines 1-1 of 1)");
    expect((await call(root, "read_file", { path: "node_modules/pkg/index.js" })).content).toBe(
      "1\tMARK\n(lines 1-1 of 1)",
    );
  });

  it("grep searches an ignored file named explicitly", async () => {
    expect((await call(root, "grep", { pattern: "MARK", path: "build/out.js" })).content).toBe("build/out.js:1:MARK");
  });

  it("an include glob cannot bring back ignored or protected files", async () => {
    for (const include of ["*.log", "**/gen/**", ".env*", "id_rsa", "**/node_modules/**", "*.pem"]) {
      const { content } = await call(root, "grep", { pattern: "MARK", include });
      expect(
        content
          .split("\n")
          .filter(
            (line) =>
              !/^(important\.log|sub\/keep\.log|\.env\.(example|sample)):1:MARK$/.test(line) &&
              !line.startsWith("No matches"),
          ),
      ).toEqual([]);
    }
  });

  it("a path that leaves the root is never visible", () => {
    const workspace = new Workspace(root);
    for (const rel of ["..", "../outside/o.txt", "src/../../outside/o.txt", "/etc/passwd", `${root}/src/a.ts`]) {
      expect(workspace.isVisible(rel)).toBe(false);
    }
    expect(workspace.isVisible("src/a.ts")).toBe(true);
  });
});

/** The files glob, grep (every file holds MARK) and a recursive list_files walk show under `dir`, and any note. */
async function threeViews(dir: string, sub = ".") {
  const split = (content: string) => {
    const lines = content.split("\n");
    const note = lines.at(-1)?.startsWith("(ignore files not read") ? lines.pop() : undefined;
    return { lines, note };
  };
  const glob = split((await call(dir, "glob", { pattern: "**/*", path: sub })).content);
  const grep = split((await call(dir, "grep", { pattern: "MARK", path: sub })).content);
  const walk = async (rel: string): Promise<string[]> => {
    const { lines } = split((await call(dir, "list_files", { path: rel })).content);
    const files: string[] = [];
    for (const line of lines) {
      if (line.startsWith("(")) continue;
      const entry = rel === "." ? line : `${rel}/${line}`;
      if (line.endsWith("/")) files.push(...(await walk(entry.slice(0, -1))));
      else if (!line.endsWith("@")) files.push(entry);
    }
    return files;
  };
  return {
    glob: glob.lines.sort(),
    grep: grep.lines.map((line) => line.split(":")[0]).sort(),
    list: (await walk(sub)).sort(),
    notes: [glob.note, grep.note],
  };
}

describe("ignore files Scout does not read are read by no tool, rg included: one visible set", () => {
  it("a symlinked .gitignore (git does not follow one either)", async () => {
    const dir = makeTree({ "rules.txt": "# MARK\n*.log\n", "sub/a.log": "MARK\n", "sub/b.txt": "MARK\n" });
    fs.symlinkSync("../rules.txt", path.join(dir, "sub/.gitignore"));
    const views = await threeViews(dir);
    const files = ["rules.txt", "sub/a.log", "sub/b.txt"];
    expect(views).toEqual({
      glob: files,
      grep: files,
      list: files,
      notes: Array(2).fill("(ignore files not read, so their rules do not apply: sub/.gitignore (it is a symlink))"),
    });
  });

  it("a .gitignore symlinked to /dev/zero: every tool answers at once, rg does not read it", async () => {
    const dir = makeTree({ "a.txt": "MARK\n" });
    fs.symlinkSync("/dev/zero", path.join(dir, ".gitignore"));
    const views = await threeViews(dir);
    expect([views.glob, views.grep, views.list]).toEqual([["a.txt"], ["a.txt"], ["a.txt"]]);
  });

  it("the same in a protected folder rg still enters (.env.d has no rg glob): rg does not read it, no note names it", async () => {
    const dir = makeTree({ "a.txt": "MARK\n", ".env.d/secret.txt": "MARK\n" });
    fs.symlinkSync("/dev/zero", path.join(dir, ".env.d/.gitignore"));
    const views = await threeViews(dir);
    expect(views).toEqual({ glob: ["a.txt"], grep: ["a.txt"], list: ["a.txt"], notes: [undefined, undefined] });
  });

  // The walk skips a folder only where rg's globs skip it (rgSkipsName, a mirror of DENIED_GLOBS): were the
  // mirror to claim more than rg does, rg would enter a folder the walk never looked in.
  it("rgSkipsName never claims rg skips a folder that rg, given DENIED_GLOBS, enters", () => {
    const names = [
      ...DENIED_GLOBS.map((glob) =>
        glob
          .replace(/^!(\*\*\/)?/, "")
          .replace(/\/$/, "")
          .replace(/\*/g, "abc"),
      ),
      ...[".env.d", ".env-prod", ".env_prod", "prod.env", ".env.example", ".docker", ".config", "gh", "src"],
    ].filter((name) => !name.includes("/"));
    const tree = makeTree(Object.fromEntries(names.map((name) => [`${name}/f.txt`, "x\n"])));
    const listed = execFileSync(
      rgPath,
      ["--files", "--no-config", "--hidden", ...DENIED_GLOBS.map((glob) => `--iglob=${glob}`)],
      { cwd: tree, encoding: "utf8" },
    ).split("\n");
    const entered = new Set(listed.map((file) => file.slice(0, file.lastIndexOf("/"))));
    const wrong = names.filter((name) => rgSkipsName(name) && entered.has(name));
    expect(wrong, "named as skipped by rg, yet rg entered them").toEqual([]);
    expect(names.filter((name) => rgSkipsName(name)).length, "the check looks at some skipped names").toBeGreaterThan(
      10,
    );
  });

  it("the walk that looks for them stops at Ctrl-C or the deadline, and then rg reads none", async () => {
    const dir = makeTree({ "a/b/c.txt": "MARK\n", "a/.gitignore": "*.log\n" });
    const walk = (stop: { signal?: AbortSignal; deadline: number }) =>
      rgWouldReadSkipped(new Workspace(dir).ignoreRules, fs.realpathSync(dir), "", stop);
    expect(await walk({ deadline: Number.POSITIVE_INFINITY })).toBe(false);
    expect(await walk({ signal: AbortSignal.abort(), deadline: Number.POSITIVE_INFINITY })).toBe(true);
    expect(await walk({ deadline: Date.now() - 1 })).toBe(true);
  });

  it.each([
    ["over 64 KiB", `${"# padding\n".repeat(7000)}a.txt\n`, "it is over 64 KiB"],
    [
      "over 1000 rules",
      `${Array.from({ length: 1000 }, (_, i) => `rule${i}`).join("\n")}\na.txt\n`,
      "it has over 1000 rules",
    ],
  ])("a .gitignore %s is skipped, with a note, by all three tools", async (_, rules, why) => {
    const dir = makeTree({ "sub/.gitignore": rules, "sub/a.txt": "MARK\n", "b.txt": "MARK\n" });
    const views = await threeViews(dir);
    expect(views.glob).toEqual(["b.txt", "sub/.gitignore", "sub/a.txt"]);
    expect(views.grep).toEqual(["b.txt", "sub/a.txt"]); // the .gitignore holds no MARK
    expect(views.list).toEqual(views.glob);
    expect(views.notes).toEqual(
      Array(2).fill(`(ignore files not read, so their rules do not apply: sub/.gitignore (${why}))`),
    );
  });
});

describe(".git/info/exclude is honoured by every tool, as git does, below every .gitignore", () => {
  const dir = makeTree({
    ".git/info/exclude": "# MARK\nscratch/\n*.tmp\n/top.txt\n",
    ".gitignore": "# MARK\n!keep.tmp\n",
    "scratch/notes.txt": "MARK\n",
    "a.tmp": "MARK\n",
    "keep.tmp": "MARK\n",
    "top.txt": "MARK\n",
    "sub/top.txt": "MARK\n",
    "sub/b.tmp": "MARK\n",
    "sub/c.txt": "MARK\n",
  });

  it("from the root", async () => {
    const files = [".gitignore", "keep.tmp", "sub/c.txt", "sub/top.txt"];
    expect(await threeViews(dir)).toEqual({ glob: files, grep: files, list: files, notes: [undefined, undefined] });
  });

  it("from a folder below it (rg is handed the file, matched from the root)", async () => {
    const files = ["sub/c.txt", "sub/top.txt"];
    expect(await threeViews(dir, "sub")).toEqual({
      glob: files,
      grep: files,
      list: files,
      notes: [undefined, undefined],
    });
  });
});

describe("a file name that is not valid UTF-8: one treatment in all four tools", () => {
  // Such a name decodes with U+FFFD in it: shown, it could not be named back, so every tool hides it.
  const dir = makeTree({ "ok.txt": "MARK\n" });
  const raw = (name: number[]) => Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(name)]);
  fs.writeFileSync(raw([0x62, 0x61, 0x64, 0xff, 0x2e, 0x74, 0x78, 0x74]), "MARK\n"); // "bad\xff.txt"
  fs.mkdirSync(raw([0x64, 0xfe]));
  fs.writeFileSync(Buffer.concat([raw([0x64, 0xfe]), Buffer.from("/in.txt")]), "MARK\n"); // "d\xfe/in.txt"

  it("list_files counts them, glob and grep do not show them, read_file says why", async () => {
    expect((await call(dir, "list_files", {})).content).toBe(
      "ok.txt\n(2 with a name that is not valid UTF-8 not listed)",
    );
    expect((await call(dir, "glob", { pattern: "**/*" })).content).toBe("ok.txt");
    expect((await call(dir, "grep", { pattern: "MARK" })).content).toBe("ok.txt:1:MARK");
    expect((await call(dir, "read_file", { path: "bad\uFFFD.txt" })).content).toBe(
      "Error: path holds U+FFFD, the mark of a file name that is not valid UTF-8; such files cannot be named, so no tool reads or lists them",
    );
  });
});

describe("names that could pass for others print apart, in glob, list_files and grep", () => {
  const note = "(showing the 100 newest of 5000 files; use a narrower pattern or path to see others)";
  const dir = makeTree({
    "n/a\\nb": { content: "MARK\n", mtime: 4_000 }, // a backslash and an "n"
    "n/a\nb": { content: "MARK\n", mtime: 3_000 }, // a newline
    [`f/${note}`]: "MARK\n",
    "l/link@": { content: "MARK\n", mtime: 2_000 }, // a regular file
    "l/target.txt": { content: "MARK\n", mtime: 1_000 },
    "u/rep\uFFFDlaced.txt": "MARK\n", // valid UTF-8 that holds U+FFFD itself
  });
  fs.symlinkSync("target.txt", path.join(dir, "l/link"));
  fs.lutimesSync(path.join(dir, "l/link"), 5_000, 5_000); // the link itself, newest

  it("a written backslash-n and a newline", async () => {
    expect((await call(dir, "list_files", { path: "n" })).content).toBe("a\\\\nb\na\\nb");
    expect((await call(dir, "glob", { pattern: "n/*" })).content).toBe("n/a\\\\nb\nn/a\\nb");
    expect((await call(dir, "grep", { pattern: "MARK", path: "n" })).content).toBe("n/a\\\\nb:1:MARK\nn/a\\nb:1:MARK");
  });

  it("a file named like a footer note is not a bare note line", async () => {
    const listed = `\\x28${note.slice(1)}`;
    expect((await call(dir, "list_files", { path: "f" })).content).toBe(listed);
    expect((await call(dir, "glob", { pattern: "*/(*" })).content).toBe(`f/${note}`); // starts with "f/": no note
    expect((await call(dir, "glob", { pattern: "(*", path: "f" })).content).toBe(`f/${note}`);
    const top = makeTree({ [note]: "MARK\n" }); // at the root, glob's line is the name alone
    expect((await call(top, "glob", { pattern: "*" })).content).toBe(listed);
  });

  it('a regular file named "link@" and the symlink "link"', async () => {
    expect((await call(dir, "list_files", { path: "l" })).content).toBe("link@\nlink\\x40\ntarget.txt");
  });

  it("a valid UTF-8 name holding U+FFFD is listed, found and read like any other", async () => {
    expect((await call(dir, "list_files", { path: "u" })).content).toBe("rep\uFFFDlaced.txt");
    expect((await call(dir, "glob", { pattern: "u/*" })).content).toBe("u/rep\uFFFDlaced.txt");
    expect((await call(dir, "grep", { pattern: "MARK", path: "u" })).content).toBe("u/rep\uFFFDlaced.txt:1:MARK");
    expect((await call(dir, "read_file", { path: "u/rep\uFFFDlaced.txt" })).content).toBe("1\tMARK\n(lines 1-1 of 1)");
  });
});
