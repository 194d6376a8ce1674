// list_files: one level, newest first, directories marked, the cap and the
// count of hidden entries, on real directories with explicit mtimes.
import { tools } from "../src/core/scout.js";
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { forEachEntry, MAX_FOLDER_ENTRIES } from "../src/guards/folder-entries.js";
import { runTool } from "../src/core/tool.js";
import { MAX_RESULT_LINES } from "../src/core/tool.js";
import { Workspace } from "../src/core/workspace.js";
import { call, type FileSpec, MEMORY_TMP, makeTree, setMtime, treeMaker } from "./helpers.js";

const tree = treeMaker();

describe("list_files", () => {
  it("lists one level, directories ending in /, newest first", async () => {
    const root = tree({
      "old.txt": { content: "", mtime: 1_000 },
      "new.txt": { content: "", mtime: 3_000 },
      "src/deep/file.ts": "",
    });
    setMtime(root, "src", 2_000); // after its contents were written
    const result = await call(root, "list_files", {});
    expect(result).toEqual({
      content: "new.txt\nsrc/\nold.txt",
      isError: false,
      summary: "3 entries",
      facts: { total: 3, capped: false },
    });
  });

  it("orders entries with the same mtime by name", async () => {
    const root = tree({
      "b.txt": { content: "", mtime: 5_000 },
      "a.txt": { content: "", mtime: 5_000 },
      "c.txt": { content: "", mtime: 6_000 },
    });
    expect((await call(root, "list_files", { path: "." })).content).toBe("c.txt\na.txt\nb.txt");
  });

  it("lists a subdirectory, showing names relative to it", async () => {
    const root = tree({
      "src/a.ts": { content: "", mtime: 1_000 },
      "src/b.ts": { content: "", mtime: 2_000 },
      "src/lib/c.ts": "",
    });
    setMtime(root, "src/lib", 500);
    expect((await call(root, "list_files", { path: "src" })).content).toBe("b.ts\na.ts\nlib/");
  });

  it("leaves out FIFOs and sockets, as glob and grep do, and counts them", async () => {
    const root = tree({ "a.txt": "" });
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    const server = net.createServer().listen(path.join(root, "sock"));
    await once(server, "listening");
    try {
      expect(await call(root, "list_files", {})).toEqual({
        content: "a.txt\n(2 FIFOs, sockets or devices not listed)",
        isError: false,
        summary: "1 entry",
        facts: { total: 1, capped: false },
      });
    } finally {
      server.close();
    }
  });

  it("marks symlinks with @ and does not follow them", async () => {
    const root = tree({ "target.txt": "" });
    fs.symlinkSync("target.txt", path.join(root, "link"));
    fs.utimesSync(path.join(root, "target.txt"), 2_000, 2_000);
    fs.lutimesSync(path.join(root, "link"), 1_000, 1_000);
    expect((await call(root, "list_files", {})).content).toBe("target.txt\nlink@");
  });

  it("says how many entries ignore rules and protection hid", async () => {
    const root = tree({
      ".gitignore": { content: "*.log\nbuild/\n", mtime: 1_000 },
      "app.log": "",
      "build/out.js": "",
      "node_modules/x/index.js": "",
      ".env": "SECRET=1",
      "main.ts": { content: "", mtime: 2_000 },
    });
    fs.mkdirSync(path.join(root, ".git"));
    const result = await call(root, "list_files", {});
    expect(result.content).toBe("main.ts\n.gitignore\n(5 entries hidden by ignore rules or protection)");
  });

  it("uses the singular for one hidden entry", async () => {
    const root = tree({ id_rsa: "key", "a.txt": "" });
    expect((await call(root, "list_files", {})).content).toBe("a.txt\n(1 entry hidden by ignore rules or protection)");
  });

  it("says when a directory has no visible entries", async () => {
    const root = tree({ "empty/.gitkeep": "" });
    fs.rmSync(path.join(root, "empty/.gitkeep"));
    expect(await call(root, "list_files", { path: "empty" })).toEqual({
      content: "(empty has no visible entries)",
      isError: false,
      summary: "0 entries",
      facts: { total: 0, capped: false },
    });
  });

  it(`shows the ${MAX_RESULT_LINES} newest of more entries and says how to find the others`, async () => {
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < 130; i++) files[`f${String(i).padStart(3, "0")}.txt`] = { content: "", mtime: 10_000 + i };
    files[".env.local"] = "SECRET=1";
    const root = tree(files);
    const lines = (await call(root, "list_files", {})).content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines[0]).toBe("f129.txt");
    expect(lines[MAX_RESULT_LINES - 1]).toBe("f030.txt");
    expect(lines[MAX_RESULT_LINES]).toBe(
      "(showing 100 of 130 entries, newest first; 1 entry hidden by ignore rules or protection; use glob with a pattern to find the others)",
    );
  });

  it("lists exactly the cap without a footer", async () => {
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < MAX_RESULT_LINES; i++) files[`f${i}.txt`] = "";
    const lines = (await call(tree(files), "list_files", {})).content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES);
    expect(lines.every((line) => /^f\d+\.txt$/.test(line))).toBe(true);
  });

  it("shows dotfiles that are neither ignored nor protected", async () => {
    const root = tree({
      ".github/workflows/ci.yml": "",
      ".env.example": { content: "", mtime: 1_000 },
      ".editorconfig": { content: "", mtime: 2_000 },
    });
    setMtime(root, ".github", 3_000);
    expect((await call(root, "list_files", {})).content).toBe(".github/\n.editorconfig\n.env.example");
  });

  it("refuses a file and suggests read_file", async () => {
    const root = tree({ "a.txt": "" });
    expect(await call(root, "list_files", { path: "a.txt" })).toMatchObject({
      isError: true,
      content: "Error: a.txt is a file, not a directory; use read_file to read it",
    });
  });

  it("refuses a path that does not exist", async () => {
    const root = tree({ "a.txt": "" });
    expect(await call(root, "list_files", { path: "nope" })).toMatchObject({
      isError: true,
      content: "Error: not found: nope; use list_files to see what exists",
    });
  });

  it("refuses to list a directory that ignore rules hide", async () => {
    const root = tree({ ".gitignore": "dist/\n", "dist/bundle.js": "", "node_modules/pkg/index.js": "" });
    expect((await call(root, "list_files", { path: "dist" })).content).toBe(
      "Error: dist is hidden by ignore rules (.gitignore, .ignore, node_modules, .git), so it is not searched or listed",
    );
    expect((await call(root, "list_files", { path: "node_modules/pkg" })).isError).toBe(true);
  });

  it("refuses a protected directory", async () => {
    const root = tree({ ".ssh/config": "Host secret-host" });
    const result = await call(root, "list_files", { path: ".ssh" });
    expect(result).toMatchObject({
      isError: true,
      content: 'Error: path ".ssh" is protected (secrets, keys and .git internals are never read or listed)',
    });
  });
});

