// Walks the folders grep's rg would enter, without blocking the event loop for long, to learn before rg starts whether it would meet a
// .gitignore that Scout skipped (a symlink to /dev/zero, 10 MB of rules).
import fs from "node:fs";
import path from "node:path";
import { type IgnoreRules, NOISE_DIRS, readIgnoreFile } from "./ignore-rules.js";
import { isDeniedName, rgSkipsName } from "./protected.js";

/**
 * Folders listed between two looks at Ctrl-C and the deadline (~3 ms on the bench tree), so the event loop is
 * never blocked for long. Listed one after the other: on 2 cores, listing 4 at a time on libuv's thread pool
 * cost 50% more CPU (a thread hop per folder) and was no faster.
 */
const LISTINGS_PER_SLICE = 200;

/** How the walk may be stopped: rg's own deadline and Ctrl-C, as the search would be; and how far it goes. */
export interface WalkStop {
  signal?: AbortSignal;
  deadline: number;
  /**
   * rg has an include glob, which can name a folder the .gitignore rules hide ("{vendor,*.c}") and so make rg
   * enter it: the walk then enters every such folder too.
   */
  entersIgnored?: boolean;
}

/** A folder to list, and whether it lies in a protected folder (whose ignore files are never named in a note). */
type Folder = { dir: string; protectedFolder: boolean };

/**
 * True when rg, searching relDir ("" for the root), would read a .gitignore that Scout skips, or when the walk
 * was stopped (then rg must read none either). It enters exactly the folders rg enters, or more, never fewer:
 * all but node_modules, .git, those the --iglob of DENIED_GLOBS skips and those hidden by the .gitignore rules
 * rg reads. rg also enters a folder Scout protects without an rg glob (.env.d, whose files isVisible drops
 * afterwards): its .gitignore is checked too, but never applied nor named in a note.
 */
export async function rgWouldReadSkipped(
  rules: IgnoreRules,
  root: string,
  relDir: string,
  stop: WalkStop,
): Promise<boolean> {
  const waiting: Folder[] = [{ dir: relDir, protectedFolder: false }];
  for (let listed = 0; waiting.length > 0; listed++) {
    if (listed % LISTINGS_PER_SLICE === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve)); // lets a Ctrl-C or a timer through
      if (stop.signal?.aborted || Date.now() > stop.deadline) return true;
    }
    const folder = waiting.pop() as Folder;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder.dir === "" ? root : `${root}/${folder.dir}`, { withFileTypes: true });
    } catch {
      continue; // unreadable: rg cannot enter it either
    }
    if (skipsOwnGitignore(rules, root, folder, entries)) return true;
    addFoldersRgEnters(rules, folder, entries, waiting, stop.entersIgnored ?? false);
  }
  return false;
}

/** Whether Scout skips the .gitignore rg would read in this folder (at the root: or the exclude file). */
function skipsOwnGitignore(rules: IgnoreRules, root: string, { dir, protectedFolder }: Folder, entries: fs.Dirent[]) {
  rules.noteListing(dir, entries);
  if (!protectedFolder) return rules.skipsGitignoreIn(dir); // read once, and used by isVisible later
  if (!entries.some((entry) => entry.name === ".gitignore")) return false;
  const file = readIgnoreFile(path.join(root, dir, ".gitignore"));
  return file !== null && "skipped" in file;
}

/** Adds the sub-folders of a folder that rg would enter to `waiting`. Run for every folder, so kept lean. */
function addFoldersRgEnters(
  rules: IgnoreRules,
  { dir, protectedFolder }: Folder,
  entries: fs.Dirent[],
  waiting: Folder[],
  entersIgnored: boolean,
) {
  const parentName = dir === "" ? path.basename(rules.root) : dir.slice(dir.lastIndexOf("/") + 1); // the root's name
  for (const entry of entries) {
    if (!entry.isDirectory() || NOISE_DIRS.includes(entry.name)) continue;
    const denied = isDeniedName(entry.name, parentName);
    if (denied && rgSkipsName(entry.name)) continue; // rgSkipsName is a part of isDeniedName: asked only then
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    // In a protected folder the .gitignore rules are not read, so nothing is pruned by them: more is walked.
    const inProtected = protectedFolder || denied;
    if (inProtected || entersIgnored || !rules.hidesForRg(rel))
      waiting.push({ dir: rel, protectedFolder: inProtected });
  }
}
