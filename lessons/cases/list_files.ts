// list_files's core tests, in one place: test/exercises.test.ts runs them against Scout's own
// tool, and `npm run check -- list_files` against a learner's lessons/build/list_files.ts.
//
// They run the tool as the loop does, through runTool (so the arguments are
// checked against its schema first), on real folders with chosen mtimes.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { runTool } from "../../src/core/tool.js";
import { MAX_RESULT_LINES, type Tool } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";
import { type Case, setMtime, type TreeFile, withTree } from "./case.js";

/** Lists `input` with the tool under test in a fresh tree of `files`; `prepare` may change the tree first. */
function listIn(tool: Tool, files: Record<string, TreeFile>, input: unknown, prepare?: (root: string) => void) {
  return withTree(files, async (root) => {
    prepare?.(root);
    return runTool(tool.name, input, { workspace: new Workspace(root) }, [tool]);
  });
}

/**
 * A listing is these entries, in this order, then one note in parentheses matching `count`. The
 * note's wording is the tool designer's (Scout's is in each hint); what it must say is checked.
 */
function assertListing(content: string, entries: string[], count: RegExp, what: string): void {
  const lines = content.split("\n");
  assert.deepEqual(lines.slice(0, -1), entries, "the entries shown");
  const note = lines.at(-1) ?? "";
  assert.match(note, /^\(.*\)$/, `the last line is not a note in parentheses: ${note}`);
  assert.match(note, count, `the note does not say ${what}: ${note}`);
}

