// The outline tool's tests (lesson 14's first project): `npm run check -- outline` runs them against a
// learner's lessons/build/outline.ts, and test/exercises.test.ts against lessons/solutions/outline.ts.
//
// Scout has no outline tool of its own: these cases are its specification.
// They run the tool as the loop does, through runTool, on real folders.
import assert from "node:assert/strict";
import { MAX_RESULT_LINES, type ResultLimits, runTool, SCOUT_LIMITS, type Tool } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";
import { type Case, type TreeFile, withTree } from "./case.js";

/** What a learner's module exports, as `outline`: a plain tool, as the core's four are. */
export type Outline = Tool;

/** Runs outline on `input` in a fresh tree of `files`, its results shaped by `limits`, as runTool passes them. */
function outlineIn(tool: Outline, files: Record<string, TreeFile>, input: unknown, limits = SCOUT_LIMITS) {
  return withTree(files, (root) => runTool(tool.name, input, { workspace: new Workspace(root), limits }, [tool]));
}

const PYTHON =
  "import os\n\nclass Store:\n    def get(self, key):\n        return key\n\n\ndef main():\n    Store().get(1)\n";

export const outlineCases: Case<Outline>[] = [
  {
    name: "is called outline, takes one required string, path, and states its cap in its description",
    hint: 'input_schema: { type: "object", properties: { path: { type: "string", description } }, required: ["path"], additionalProperties: false }; say "at most N" in the description, N being MAX_RESULT_LINES (src/core/tool.ts), as the other tools do.',
    run: async (tool) => {
      assert.equal(tool.name, "outline");
      assert.deepEqual(Object.keys(tool.input_schema.properties), ["path"]);
      assert.equal(tool.input_schema.properties.path.type, "string");
      assert.deepEqual(tool.input_schema.required, ["path"]);
      assert.equal(tool.input_schema.additionalProperties, false);
      const cap = new RegExp(`at most ${MAX_RESULT_LINES}\\b`);
      assert.match(tool.description, cap, `the description does not say "at most ${MAX_RESULT_LINES}", the cap`);
    },
  },
  {
    name: "lists a Python file's definitions as LINE: TEXT, indentation kept",
    hint: "One line per definition: its line number, a colon, a space, then the line as it is (methods keep their indent). Lines starting with def or class (after spaces) are definitions.",
    run: async (tool) => {
      const result = await outlineIn(tool, { "store.py": PYTHON }, { path: "store.py" });
      assert.equal(result.isError, false, result.content);
      assert.equal(result.content, "3: class Store:\n4:     def get(self, key):\n8: def main():");
    },
  },
  {
    name: "finds TypeScript and Go definitions too",
    hint: "Keywords to know: def, class, function, func, fn, interface, type, struct, enum; a definition may start with export, async, pub or default. Constants (const n = 1) may be listed too, or left out: lesson 15 counts them as definitions, the cases do not require them.",
    run: async (tool) => {
      const ts =
        "import x from 'y';\nexport async function load() {}\ninterface Shape {}\nexport default class App {}\nconst n = 1;\n";
      const go = "package main\n\ntype Link struct {\n}\n\nfunc main() {\n}\n";
      const both = { "app.ts": ts, "main.go": go };
      const tsResult = await outlineIn(tool, both, { path: "app.ts" });
      const withoutConstants = tsResult.content
        .split("\n")
        .filter((line) => line !== "5: const n = 1;")
        .join("\n");
      assert.equal(
        withoutConstants,
        "2: export async function load() {}\n3: interface Shape {}\n4: export default class App {}",
      );
      const goResult = await outlineIn(tool, both, { path: "main.go" });
      assert.equal(goResult.content, "3: type Link struct {\n6: func main() {");
    },
  },
  {
    name: "says so when a file holds no definitions",
    hint: "An empty result tells the model nothing: return one line saying the file has no definitions, naming it.",
    run: async (tool) => {
      const result = await outlineIn(tool, { "notes.txt": "just words\n" }, { path: "notes.txt" });
      assert.equal(result.isError, false, result.content);
      assert.match(result.content, /no definitions/i);
      assert.match(result.content, /notes\.txt/);
    },
  },
  {
    name: "shows at most the cap it is given and says what was cut",
    hint: "The cap is context.limits.cap when runTool passes limits (scout lab does), else MAX_RESULT_LINES: destructure { limits = SCOUT_LIMITS } from the context, as the core's tools do. Keep the first `cap` definitions, then a last line in parentheses like (showing 3 of 5 definitions; …).",
    run: async (tool) => {
      const many = Array.from({ length: 5 }, (_, i) => `def f${i}():\n    pass\n`).join("");
      const limits: ResultLimits = { ...SCOUT_LIMITS, cap: 3 };
      const result = await outlineIn(tool, { "many.py": many }, { path: "many.py" }, limits);
      const lines = result.content.split("\n");
      assert.deepEqual(lines.slice(0, 3), ["1: def f0():", "3: def f1():", "5: def f2():"]);
      assert.equal(lines.length, 4, "three definitions, then one line saying what was cut");
      assert.match(lines[3], /^\(.*\b3\b.*\b5\b.*\)$/, "the last line should say 3 of 5 were shown, in parentheses");
    },
  },
  {
    name: "refuses a path outside the workspace, a protected file and a folder, as error results",
    hint: "Start run with workspace.resolveInWorkspace(path) and return fail(resolved.error) when it is not ok (lesson 8); a folder is an error too (use list_files).",
    run: async (tool) => {
      const files = { "src/a.py": "def a():\n    pass\n", ".env": "SECRET=not-real\n" };
      for (const path of ["../outside.py", "/etc/passwd", ".env", "src"]) {
        const result = await outlineIn(tool, files, { path });
        assert.equal(result.isError, true, `outline ${path} should be an error, got: ${result.content}`);
        assert.doesNotMatch(result.content, /SECRET/);
      }
    },
  },
  {
    name: "says a missing file is not found",
    hint: 'Return fail("file not found: …") when the file does not exist, naming the path as given.',
    run: async (tool) => {
      const result = await outlineIn(tool, { "a.py": "" }, { path: "b.py" });
      assert.equal(result.isError, true);
      assert.match(result.content, /not found: b\.py/);
    },
  },
];
