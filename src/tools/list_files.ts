// list_files: one directory level, newest first.
import fs from "node:fs";
import path from "node:path";
import { openCheckedFolder, UNOPENABLE } from "../workspace/opened.js";
import { UNNAMABLE } from "../workspace/workspace.js";
import { escapePath } from "../escape.js";
import { newestFirst } from "./newest-first.js";
import { resolveSearchRoot } from "./search-path.js";
import { DEFAULT_DESIGN, fail, ok, orderOf, type Tool, type ToolDesign } from "./tool.js";

interface Args {
  path?: string;
}

/** list_files as a given design makes it (Scout's own: DEFAULT_DESIGN). */
export function makeListFiles(design: ToolDesign = DEFAULT_DESIGN): Tool<Args> {
  const { cap } = design;
  const description = {
    full:
      `List one directory level: files, and directories ending in "/" (symlinks end in "@" and are not followed). ` +
      `Sorted ${design.sort === "mtime" ? "by modification time, newest first" : "by name"}, at most ${cap} entries; ` +
      `ignored (.gitignore, .ignore, node_modules) and protected entries are hidden and counted.`,
    concise: `List one directory (folders end in "/"), ${orderOf(design)}, at most ${cap} entries.`,
  }[design.descriptions];
  return {
    name: "list_files",
    description,
    askForLess: "a folder further down, or glob with a pattern",
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
      // Read through the opened folder: swapping it for a symlink after the check shows nothing outside.
      const folder = openCheckedFolder(abs);
      if (folder === "missing") return fail(`not found: ${escapePath(rel)}; use list_files to see what exists`);
      if (folder === "moved") return fail(`${escapePath(rel)} changed while it was being listed; it was not listed`);
      if (typeof folder === "string") return fail(`${escapePath(rel)} ${UNOPENABLE[folder]}; it was not listed`);
      let dirents: fs.Dirent[];
      try {
        dirents = fs.readdirSync(folder.listPath, { withFileTypes: true });
      } finally {
        fs.closeSync(folder.fd);
      }
      let unnamable = 0;
      for (const dirent of dirents) {
        if (dirent.name.includes(UNNAMABLE)) {
          unnamable++; // glob and grep cannot show it either, and read_file could not be given its name
          continue;
        }
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
          // To the nanosecond, as grep sorts; in path order every entry counts as equally new.
          if (design.sort === "mtime") mtimeNs = fs.lstatSync(path.join(abs, dirent.name), { bigint: true }).mtimeNs;
        } catch {
          // vanished while listing: keep it, sorted last
        }
        const suffix = dirent.isDirectory() ? "/" : dirent.isSymbolicLink() ? "@" : "";
        entries.push({ name: dirent.name + suffix, mtimeNs });
      }
      entries.sort((a, b) => newestFirst(a.mtimeNs, a.name, b.mtimeNs, b.name));

      const lines = entries.slice(0, cap).map((entry) => escapePath(entry.name));
      if (entries.length === 0) lines.push(`(${escapePath(rel)} has no visible entries)`);
      // One footer line says everything that is not shown.
      const notes: string[] = [];
      if (hidden > 0)
        notes.push(`${hidden} ${hidden === 1 ? "entry" : "entries"} hidden by ignore rules or protection`);
      if (unnamable > 0) notes.push(`${unnamable} with a name that is not valid UTF-8 not listed`);
      if (special > 0)
        notes.push(`${special} ${special === 1 ? "FIFO, socket or device" : "FIFOs, sockets or devices"} not listed`);
      if (entries.length > cap) {
        notes.unshift(
          `showing ${cap} of ${entries.length} entries, ${design.sort === "mtime" ? "newest first" : "by name"}`,
        );
        notes.push("use glob with a pattern to find the others");
      }
      if (notes.length) lines.push(`(${notes.join("; ")})`);
      return ok(lines.join("\n"), `${entries.length} entr${entries.length === 1 ? "y" : "ies"}`);
    },
  };
}

export const listFiles = makeListFiles();
