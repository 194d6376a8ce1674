// The one check for the root of a search or listing: it exists, and is not itself hidden; and which ignore files
// rg may read there.
import fs from "node:fs";
import { GIT_EXCLUDE_FILE } from "./ignore-rules.js";
import { UNOPENABLE, whyNotOpened } from "./opened.js";
import { rgWouldReadSkipped, type WalkStop } from "./rg-ignore-walk.js";
import type { WorkspaceView as Workspace } from "./workspace-view.js";
import { escapePath } from "./escape.js";

/**
 * Checks a path that list_files, glob or grep will walk: it must exist, and a
 * directory must not itself be hidden (ignored, node_modules, .git). Only grep
 * takes a single file, and only a regular one (a FIFO would block rg forever).
 */
function checkSearchPath(
  workspace: Workspace,
  { abs, rel: given, realRel }: { abs: string; rel: string; realRel: string },
  { filesAllowed }: { filesAllowed: boolean },
): { error: string } | { isDirectory: boolean; size: number } {
  const rel = escapePath(given); // as messages name it: on one line, whatever the name holds
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (error) {
    const why = whyNotOpened(abs, error);
    if (why === "missing" || why === "moved") return { error: `not found: ${rel}; use list_files to see what exists` };
    return { error: `${rel} ${UNOPENABLE[why]}; it was not searched or listed` };
  }
  if (stat.isDirectory()) {
    if (!workspace.isVisible(realRel, true)) {
      return {
        error: `${rel} is hidden by ignore rules (.gitignore, .ignore, node_modules, .git), so it is not searched or listed`,
      };
    }
    // A folder this user may not list or enter would walk as empty: "No matches" would be a wrong answer.
    if (!canRead(abs, fs.constants.R_OK | fs.constants.X_OK))
      return { error: `${rel} ${UNOPENABLE.denied}; it was not searched or listed` };
    return { isDirectory: true, size: 0 };
  }
  if (!filesAllowed) return { error: `${rel} is a file, not a directory; use read_file to read it` };
  if (!stat.isFile()) return { error: `${rel} is not a regular file (a FIFO, socket or device); it was not opened` };
  if (!canRead(abs, fs.constants.R_OK)) return { error: `${rel} ${UNOPENABLE.denied}; it was not searched` };
  return { isDirectory: false, size: stat.size };
}

/** A search root that passed every check: where it is, as given and as resolved. */
export interface SearchRoot {
  abs: string;
  /** The path as given, relative to the root: what messages name. */
  rel: string;
  /** Where it really is (through any symlink): what the ignore rules are judged against. */
  realRel: string;
  isDirectory: boolean;
  /** The file's size in bytes (0 for a directory), from the same stat as the checks. */
  size: number;
}

/** The path argument of list_files, glob or grep, resolved in the workspace and checked, or the error to return. */
export function resolveSearchRoot(
  workspace: Workspace,
  input: string,
  { filesAllowed }: { filesAllowed: boolean },
): SearchRoot | { error: string } {
  const resolved = workspace.resolveInWorkspace(input);
  if (!resolved.ok) return { error: resolved.error };
  const root = { abs: resolved.abs, rel: resolved.rel, realRel: workspace.toRelative(resolved.abs) };
  const checked = checkSearchPath(workspace, root, { filesAllowed });
  return "error" in checked ? checked : { ...root, ...checked };
}

/**
 * The arguments that make rg read exactly the ignore files Scout reads. rg would follow a .gitignore symlinked
 * to /dev/zero, or parse 10 MB of rules: if it would meet any ignore file Scout skipped, it reads none
 * (Scout's own filter still hides what the rules it read hide). Otherwise it reads the .gitignore files, and
 * the root's .git/info/exclude when Scout read that one too. A walk stopped (deadline, Ctrl-C) counts as "none".
 */
export async function rgIgnoreArguments(workspace: Workspace, searchRel: string, stop: WalkStop): Promise<string[]> {
  const relDir = searchRel === "." ? "" : searchRel;
  if (await rgWouldReadSkipped(workspace.ignoreRules, workspace.root, relDir, stop)) return ["--no-ignore-vcs"];
  return workspace.ignoreRules.readsExcludeFile() ? [`--ignore-file=${GIT_EXCLUDE_FILE}`] : [];
}

/** Whether this process may use a path in the given modes (access(2): root passes where a mode says no). */
export function canRead(abs: string, mode: number = fs.constants.R_OK): boolean {
  try {
    fs.accessSync(abs, mode);
    return true;
  } catch {
    return false;
  }
}
