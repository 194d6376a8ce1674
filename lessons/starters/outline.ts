// YOUR outline tool (lesson 14): finish it until `npm run check -- outline` passes every case.
//
// The cases (lessons/cases/outline.ts) are its whole specification: Scout has
// no outline tool of its own. Make it as the core's tools are made: plain
// data plus one function, its cap MAX_RESULT_LINES unless runTool passes
// other limits (scout lab does). Stuck? `npm run check -- outline` prints a
// hint under each FAIL, and lessons/solutions/outline.ts is one answer.
import fs from "node:fs";
import { ok, type Tool } from "../../src/core/tool.js";

export const outline: Tool<{ path: string }> = {
  name: "outline",
  // TODO: the description must say what the tool shows and its cap (MAX_RESULT_LINES).
  description: "Outline a file.",
  input_schema: {
    type: "object",
    properties: { path: { type: "string", description: "file to outline, relative to the workspace root" } },
    required: ["path"],
    additionalProperties: false,
  },

  async run({ path: input }, { workspace }) {
    // TODO: resolveInWorkspace may refuse the path (outside, protected); a folder or a missing file is an error too.
    const resolved = workspace.resolveInWorkspace(input);
    if (!resolved.ok) return ok("");
    // TODO: only the definitions, as "LINE: TEXT"; at most the cap (context.limits), then say what was cut;
    // say when there are none.
    const lines = fs.readFileSync(resolved.abs, "utf8").split("\n");
    return ok(lines.map((text, index) => `${index + 1}: ${text}`).join("\n"));
  },
};
