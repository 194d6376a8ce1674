// Reading .gitignore and .ignore files into rules, with repeated globstars made safe to match.
import fs from "node:fs";
import ignore, { type Ignore } from "ignore";

/** Files ignore rules are read from, in every directory; each kind hides files on its own. */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore"];

/** An ignore-file line with more globstars ("**") than this is skipped: matching it could take minutes. */
export const MAX_GLOBSTARS_PER_RULE = 2;

/** Directories that are noise to a code search, hidden wherever they are. */
export const NOISE_DIRS = ["node_modules", ".git"];

/** The rules of one ignore file, or null when there is none. */
export function readIgnoreFile(file: string): Ignore | null {
  try {
    // Never follow a symlinked ignore file: it could be any file, inside or out.
    // Case-sensitive, as git and rg are on Linux.
    if (fs.lstatSync(file).isFile())
      return ignore({ ignorecase: false }).add(withSafeGlobstars(fs.readFileSync(file, "utf8")));
  } catch {
    // no ignore file here
  }
  return null;
}

// The ignore package turns each globstar ("**") into a regex group, and such
// groups backtrack: a dozen in a row in one .gitignore line took minutes on a
// deep path, with the event loop (and so Ctrl-C) blocked. "a/**/**/z" means
// what "a/**/z" means, so repeats are merged; a line that still has more
// than MAX_GLOBSTARS_PER_RULE is skipped (on a 200-folder path, 2 globstars
// cost 5 ms, 3 cost 0.2 s, 4 cost 11 s). rg, which does not backtrack,
// still applies such a line, so grep may search fewer files than glob lists.
function withSafeGlobstars(rules: string): string {
  return rules
    .replace(/(^|\/)\*{2,}(\/\*{2,})+(?=\/|\r?$)/gm, "$1**")
    .replace(/^.*$/gm, (line) => ((line.match(/\*{2,}/g)?.length ?? 0) > MAX_GLOBSTARS_PER_RULE ? "" : line));
}
