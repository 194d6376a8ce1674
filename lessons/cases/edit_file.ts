// The edit_file tool's tests (the bridge lesson's exercise): `npm run check -- edit_file` runs them against a
// learner's lessons/build/edit_file.ts, and test/exercises.test.ts against lessons/solutions/edit_file.ts.
//
// Scout has no edit_file tool, and never will among its own four (they only
// read): these cases are the exercise's specification. They run the tool as
// the loop does, through runTool, on real folders, and read the files after.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { runTool } from "../../src/core/tool.js";
import type { Tool, ToolResult } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";
import { type Case, withTree } from "./case.js";

/** Asked before a change is written, with the diff the result will show: true writes it (step-through mode's "y"). */
export type Confirm = (diff: string) => boolean | Promise<boolean>;
/** What a learner's module exports, as makeEditFile: the tool, made with a confirmation (none: every change is written). */
export type MakeEditFile = (confirm?: Confirm) => Tool;

const APP = "def greet(name):\n    return 'hi ' + name\n\n\ndef main():\n    print(greet('you'))\n";

/** Runs edit_file once in a fresh tree holding app.py (and `files`); returns the result and each file's text after. */
function editIn(make: MakeEditFile, input: unknown, confirm?: Confirm, files: Record<string, string> = {}) {
  const tree = { "app.py": APP, ...files };
  return withTree(tree, async (root) => {
    const tool = make(confirm);
    const result: ToolResult = await runTool(tool.name, input, { workspace: new Workspace(root) }, [tool]);
    const texts = Object.fromEntries(
      Object.keys(tree).map((rel) => [rel, fs.readFileSync(path.join(root, rel), "utf8")]),
    );
    return { result, app: texts["app.py"], after: (rel: string) => texts[rel] };
  });
}

const RENAME = { path: "app.py", old_string: "return 'hi ' + name", new_string: "return 'hello ' + name" };

export const editFileCases: Case<MakeEditFile>[] = [
  {
    name: "is called edit_file, takes path, old_string and new_string, all required strings, and says it replaces one exact match",
    hint: 'input_schema: { type: "object", properties: { path, old_string, new_string } (each { type: "string", description }), required: all three, additionalProperties: false }; the description says old_string must match exactly once.',
    run: async (make) => {
      const tool = make();
      assert.equal(tool.name, "edit_file");
      assert.deepEqual(Object.keys(tool.input_schema.properties).sort(), ["new_string", "old_string", "path"]);
      for (const name of ["path", "old_string", "new_string"])
        assert.equal(tool.input_schema.properties[name].type, "string", `${name} is not a string`);
      assert.deepEqual([...tool.input_schema.required].sort(), ["new_string", "old_string", "path"]);
      assert.match(tool.description, /exact/i, "the description does not say the match is exact");
      assert.match(tool.description, /once|one (place|occurrence|match)|unique/i, "nor that it must match once");
    },
  },
  {
    name: "replaces the one match, writes the file, and shows the change as a diff with line numbers",
    hint: "Read the file, replace old_string by new_string, write it. The result shows each removed line as -LINE: TEXT and each added line as +LINE: TEXT (LINE from 1, as read_file numbers them).",
    run: async (make) => {
      const { result, app } = await editIn(make, RENAME);
      assert.equal(result.isError, false, result.content);
      assert.equal(app, APP.replace("'hi '", "'hello '"), "the file on disk is not the file with the one change");
      assert.match(result.content, /^-2: {5}return 'hi ' \+ name$/m, "the diff does not show -2: and the old line");
      assert.match(result.content, /^\+2: {5}return 'hello ' \+ name$/m, "the diff does not show +2: and the new line");
    },
  },
  {
    name: "refuses an old_string that is not in the file, and changes nothing",
    hint: 'When old_string is not found, return fail("old_string not found in PATH; read the file again: it must match exactly, spaces included").',
    run: async (make) => {
      const { result, app } = await editIn(make, { ...RENAME, old_string: "return 'hey ' + name" });
      assert.equal(result.isError, true, `it answered: ${result.content}`);
      assert.match(result.content, /not found/i);
      assert.equal(app, APP);
    },
  },
  {
    name: "refuses an old_string found more than once, saying how many times, and changes nothing",
    hint: 'Count the matches first: more than one is ambiguous, so fail with the count ("old_string matches 2 places in app.py; include more lines to make it unique").',
    run: async (make) => {
      const { result, app } = await editIn(make, { path: "app.py", old_string: "def ", new_string: "async def " });
      assert.equal(result.isError, true, `it answered: ${result.content}`);
      assert.match(result.content, /\b2\b/, "the error does not say 2");
      assert.equal(app, APP);
    },
  },
  {
    name: "refuses an empty old_string, a missing file, a path outside the workspace and a protected file, writing nothing",
    hint: "workspace.resolveInWorkspace(path) first: fail(resolved.error) when it is not ok (outside, protected); a file that is not there is an error too (edit_file edits, it never creates); an empty old_string matches everywhere.",
    run: async (make) => {
      const files = { ".env": "SECRET=not-real\n" };
      for (const input of [
        { ...RENAME, old_string: "" },
        { ...RENAME, path: "missing.py" },
        { ...RENAME, path: "../outside.py" },
        { path: ".env", old_string: "SECRET=not-real", new_string: "SECRET=changed" },
      ]) {
        const { result, app, after } = await editIn(make, input, undefined, files);
        assert.equal(result.isError, true, `${JSON.stringify(input)} was accepted: ${result.content}`);
        assert.doesNotMatch(result.content, /not-real/, "the error shows the protected file's content");
        assert.equal(app, APP);
        assert.equal(after(".env"), files[".env"]);
      }
    },
  },
  {
    name: "asks confirm with the diff before writing: no leaves the file as it was, yes writes it",
    hint: 'Make the diff first, then `if (confirm && !(await confirm(diff))) return fail("not applied: the user declined the change")`; write only after.',
    run: async (make) => {
      const asked: string[] = [];
      const declined = await editIn(make, RENAME, (diff) => {
        asked.push(diff);
        return false;
      });
      assert.equal(asked.length, 1, "confirm was not asked once");
      assert.match(asked[0], /^\+2: {5}return 'hello ' \+ name$/m, "confirm was not shown the diff");
      assert.equal(declined.app, APP, "the file changed though the user said no");
      assert.equal(declined.result.isError, true, "a declined change must come back as an error result");
      assert.match(declined.result.content, /declin|not applied|refused/i);
      const accepted = await editIn(make, RENAME, async () => true);
      assert.equal(accepted.app, APP.replace("'hi '", "'hello '"));
    },
  },
];
