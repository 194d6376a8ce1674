// One folder's entries as list_files shows them, read through the opened folder (a swap for a symlink after
// the check shows nothing outside), sorted and capped as they come, so memory does not grow with the folder.
import fs from "node:fs";
import path from "node:path";
import { escapeListed, escapePath } from "./escape.js";
import { type EntriesRead, forEachEntry } from "./folder-entries.js";
import { type FoundFile, insertNewest, type ResultLimits } from "./newest-first.js";
import { isNamedAsShown, openCheckedFolder, UNOPENABLE } from "./opened.js";
import { UNNAMABLE } from "./path-arguments.js";
import type { WorkspaceView } from "./workspace-view.js";

/** What a listing found: the entries kept (name, "/" for a folder, "@" for a symlink) and what it left out. */
export interface Listing extends EntriesRead {
  kept: FoundFile[];
  /** Entries that could be shown, kept or not. */
  shown: number;
  /** Hidden by ignore rules or protection. */
  hidden: number;
  /** FIFOs, sockets and devices. */
  special: number;
  /** Names that are not valid UTF-8. */
  unnamable: number;
}

export async function listFolder(
  workspace: WorkspaceView,
  { abs, rel, realRel }: { abs: string; rel: string; realRel: string },
  { cap, sort, signal, deadline }: ResultLimits & { signal?: AbortSignal; deadline: number },
): Promise<Listing | { error: string }> {
  const folder = openCheckedFolder(abs);
  if (folder === "missing") return { error: `not found: ${escapePath(rel)}; use list_files to see what exists` };
  if (folder === "moved") return { error: `${escapePath(rel)} changed while it was being listed; it was not listed` };
  if (typeof folder === "string") return { error: `${escapePath(rel)} ${UNOPENABLE[folder]}; it was not listed` };
  const listing = { kept: [] as FoundFile[], shown: 0, hidden: 0, special: 0, unnamable: 0 };
  try {
    const read = await forEachEntry(folder.listPath, { signal, deadline }, (dirent) => {
      if (dirent.name.includes(UNNAMABLE) && !isNamedAsShown(path.join(abs, dirent.name))) {
        listing.unnamable++; // glob and grep cannot show it either, and read_file could not be given its name
        return;
      }
      // realRel: a symlinked folder is judged where it points, as the ignore rules are written
      const entryRel = realRel === "." ? dirent.name : `${realRel}/${dirent.name}`;
      if (!workspace.isVisible(entryRel, dirent.isDirectory())) {
        listing.hidden++;
        return;
      }
      if (!dirent.isFile() && !dirent.isDirectory() && !dirent.isSymbolicLink()) {
        listing.special++; // a FIFO, socket or device: glob and grep skip these too
        return;
      }
      let mtimeNs = 0n;
      try {
        // To the nanosecond, as grep sorts; in path order every entry counts as equally new.
        if (sort === "mtime") mtimeNs = fs.lstatSync(path.join(abs, dirent.name), { bigint: true }).mtimeNs;
      } catch {
        // vanished while listing: keep it, sorted last
      }
      const suffix = dirent.isDirectory() ? "/" : dirent.isSymbolicLink() ? "@" : "";
      listing.shown++;
      // Escaped before the mark is added: a file named "link@" must not read as the symlink "link".
      insertNewest(listing.kept, { rel: escapeListed(dirent.name) + suffix, mtimeNs }, cap);
    });
    return { ...listing, ...read };
  } catch {
    return { error: `${escapePath(rel)} could not be read; it was not listed` };
  } finally {
    fs.closeSync(folder.fd);
  }
}
