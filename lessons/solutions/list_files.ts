// One solution to lessons/build/list_files.ts (lesson 7): list_files in about fifty lines.
//
// Scout's own src/core/list_files.ts does more (nanosecond mtimes, symlinks
// marked "@", FIFOs counted, designs for `scout lab`); npm test checks that
// this simpler one passes the same core cases.
import fs from "node:fs";
import path from "node:path";
import { resolveSearchRoot } from "../../src/guards/search-path.js";
import { fail, MAX_RESULT_LINES, ok, type Tool } from "../../src/core/tool.js";

export const listFiles: Tool<{ path?: string }> = {
  name: "list_files",
  description:
    `List one directory level: files, and directories ending in "/". Newest first (by modification time), ` +
    `at most ${MAX_RESULT_LINES} entries; ignored and protected entries are hidden and counted.`,
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
    if ("error" in resolved) return fail(resolved.error);
    const entries: { name: string; mtime: number }[] = [];
    let hidden = 0;
    for (const dirent of fs.readdirSync(resolved.abs, { withFileTypes: true })) {
      const rel = resolved.realRel === "." ? dirent.name : `${resolved.realRel}/${dirent.name}`;
      if (!workspace.isVisible(rel, dirent.isDirectory())) {
        hidden++;
        continue;
      }
      const mtime = fs.lstatSync(path.join(resolved.abs, dirent.name)).mtimeMs;
      entries.push({ name: dirent.name + (dirent.isDirectory() ? "/" : ""), mtime });
    }
    entries.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    const lines = entries.slice(0, MAX_RESULT_LINES).map((entry) => entry.name);
    if (entries.length === 0) lines.push(`(${resolved.rel} has no visible entries)`);
    const notes: string[] = [];
    if (entries.length > MAX_RESULT_LINES)
      notes.push(`showing ${MAX_RESULT_LINES} of ${entries.length} entries, newest first`);
    if (hidden > 0) notes.push(`${hidden} ${hidden === 1 ? "entry" : "entries"} hidden by ignore rules or protection`);
    if (entries.length > MAX_RESULT_LINES) notes.push("use glob with a pattern to find the others");
    if (notes.length > 0) lines.push(`(${notes.join("; ")})`);
    return ok(lines.join("\n"));
  },
};