export const listFilesCases: Case<Tool>[] = [
  {
    name: "is called list_files and takes one optional string argument, path",
    hint: 'input_schema: { type: "object", properties: { path: { type: "string", description } }, required: [], additionalProperties: false }.',
    run: async (tool) => {
      assert.equal(tool.name, "list_files");
      assert.deepEqual(Object.keys(tool.input_schema.properties), ["path"]);
      assert.equal(tool.input_schema.properties.path.type, "string");
      assert.deepEqual(tool.input_schema.required, []);
    },
  },
  {
    name: "states its cap in its description",
    hint: `A model cannot see your code: the description must say it shows at most ${MAX_RESULT_LINES} entries.`,
    run: async (tool) => assert.match(tool.description, new RegExp(`\\b${MAX_RESULT_LINES}\\b`)),
  },
  {
    name: "lists one level, folders ending in /, newest first",
    hint: "fs.readdirSync(abs, { withFileTypes: true }); add / to folders; sort by mtime (fs.lstatSync(…).mtimeMs), newest first. Do not go into subfolders.",
    run: async (tool) => {
      const files = {
        "old.txt": { content: "", mtime: 1_000 },
        "new.txt": { content: "", mtime: 3_000 },
        "src/a/b.ts": "",
      };
      const result = await listIn(tool, files, {}, (root) => {
        setMtime(root, "src/a", 2_000);
        setMtime(root, "src", 2_000);
      });
      assert.equal(result.isError, false);
      assert.equal(result.content, "new.txt\nsrc/\nold.txt");
    },
  },
  {
    name: "orders entries with the same mtime by name",
    hint: "When two mtimes are equal, compare the names (a.localeCompare(b) or a < b): the same input must always give the same output.",
    run: async (tool) => {
      const files = {
        "b.txt": { content: "", mtime: 5_000 },
        "a.txt": { content: "", mtime: 5_000 },
        "c.txt": { content: "", mtime: 6_000 },
      };
      assert.equal((await listIn(tool, files, { path: "." })).content, "c.txt\na.txt\nb.txt");
    },
  },
  {
    name: "lists a subfolder, naming entries relative to it",
    hint: "Resolve the path with resolveSearchRoot(workspace, input, { filesAllowed: false }) and list result.abs.",
    run: async (tool) => {
      const files = { "src/a.ts": { content: "", mtime: 1_000 }, "src/b.ts": { content: "", mtime: 2_000 } };
      assert.equal((await listIn(tool, files, { path: "src" })).content, "b.ts\na.ts");
    },
  },
  {
    name: "hides ignored and protected entries, and says how many",
    hint: 'Skip entries for which workspace.isVisible(relativePath, isDirectory) is false, count them, and end with one line in parentheses that gives the count, such as "(2 entries hidden by ignore rules or protection)".',
    run: async (tool) => {
      const files = {
        ".gitignore": { content: "build/\n", mtime: 1_000 },
        ".env": { content: "SECRET=1\n", mtime: 1_000 },
        "build/out.js": "",
        "a.txt": { content: "", mtime: 2_000 },
      };
      const result = await listIn(tool, files, {});
      assertListing(result.content, ["a.txt", ".gitignore"], /\b2\b/, "2 hidden");
    },
  },
  {
    name: "applies ignore rules to the path from the workspace root, in subfolders too",
    hint: "Ask workspace.isVisible about the path relative to the workspace root (sub/draft.md), not about the bare name: a rule like sub/draft.md or /top.txt is about a path, and sub/.gitignore holds rules of its own.",
    run: async (tool) => {
      const files = {
        ".gitignore": { content: "*.log\n/top.txt\nsub/draft.md\n", mtime: 1_000 },
        "top.txt": { content: "", mtime: 1_000 },
        "debug.log": { content: "", mtime: 1_000 },
        "sub/.gitignore": { content: "secret.txt\n", mtime: 1_000 },
        "sub/secret.txt": { content: "", mtime: 2_000 },
        "sub/draft.md": { content: "", mtime: 3_000 },
        "sub/top.txt": { content: "", mtime: 4_000 },
        "sub/keep.md": { content: "", mtime: 5_000 },
        "sub/trace.log": { content: "", mtime: 6_000 },
        "sub/.env": { content: "SECRET=1\n", mtime: 7_000 },
      };
      const result = await listIn(tool, files, { path: "sub" }, (root) => setMtime(root, "sub", 500));
      // top.txt is shown in sub: "/top.txt" is anchored to the folder of the .gitignore that says it.
      assertListing(result.content, ["keep.md", "top.txt", ".gitignore"], /\b4\b/, "4 hidden");
      const top = await listIn(tool, files, {}, (root) => setMtime(root, "sub", 500));
      assertListing(top.content, [".gitignore", "sub/"], /\b2\b/, "2 hidden");
    },
  },
  {
    name: "refuses a path outside the workspace, as an error result",
    hint: "resolveSearchRoot returns { error } for such a path: return fail(error).",
    run: async (tool) => {
      const result = await listIn(tool, { "a.txt": "" }, { path: "../" });
      assert.equal(result.isError, true);
      assert.match(result.content, /outside the workspace/);
    },
  },
  {
    name: "says a file is not a folder, and a missing path is missing",
    hint: "resolveSearchRoot with filesAllowed: false checks both; return its error with fail().",
    run: async (tool) => {
      const file = await listIn(tool, { "a.txt": "" }, { path: "a.txt" });
      assert.equal(file.isError, true);
      assert.match(file.content, /not a directory/);
      const missing = await listIn(tool, { "a.txt": "" }, { path: "nope" });
      assert.equal(missing.isError, true);
      assert.match(missing.content, /not found/);
    },
  },
  {
    name: "says so when a folder has nothing to show",
    hint: 'An empty result tells the model nothing: return one line in parentheses that names the folder, such as "(empty has no visible entries)".',
    run: async (tool) => {
      const result = await listIn(tool, { "a.txt": "" }, { path: "empty" }, (root) =>
        fs.mkdirSync(path.join(root, "empty")),
      );
      assert.equal(result.isError, false);
      assert.match(result.content, /^\([^\n]*\bempty\b[^\n]*\)$/, "not one line in parentheses naming the folder");
    },
  },
  {
    name: `shows at most ${MAX_RESULT_LINES} entries and says what was cut`,
    hint: `Keep the first ${MAX_RESULT_LINES} (MAX_RESULT_LINES) and end with one line in parentheses that gives both numbers, such as "(showing ${MAX_RESULT_LINES} of N entries, newest first; use glob with a pattern to find the others)".`,
    run: async (tool) => {
      const count = MAX_RESULT_LINES + 5;
      const files: Record<string, TreeFile> = {};
      for (let i = 0; i < count; i++) files[`f${String(i).padStart(3, "0")}.txt`] = { content: "", mtime: 10_000 + i };
      const lines = (await listIn(tool, files, {})).content.split("\n");
      assert.equal(lines.length, MAX_RESULT_LINES + 1);
      assert.equal(lines[0], `f${String(count - 1).padStart(3, "0")}.txt`);
      assert.deepEqual(lines.slice(0, 3), ["f104.txt", "f103.txt", "f102.txt"]);
      const footer = lines.at(-1) ?? "";
      assert.match(footer, /^\(.*\)$/, "the last line is not a note in parentheses");
      assert.match(
        footer,
        new RegExp(`\\b${MAX_RESULT_LINES}\\b`),
        `the note does not say ${MAX_RESULT_LINES} are shown`,
      );
      assert.match(footer, new RegExp(`\\b${count}\\b`), `the note does not say there are ${count}`);
    },
  },
];
