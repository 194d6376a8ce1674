// list_files: one directory level, newest first.
import fs from "node:fs";
import path from "node:path";
import { isNamedAsShown, openCheckedFolder, UNOPENABLE } from "../workspace/opened.js";
import { UNNAMABLE } from "../workspace/workspace.js";
import { escapeListed, escapePath } from "../escape.js";
import { type EntriesRead, forEachEntry, MAX_FOLDER_ENTRIES } from "./folder-entries.js";
import { insertNewest } from "./newest-first.js";
import { resolveSearchRoot } from "./search-path.js";
import { DEFAULT_DESIGN, fail, groupThousands, ok, orderOf, type Tool, type ToolDesign } from "./tool.js";

/** A listing stops after this long, as glob and grep do, and says so. */
export const LIST_TIMEOUT_MS = 10_000;

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
      `ignored (.gitignore, .ignore, node_modules) and protected entries are hidden and counted. ` +
      `Reads ${groupThousands(MAX_FOLDER_ENTRIES)} entries and ${LIST_TIMEOUT_MS / 1000} s at most.`,
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

    async run({ path: input = "." }, { workspace, signal }) {
      const resolved = resolveSearchRoot(workspace, input, { filesAllowed: false });
      if ("error" in resolved) return fail(resolved.error);
      // realRel: a symlinked folder is judged where it points, as the ignore rules are written
      const { abs, rel, realRel } = resolved;

      // Only the entries that can be shown are kept (the newest `cap`), so memory does not grow with the folder.
      const newest: { rel: string; mtimeNs: bigint }[] = [];
      let shown = 0;
      let hidden = 0;
      let special = 0;
      let unnamable = 0;
      // Read through the opened folder: swapping it for a symlink after the check shows nothing outside.
      const folder = openCheckedFolder(abs);
      if (folder === "missing") return fail(`not found: ${escapePath(rel)}; use list_files to see what exists`);
      if (folder === "moved") return fail(`${escapePath(rel)} changed while it was being listed; it was not listed`);
      if (typeof folder === "string") return fail(`${escapePath(rel)} ${UNOPENABLE[folder]}; it was not listed`);
      let read: EntriesRead;
      try {
        read = await forEachEntry(folder.listPath, { signal, deadline: Date.now() + LIST_TIMEOUT_MS }, (dirent) => {
          if (dirent.name.includes(UNNAMABLE) && !isNamedAsShown(path.join(abs, dirent.name))) {
            unnamable++; // glob and grep cannot show it either, and read_file could not be given its name
            return;
          }
          const entryRel = realRel === "." ? dirent.name : `${realRel}/${dirent.name}`;
          if (!workspace.isVisible(entryRel, dirent.isDirectory())) {
            hidden++;
            return;
          }
          if (!dirent.isFile() && !dirent.isDirectory() && !dirent.isSymbolicLink()) {
            special++; // a FIFO, socket or device: glob and grep skip these too
            return;
          }
          let mtimeNs = 0n;
          try {
            // To the nanosecond, as grep sorts; in path order every entry counts as equally new.
            if (design.sort === "mtime") mtimeNs = fs.lstatSync(path.join(abs, dirent.name), { bigint: true }).mtimeNs;
          } catch {
            // vanished while listing: keep it, sorted last
          }
          const suffix = dirent.isDirectory() ? "/" : dirent.isSymbolicLink() ? "@" : "";
          shown++;
          // Escaped before the mark is added: a file named "link@" must not read as the symlink "link".
          insertNewest(newest, { rel: escapeListed(dirent.name) + suffix, mtimeNs }, cap);
        });
      } catch {
        return fail(`${escapePath(rel)} could not be read; it was not listed`);
      } finally {
        fs.closeSync(folder.fd);
      }
      if (read.stopped === "cancelled") return fail("list_files was cancelled");

      const lines = newest.map((entry) => entry.rel);
      if (shown === 0)
        lines.push(
          `(${escapePath(rel)} has no visible entries${read.capped || read.stopped ? " among those read" : ""})`,
        );
      // One footer line says everything that is not shown.
      const notes: string[] = [];
      if (hidden > 0)
        notes.push(`${hidden} ${hidden === 1 ? "entry" : "entries"} hidden by ignore rules or protection`);
      if (unnamable > 0) notes.push(`${unnamable} with a name that is not valid UTF-8 not listed`);
      if (special > 0)
        notes.push(`${special} ${special === 1 ? "FIFO, socket or device" : "FIFOs, sockets or devices"} not listed`);
      if (shown > cap) {
        notes.unshift(`showing ${cap} of ${shown} entries, ${design.sort === "mtime" ? "newest first" : "by name"}`);
      }
      if (read.capped) {
        notes.push(
          `the folder holds more than ${groupThousands(MAX_FOLDER_ENTRIES)} entries; only the first ${groupThousands(MAX_FOLDER_ENTRIES)} read were sorted`,
        );
      }
      if (read.stopped === "deadline") {
        notes.push(`listing stopped after ${LIST_TIMEOUT_MS / 1000} s, so the list may be incomplete`);
      }
      if (shown > cap || read.capped || read.stopped) notes.push("use glob with a pattern to find the others");
      if (notes.length) lines.push(`(${notes.join("; ")})`);
      return ok(lines.join("\n"), `${shown} entr${shown === 1 ? "y" : "ies"}`);
    },
  };
}

export const listFiles = makeListFiles();
