// Opening the file read_file was asked for: resolved in the workspace, opened, then judged by what was opened
// (a swap after the check cannot redirect it), a near-miss name read as the one file meant, and a missing one
// answered with the names it may have meant.
import fs from "node:fs";
import { escapePath } from "./escape.js";
import { formatCount } from "./format.js";
import { openChecked, UNOPENABLE } from "./opened.js";
import {
  findLookAlike,
  MAX_ENTRIES_READ,
  SUGGEST_TIMEOUT_MS,
  showLookAlikes,
  suggestSimilarPaths,
} from "./similar-paths.js";
import type { WorkspaceView } from "./workspace-view.js";

/** A regular file, open: its descriptor, size, and its path as messages name it (escaped). */
export type OpenedFile = { fd: number; size: number; rel: string } | { error: string };

export async function openTextFile(workspace: WorkspaceView, input: string, signal?: AbortSignal): Promise<OpenedFile> {
  const resolved = workspace.resolveInWorkspace(input);
  if (!resolved.ok) return { error: resolved.error };
  let { abs } = resolved;
  let rel = escapePath(resolved.rel); // as messages name it: on one line, whatever the name holds

  let opened = openChecked(abs);
  if (opened === "missing") {
    // One file that differs only in invisible or look-alike characters is the one meant: it is read.
    const meant = await findLookAlike(workspace, resolved.rel);
    const again = meant === undefined ? undefined : workspace.resolveInWorkspace(meant);
    if (again?.ok) {
      workspace.noteTakenAsMeant(
        `(read ${showLookAlikes(again.rel)}, the one file whose name differs from ${showLookAlikes(resolved.rel)} only in Unicode spaces, quotes or accents)`,
      );
      ({ abs } = again);
      rel = escapePath(again.rel);
      opened = openChecked(abs);
    }
  }
  if (opened === "moved") return { error: `${rel} changed while it was being opened; it was not read` };
  if (opened === "missing") {
    const similar = await suggestSimilarPaths(workspace, resolved.rel, signal);
    const hint = similar.paths.length
      ? `; did you mean: ${similar.paths.map(showLookAlikes).join(", ")}?`
      : "; use glob or list_files to find it";
    const stopped = {
      entries: ` (only the first ${formatCount(MAX_ENTRIES_READ)} entries of the workspace were compared)`,
      time: ` (looking for similar names stopped after ${SUGGEST_TIMEOUT_MS / 1000} s)`,
    };
    return { error: `file not found: ${rel}${hint}${similar.stopped ? stopped[similar.stopped] : ""}` };
  }
  if (typeof opened === "string") return { error: `${rel} ${UNOPENABLE[opened]}; it was not read` };
  const { fd, stat } = opened;
  const refuse = (error: string) => {
    fs.closeSync(fd);
    return { error };
  };
  if (stat.isDirectory()) return refuse(`${rel} is a directory; use list_files to see what it holds`);
  if (!stat.isFile()) return refuse(`${rel} is not a regular file (a FIFO, socket or device); it was not opened`);
  return { fd, size: stat.size, rel };
}
