// YOUR edit_file tool (the bridge lesson, from reading to editing): finish it until `npm run check -- edit_file` passes.
//
// An exact string replacement, as the editing tools of real agents are: the
// model names a file, an old_string that must match exactly once, and its
// replacement. The cases (lessons/cases/edit_file.ts) are its whole
// specification. It is never added to Scout's own four tools, which only read.
import { fail, type Tool } from "../../src/core/tool.js";
import type { Confirm } from "../cases/edit_file.js";

export function makeEditFile(confirm?: Confirm): Tool<{ path: string; old_string: string; new_string: string }> {
  void confirm; // TODO: ask it with the diff, before writing
  return {
    name: "edit_file",
    description: "Edit a file.", // TODO: say that old_string must match exactly, once
    input_schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "file to edit, relative to the workspace root" },
        old_string: { type: "string", description: "the text to replace" },
        new_string: { type: "string", description: "what replaces it" },
      },
      required: ["path", "old_string", "new_string"],
      additionalProperties: false,
    },
    // TODO: resolve the path (workspace.resolveInWorkspace), read the file, count the matches,
    // make the diff, ask confirm, write the file, and return the diff with ok().
    async run() {
      return fail("edit_file is not written yet");
    },
  };
}
