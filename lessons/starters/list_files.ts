// YOUR list_files tool (lesson 7): finish it until `npm run check -- list_files` passes every case.
//
// A tool is plain data (name, description, input_schema) plus one function,
// run, that returns { content, isError } and never throws. The cases
// (lessons/cases/list_files.ts) are the ones Scout's own src/core/list_files.ts
// passes. As shipped this lists names in whatever order the disk gives them,
// hides nothing and checks nothing. Stuck? `npm run check -- list_files`
// prints a hint under each FAIL, and lessons/solutions/list_files.ts is one answer.
import fs from "node:fs";
import { resolveSearchRoot } from "../../src/guards/search-path.js";
import { ok, type Tool } from "../../src/core/tool.js";

export const listFiles: Tool<{ path?: string }> = {
  name: "list_files",
  // TODO: the model only knows what this says: what the tool shows, in what order, and its cap.
  description: "List a directory.",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: 'directory to list, relative to the workspace root (default ".")' },
    },
    required: [],
    additionalProperties: false,
  },

  async run({ path: input = "." }, { workspace }) {
    const resolved = resolveSearchRoot(workspace, input, { filesAllowed: false });
    // TODO: resolved may be { error }: a path outside the workspace, a file, or nothing at all.
    if ("error" in resolved) return ok("");
    // TODO: folders end in "/"; newest first (ties by name); hide what workspace.isVisible() rejects,
    // and count it; at most MAX_RESULT_LINES entries; say what was cut, and when there is nothing.
    const names = fs.readdirSync(resolved.abs);
    return ok(names.join("\n"));
  },
};
