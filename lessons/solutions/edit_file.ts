// One solution to the bridge lesson's edit_file tool: an exact string replacement, its diff shown, confirmed before it is written.
//
// `npm run check -- edit_file lessons/solutions/edit_file.ts` passes every case
// of lessons/cases/edit_file.ts. It is never registered in src/core/scout.ts:
// Scout's own tools only read. `npx scout --tool lessons/solutions/edit_file.ts`
// adds it to one session.
import fs from "node:fs";
import { escapePath } from "../../src/guards/escape.js";
import { fail, ok, type Tool } from "../../src/core/tool.js";
import type { Confirm } from "../cases/edit_file.js";

/** The changed lines, numbered as read_file numbers them: -LINE: old, then +LINE: new. */
function diffOf(before: string, after: string, at: number): string {
  const first = before.slice(0, at).split("\n").length; // the line the match starts on
  const [oldLines, newLines] = [before, after].map((text) => text.split("\n"));
  let end = 0; // lines alike at the end
  while (
    end < oldLines.length - first &&
    end < newLines.length - first &&
    oldLines.at(-1 - end) === newLines.at(-1 - end)
  )
    end++;
  const removed = oldLines.slice(first - 1, oldLines.length - end).map((line, i) => `-${first + i}: ${line}`);
  const added = newLines.slice(first - 1, newLines.length - end).map((line, i) => `+${first + i}: ${line}`);
  return [...removed, ...added].join("\n");
}

export function makeEditFile(confirm?: Confirm): Tool<{ path: string; old_string: string; new_string: string }> {
  return {
    name: "edit_file",
    description:
      "Replace old_string by new_string in one file. old_string must match the file's text exactly (spaces and line breaks included) and exactly once: include enough lines to make it unique. Shows the change as a diff. Never creates a file.",
    input_schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "file to edit, relative to the workspace root" },
        old_string: { type: "string", description: "the exact text to replace; it must occur once" },
        new_string: { type: "string", description: "the text that replaces it" },
      },
      required: ["path", "old_string", "new_string"],
      additionalProperties: false,
    },

    async run({ path: input, old_string: oldString, new_string: newString }, { workspace }) {
      const resolved = workspace.resolveInWorkspace(input);
      if (!resolved.ok) return fail(resolved.error);
      const rel = escapePath(resolved.rel);
      if (oldString === "") return fail("old_string is empty: it would match everywhere; give the text to replace");
      if (!fs.existsSync(resolved.abs) || !fs.statSync(resolved.abs).isFile())
        return fail(`file not found: ${rel}; edit_file changes a file, it never creates one`);
      const before = fs.readFileSync(resolved.abs, "utf8");
      const matches = before.split(oldString).length - 1;
      if (matches === 0) return fail(`old_string not found in ${rel}; read the file again: it must match exactly`);
      if (matches > 1)
        return fail(`old_string matches ${matches} places in ${rel}; include more lines to make it unique`);
      const at = before.indexOf(oldString);
      const after = before.slice(0, at) + newString + before.slice(at + oldString.length);
      const diff = diffOf(before, after, at);
      if (confirm && !(await confirm(diff))) return fail(`not applied: the user declined the change to ${rel}`);
      fs.writeFileSync(resolved.abs, after);
      return ok(`${rel}: 1 change\n${diff}`, "1 change");
    },
  };
}
