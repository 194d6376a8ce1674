// list_files: one directory level, newest first.
import fs from "node:fs";
import path from "node:path";
import { newestFirst } from "./newest-first.js";
import { resolveSearchRoot } from "./search-path.js";
import { MAX_RESULT_LINES, fail, ok, type Tool } from "./tool.js";

interface Args {
  path?: string;
}

export const listFiles: Tool<Args> = {
  name: "list_files",
  description:
    `List one directory level: files, and directories ending in "/" (symlinks end in "@" and are not followed). ` +
    `Sorted by modification time, newest first, at most ${MAX_RESULT_LINES} entries; ` +
    `ignored (.gitignore, .ignore, node_modules) and protected entries are hidden and counted.`,
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
    // realRel: a symlinked folder is judged where it points, as the ignore rules are written
    const { abs, rel, realRel } = resolved;

    const entries: { name: string; mtimeNs: bigint }[] = [];
    let hidden = 0;
    let special = 0;
    for (const dirent of fs.readdirSync(abs, { withFileTypes: true })) {
      const entryRel = realRel === "." ? dirent.name : `${realRel}/${dirent.name}`;
      if (!workspace.isVisible(entryRel, dirent.isDirectory())) {
        hidden++;
        continue;
      }
      if (!dirent.isFile() && !dirent.isDirectory() && !dirent.isSymbolicLink()) {
        special++; // a FIFO, socket or device: glob and grep skip these too
        continue;
      }
      let mtimeNs = 0n;
      try {
        mtimeNs = fs.lstatSync(path.join(abs, dirent.name), { bigint: true }).mtimeNs; // to the nanosecond, as grep sorts
      } catch {
        // vanished while listing: keep it, sorted last
      }
      const suffix = dirent.isDirectory() ? "/" : dirent.isSymbolicLink() ? "@" : "";
      entries.push({ name: dirent.name + suffix, mtimeNs });
    }
    entries.sort((a, b) => newestFirst(a.mtimeNs, a.name, b.mtimeNs, b.name));

    const lines = entries.slice(0, MAX_RESULT_LINES).map((entry) => entry.name);
    if (entries.length === 0) lines.push(`(${rel} has no visible entries)`);
    // One footer line says everything that is not shown.
    const notes: string[] = [];
    if (hidden > 0) notes.push(`${hidden} ${hidden === 1 ? "entry" : "entries"} hidden by ignore rules or protection`);
    if (special > 0)
      notes.push(`${special} ${special === 1 ? "FIFO, socket or device" : "FIFOs, sockets or devices"} not listed`);
    if (entries.length > MAX_RESULT_LINES) {
      notes.unshift(`showing ${MAX_RESULT_LINES} of ${entries.length} entries, newest first`);
      notes.push("use glob with a pattern to find the others");
    }
    if (notes.length) lines.push(`(${notes.join("; ")})`);
    return ok(lines.join("\n"), `${entries.length} entr${entries.length === 1 ? "y" : "ies"}`);
  },
};
