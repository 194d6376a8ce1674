// Walks the folders grep's rg would enter, several at a time, to learn before rg starts whether it would meet a
// .gitignore that Scout skipped (a symlink to /dev/zero, 10 MB of rules).
import fs from "node:fs";
import path from "node:path";
import { type IgnoreRules, NOISE_DIRS, readIgnoreFile } from "./ignore-rules.js";
import { isDeniedName, rgSkipsName } from "./protected.js";

/**
 * Folders listed at once. Each listing is a system call on libuv's thread
 * pool (4 threads by default): on 2 idle cores, 4 at a time list the 60,000-file
 * bench tree in about half the time of one after the other.
 */
const PARALLEL_LISTINGS = 4;

/** How the walk may be stopped: rg's own deadline and Ctrl-C, as the search would be. */
export interface WalkStop {
  signal?: AbortSignal;
  deadline: number;
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
export function rgWouldReadSkipped(rules: IgnoreRules, root: string, relDir: string, stop: WalkStop): Promise<boolean> {
  return new Promise((resolve) => {
    const waiting: Folder[] = [{ dir: relDir, protectedFolder: false }];
    let listing = 0; // folders being listed right now
    let answered = false;
    const answer = (found: boolean) => {
      if (!answered) resolve(found);
      answered = true;
    };
    const next = () => {
      if (answered) return;
      if (stop.signal?.aborted || Date.now() > stop.deadline) return answer(true);
      while (listing < PARALLEL_LISTINGS && waiting.length > 0) list(waiting.pop() as Folder);
      if (listing === 0) answer(false);
    };
    const list = (folder: Folder) => {
      listing++;
      fs.readdir(path.join(root, folder.dir), { withFileTypes: true }, (error, entries) => {
        listing--;
        // Unreadable: rg cannot enter it either.
        if (!answered && !error) {
          if (skipsOwnGitignore(rules, root, folder, entries)) return answer(true);
          waiting.push(...foldersRgEnters(rules, folder, entries));
        }
        next();
      });
    };
    next();
  });
}

/** Whether Scout skips the .gitignore rg would read in this folder (at the root: or the exclude file). */
function skipsOwnGitignore(rules: IgnoreRules, root: string, { dir, protectedFolder }: Folder, entries: fs.Dirent[]) {
  rules.noteListing(dir, entries);
  if (!protectedFolder) return rules.skipsGitignoreIn(dir); // read once, and used by isVisible later
  if (!entries.some((entry) => entry.name === ".gitignore")) return false;
  const file = readIgnoreFile(path.join(root, dir, ".gitignore"));
  return file !== null && "skipped" in file;
}

/** The sub-folders of a folder that rg would enter. */
function foldersRgEnters(rules: IgnoreRules, { dir, protectedFolder }: Folder, entries: fs.Dirent[]): Folder[] {
  const parentName = path.basename(dir === "" ? rules.root : dir); // the root's own name for a top-level entry
  const folders: Folder[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || NOISE_DIRS.includes(entry.name) || rgSkipsName(entry.name)) continue;
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    // In a protected folder the .gitignore rules are not read, so nothing is pruned by them: more is walked.
    const inProtected = protectedFolder || isDeniedName(entry.name, parentName);
    if (inProtected || !rules.hidesForRg(rel)) folders.push({ dir: rel, protectedFolder: inProtected });
  }
  return folders;
}
