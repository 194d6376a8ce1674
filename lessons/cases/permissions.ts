// The permission rule's tests (lesson 12's exercise): `npm run check -- permissions` runs them against a
// learner's lessons/build/permissions.ts, and test/exercises.test.ts against lessons/solutions/permissions.ts.
//
// Scout needs no permission layer of its own (its tools only read): these
// cases are the rule's specification. They run tools as the loop does,
// through runTool and runTurn, on real folders.
import assert from "node:assert/strict";
import { runTurn } from "../../src/core/loop.js";
import { scriptedModel, text, toolUse } from "../../src/models/scripted.js";
import { tools } from "../../src/core/scout.js";
import { runTool, toolSchemas } from "../../src/core/tool.js";
import { ok, type Tool } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";
import { type Case, withTree } from "./case.js";

/** What a learner's module exports, as denyTools: the tool set, with every call to a denied name refused. */
export type DenyTools = (toolSet: Tool[], denied: readonly string[]) => Tool[];

const FILES = { "src/app.ts": "export function main() {\n  return 42;\n}\n", "README.md": "# demo\n" };

/** Runs one call, as the loop does, in a fresh tree. */
function call(toolSet: Tool[], name: string, input: unknown) {
  return withTree(FILES, (root) => runTool(name, input, { workspace: new Workspace(root) }, toolSet));
}

/** A tool that counts how often it really ran. */
function countingTool(): Tool & { runs: number } {
  const tool = {
    name: "shell",
    description: "Runs a command (a pretend one: it only counts its calls).",
    input_schema: {
      type: "object" as const,
      properties: { command: { type: "string" as const, description: "the command" } },
      required: ["command"],
      additionalProperties: false as const,
    },
    runs: 0,
    async run() {
      tool.runs++;
      return ok("done");
    },
  };
  return tool;
}

export const permissionCases: Case<DenyTools>[] = [
  {
    name: "a denied tool's call comes back as an error result that names the tool and the rule",
    hint: 'Give a denied tool a run that returns fail(…) from src/core/tool.ts (isError: true), saying which tool and that a permission rule denies it: "grep is denied by a permission rule".',
    run: async (denyTools) => {
      const result = await call(denyTools(tools, ["grep"]), "grep", { pattern: "main" });
      assert.equal(result.isError, true, `grep ran: ${result.content}`);
      assert.match(result.content, /\bgrep\b/, "the error does not name the tool");
      assert.match(result.content, /denied|not allowed|permission/i, "the error does not say a rule denies it");
    },
  },
  {
    name: "every tool on the list is denied, wherever it stands on the list",
    hint: "Check each tool's name against the whole list (denied.includes(tool.name)), not against its first name.",
    run: async (denyTools) => {
      const guarded = denyTools(tools, ["list_files", "glob", "grep"]);
      for (const [name, input] of [
        ["list_files", {}],
        ["glob", { pattern: "*.ts" }],
        ["grep", { pattern: "main" }],
      ] as const) {
        const result = await call(guarded, name, input);
        assert.equal(result.isError, true, `${name} ran: ${result.content}`);
      }
      assert.equal((await call(guarded, "read_file", { path: "README.md" })).isError, false, "read_file was refused");
    },
  },
  {
    name: "a denied tool never runs",
    hint: "Check the name before calling the tool's own run: a refusal after it ran is too late for a tool that changes things.",
    run: async (denyTools) => {
      const shell = countingTool();
      await call(denyTools([shell], ["shell"]), "shell", { command: "rm -rf /" });
      assert.equal(shell.runs, 0, "the denied tool's run was called");
    },
  },
  {
    name: "every other tool runs as before",
    hint: "Return the tools that are not denied unchanged.",
    run: async (denyTools) => {
      const guarded = await call(denyTools(tools, ["grep"]), "read_file", { path: "src/app.ts" });
      const plain = await call(tools, "read_file", { path: "src/app.ts" });
      assert.deepEqual(guarded, plain);
    },
  },
  {
    name: "the model still sees every tool, its name, description and schema, so a refusal can explain itself",
    hint: "Keep a denied tool's name, description and input_schema ({ ...tool, run }); replace only its run.",
    run: async (denyTools) => {
      assert.deepEqual(toolSchemas(denyTools(tools, ["glob", "grep"])), toolSchemas(tools));
    },
  },
  {
    name: "the tool set it was given is not changed",
    hint: "Make new tool objects ({ ...tool, run }) instead of assigning to tool.run: the registry is shared by everything.",
    run: async (denyTools) => {
      const shell = countingTool();
      const given = [shell];
      denyTools(given, ["shell"]);
      await call(given, "shell", { command: "ls" });
      assert.equal(shell.runs, 1, "the original tool no longer runs");
    },
  },
  {
    name: "names are matched exactly: denying gre, Grep, egrep or grep_all does not deny grep",
    hint: "Compare whole names (denied.includes(tool.name) on the array), never a name inside a longer string.",
    run: async (denyTools) => {
      const guarded = denyTools(tools, ["gre", "Grep", "egrep", "grep_all", "read"]);
      for (const [name, input] of [
        ["grep", { pattern: "main" }],
        ["read_file", { path: "README.md" }],
      ] as const) {
        const result = await call(guarded, name, input);
        assert.equal(result.isError, false, `${name} was refused: ${result.content}`);
      }
    },
  },
  {
    name: "in the loop, the model gets the refusal as an is_error result and the turn goes on",
    hint: "runTurn sends every result back, errors included: with the rule above, nothing in the loop changes.",
    run: async (denyTools) => {
      const model = scriptedModel([
        { content: [toolUse("toolu_1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
        { content: [text("grep is denied here, so I cannot search.")], stop_reason: "end_turn" },
      ]);
      const result = await withTree(FILES, (root) =>
        runTurn("where is main?", [], { model, workspace: new Workspace(root), tools: denyTools(tools, ["grep"]) }),
      );
      assert.equal(result.text, "grep is denied here, so I cannot search.");
      const last = model.requests[1]?.messages.at(-1);
      assert.ok(last && Array.isArray(last.content), "the model was not called again after the tool");
      const [answer] = last.content as { type: string; is_error?: boolean }[];
      assert.equal(answer.type, "tool_result");
      assert.equal(answer.is_error, true, "the model was sent the result as a success");
    },
  },
];