describe("a folder with more entries than MAX_FOLDER_ENTRIES: list_files and glob stream it", () => {
  // 101,000 entries, most of them symlinks (one system call each, so the tree is quick to build), in memory where
  // the machine has a folder there. A million took list_files 32 s and 366 MB, synchronously.
  let root = "";
  let big = "";
  beforeAll(() => {
    root = makeTree({ "big/first.txt": { content: "", mtime: 9_000 } }, "scout-big-", MEMORY_TMP);
    big = path.join(root, "big");
    for (let i = 0; i < MAX_FOLDER_ENTRIES + 1_000; i++) fs.symlinkSync("first.txt", path.join(big, `l${i}`));
  }, 300_000); // 101,000 system calls: seconds, or a minute with both cores busy

  it("list_files reads at most MAX_FOLDER_ENTRIES entries and says the folder holds more", async () => {
    const { content, isError } = await call(root, "list_files", { path: "big" });
    expect(isError).toBe(false);
    const lines = content.split("\n");
    expect(lines).toHaveLength(MAX_RESULT_LINES + 1);
    expect(lines.at(-1)).toBe(
      `(showing 100 of ${MAX_FOLDER_ENTRIES} entries, newest first; the folder holds more than 100,000 entries; only the first 100,000 read were sorted; use glob with a pattern to find the others)`,
    );
  });

  it("list_files lets the event loop turn while it reads, so Ctrl-C stops it", async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort()); // runs only if the listing gives the thread back
    const result = await runTool(
      "list_files",
      { path: "big" },
      { workspace: new Workspace(root), signal: controller.signal },
      tools,
    );
    expect(result.content).toBe("Error: list_files was cancelled");
  });

  it("glob walks only the first MAX_FOLDER_ENTRIES entries of the folder, and says so", async () => {
    const { content } = await call(root, "glob", { pattern: "big/*.md" });
    expect(content.split("\n")).toEqual([
      'No files match "big/*.md" among the entries read.',
      "(1 folder held more than 100,000 entries; only the first 100,000 of each were searched, so the list may be incomplete; use a narrower path)",
    ]);
  });

  it("forEachEntry stops at the cap, at the deadline and on the signal", async () => {
    let seen = 0;
    expect(await forEachEntry(big, {}, () => seen++)).toEqual({ capped: true });
    expect(seen).toBe(MAX_FOLDER_ENTRIES);
    expect(await forEachEntry(big, { deadline: Date.now() - 1 }, () => {})).toEqual({
      capped: false,
      stopped: "deadline",
    });
    expect(await forEachEntry(big, { signal: AbortSignal.abort() }, () => {})).toEqual({
      capped: false,
      stopped: "cancelled",
    });
  });
});
