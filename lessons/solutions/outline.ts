// One solution to lesson 14's outline tool: the definitions in one file, with their line numbers.
//
// `npm run check -- outline lessons/solutions/outline.ts` passes every case
// of lessons/cases/outline.ts. To give it to the model, run `npx scout --tool
// lessons/solutions/outline.ts`; to make it one of Scout's own, move it to
// src/core/outline.ts and add `outline` to the list in src/core/scout.ts.
import fs from "node:fs";
import { escapePath } from "../../src/guards/escape.js";
import { fail, MAX_RESULT_LINES, ok, SCOUT_LIMITS, type Tool } from "../../src/core/tool.js";

/** A definition: after any indent and modifiers, a keyword that starts one, in the languages Scout's sample holds. */
const DEFINITION =
  /^\s*(?:(?:export|default|async|pub|public|private|static)\s+)*(?:def|class|function|func|fn|interface|type|struct|enum)\b/;

export const outline: Tool<{ path: string }> = {
  name: "outline",
  description:
    "List the definitions in one file (lines starting with def, class, function, func, fn, interface, type, struct or enum), " +
    `each as LINE: TEXT, at most ${MAX_RESULT_LINES} of them: a cheap look at what a file holds before read_file.`,
  input_schema: {
    type: "object",
    properties: { path: { type: "string", description: "file to outline, relative to the workspace root" } },
    required: ["path"],
    additionalProperties: false,
  },

  async run({ path: input }, { workspace, limits: { cap } = SCOUT_LIMITS }) {
    const resolved = workspace.resolveInWorkspace(input);
    if (!resolved.ok) return fail(resolved.error);
    const rel = escapePath(resolved.rel);
    let text: string;
    try {
      if (fs.statSync(resolved.abs).isDirectory()) return fail(`${rel} is a directory; use list_files`);
      text = fs.readFileSync(resolved.abs, "utf8");
    } catch {
      return fail(`file not found: ${rel}; use glob or list_files to find it`);
    }
    const found = text
      .split("\n")
      .map((line, index) => ({ line: index + 1, text: line.trimEnd() }))
      .filter(({ text }) => DEFINITION.test(text));
    if (found.length === 0) return ok(`(no definitions found in ${rel})`, "no definitions");
    const lines = found.slice(0, cap).map(({ line, text }) => `${line}: ${escapePath(text)}`);
    if (found.length > cap)
      lines.push(`(showing ${cap} of ${found.length} definitions; use read_file with an offset to see the rest)`);
    return ok(lines.join("\n"), `${found.length} definition${found.length === 1 ? "" : "s"}`);
  },
};
