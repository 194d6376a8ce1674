// Reading .gitignore and .ignore files into rules, within a size and rule budget, with repeated globstars made
// safe to match.
import { openNoFollow } from "./opened.js";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { default as ignore, Ignore } from "ignore";

// A CommonJS package is loaded with require() where it is first needed, not
// with a static import: importing one makes Node scan its source for export
// names first (~30 ms for this 50 KB package, more than running it), and a
// tool call that reads no ignore file never pays at all.
const require = createRequire(import.meta.url);

/** Files ignore rules are read from, in every directory; each kind hides files on its own. */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore"];

/** An ignore-file line with more globstars ("**") than this is skipped: matching it could take minutes. */
export const MAX_GLOBSTARS_PER_RULE = 2;

/**
 * The user's deny file, read at the workspace root only: gitignore syntax, matched in any case. What it
 * matches, no tool reads, lists or names, as if it were protected: a .clineignore-style rule, where an
 * .ignore rule only hides a file from search and read_file still reads it when named.
 */
export const DENY_FILE = ".scoutignore";

/** git's own ignore file for one clone, read at the root as the weakest .gitignore rules. */
export const GIT_EXCLUDE_FILE = ".git/info/exclude";

/** Directories that are noise to a code search, hidden wherever they are. */
export const NOISE_DIRS = ["node_modules", ".git"];

/** An ignore file larger than this is not read (a note says so): real ones are a few KiB. */
export const MAX_IGNORE_FILE_BYTES = 64 * 1024;
/**
 * An ignore file with more rules than this is not read (a note says so). The ignore package tests every rule
 * against every path: 500 rules cost ~1 s on 3,000 paths, 5,000 rules 36 s. Real ones have a few hundred.
 */
export const MAX_IGNORE_RULES = 1000;

/** One ignore file as read: its rules, or why it was skipped (then none of its rules apply). */
export type IgnoreFile = { rules: Ignore } | { skipped: string };

/**
 * The rules of one ignore file, why it was skipped, or null when there is none. Never a symlink (git does not
 * follow one either, and it could point at /dev/zero), never more than MAX_IGNORE_FILE_BYTES read.
 */
export function readIgnoreFile(file: string, ignorecase = false): IgnoreFile | null {
  let fd: number;
  try {
    fd = openNoFollow(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ELOOP" ? { skipped: "it is a symlink" } : null; // ENOENT and the like: no ignore file here
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return stat.isDirectory() ? null : { skipped: "it is not a regular file" };
    if (stat.size > MAX_IGNORE_FILE_BYTES) return { skipped: `it is over ${MAX_IGNORE_FILE_BYTES / 1024} KiB` };
    // Read at most the size checked, from the descriptor checked: a swap or a growing file changes nothing.
    const bytes = Buffer.alloc(stat.size);
    const length = stat.size === 0 ? 0 : fs.readSync(fd, bytes, 0, stat.size, 0);
    const text = bytes.toString("utf8", 0, length);
    const rules = text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#")).length;
    if (rules > MAX_IGNORE_RULES) return { skipped: `it has over ${MAX_IGNORE_RULES} rules` };
    // Case-sensitive, as git and rg are on Linux (the deny file is not: a rule that protects errs wide).
    return { rules: (require("ignore") as typeof ignore)({ ignorecase }).add(withSafeGlobstars(text)) };
  } finally {
    fs.closeSync(fd);
  }
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

/** At most this many skipped ignore files are named in a note; the rest are counted. */
const MAX_SKIPPED_NAMED = 3;

/** A chain of ignore files: the rules of each folder from the nearest up to the root. */
type Chain = { dir: string; rules: Ignore }[];

/**
 * The ignore rules of one workspace, read as folders are asked about and remembered for one tool call, with
 * the files that were skipped and why.
 */
export class IgnoreRules {
  /** Ignore files not read, relative to the root, with the reason. */
  readonly skipped = new Map<string, string>();
  /**
   * Per kind of ignore file, each folder's chain. One map per kind, not one keyed by "kind:folder": glob asks
   * twice for every match, and building that key was a twentieth of its time on the bench tree.
   */
  private chains = new Map(IGNORE_FILE_NAMES.map((fileName) => [fileName, new Map<string, Chain>()]));
  /** Ignore files a folder listing showed not to exist: not even an open is tried. */
  private absent = new Set<string>();
  /** The rules of DENY_FILE: null when there is none (or it was skipped), undefined until first asked. */
  private denyRules: Ignore | null | undefined;

  constructor(readonly root: string) {}

  /** denies for a path that may be a file or a folder (a path argument, not yet opened). */
  deniesPath(relPath: string): boolean {
    return this.denies(relPath, false) || this.denies(relPath, true);
  }

  /** Whether the root's DENY_FILE denies a path, or a folder above it, to every tool. */
  denies(relPath: string, isDir: boolean): boolean {
    if (this.denyRules === undefined) {
      const file = readIgnoreFile(path.join(this.root, DENY_FILE), true);
      if (file !== null && "skipped" in file) this.skipped.set(DENY_FILE, file.skipped);
      this.denyRules = file !== null && "rules" in file ? file.rules : null;
    }
    if (this.denyRules === null || relPath === "." || relPath === "") return false;
    return this.denyRules.ignores(isDir ? `${relPath}/` : relPath);
  }

  /**
   * Whether the .gitignore files hide the path, or the .ignore files do. Each kind is read like git reads
   * .gitignore: the nearest folder's file first, so a deeper rule (including a "!" re-include) wins, and
   * .git/info/exclude last. A "!" in an .ignore file cannot bring back what a .gitignore hides: grep's rg
   * prunes with .gitignore alone, and must never hide more than this.
   */
  isIgnored(relPath: string, parent: string, isDir: boolean): boolean {
    return IGNORE_FILE_NAMES.some((fileName) => verdict(this.chain(fileName, parent), relPath, isDir));
  }

  /** Whether rg (which reads .gitignore files and the exclude file, never .ignore) hides a folder. */
  hidesForRg(relDir: string): boolean {
    const slash = relDir.lastIndexOf("/");
    return verdict(this.chain(".gitignore", slash === -1 ? "" : relDir.slice(0, slash)), relDir, true);
  }

  /** Whether a folder's own .gitignore (or, at the root, the exclude file) was skipped: rg would read it. */
  skipsGitignoreIn(relDir: string): boolean {
    this.chain(".gitignore", relDir);
    const own = relDir === "" ? ".gitignore" : `${relDir}/.gitignore`;
    return this.skipped.has(own) || (relDir === "" && this.skipped.has(GIT_EXCLUDE_FILE));
  }

  /**
   * A folder's listing, from a walk that read it anyway: its missing ignore files are then never opened. A
   * failed open costs an exception, and glob would otherwise try two in every folder it enters.
   */
  noteListing(relDir: string, entries: fs.Dirent[]): void {
    for (const fileName of IGNORE_FILE_NAMES) {
      if (!entries.some((entry) => entry.name === fileName))
        this.absent.add(relDir === "" ? fileName : `${relDir}/${fileName}`);
    }
  }

  /**
   * The ignore files that were not read (a symlink, too large, too many rules), as a note for a result, or ""
   * when every one was read. Their rules do not apply: the model should know why a file shows.
   */
  skippedNote(): string {
    const skipped = [...this.skipped].map(([file, why]) => `${file} (${why})`);
    if (skipped.length === 0) return "";
    const shown = skipped.slice(0, MAX_SKIPPED_NAMED).join(", ");
    const more = skipped.length > MAX_SKIPPED_NAMED ? ` and ${skipped.length - MAX_SKIPPED_NAMED} more` : "";
    return `(ignore files not read, so their rules do not apply: ${shown}${more})`;
  }

  /** Whether the root's .git/info/exclude was read (grep then hands it to rg). */
  readsExcludeFile(): boolean {
    return this.chain(".gitignore", "").some(({ dir }) => dir === GIT_EXCLUDE_FILE);
  }

  /** The ignore files of one kind in a folder and every folder above it, nearest first. */
  private chain(fileName: string, relDir: string): Chain {
    const chains = this.chains.get(fileName) as Map<string, Chain>;
    let chain = chains.get(relDir);
    if (!chain) {
      const slash = relDir.lastIndexOf("/");
      const above =
        relDir === ""
          ? fileName === ".gitignore"
            ? this.read(GIT_EXCLUDE_FILE, GIT_EXCLUDE_FILE) // the weakest: last in every chain
            : []
          : this.chain(fileName, slash === -1 ? "" : relDir.slice(0, slash));
      chain = [...this.read(relDir === "" ? fileName : `${relDir}/${fileName}`, relDir), ...above];
      chains.set(relDir, chain);
    }
    return chain;
  }

  /** One ignore file as a chain link (or none), noting it when it was skipped. */
  private read(relFile: string, dir: string): Chain {
    if (this.absent.has(relFile)) return [];
    const file = readIgnoreFile(path.join(this.root, relFile));
    if (file === null) return [];
    if ("skipped" in file) {
      this.skipped.set(relFile, file.skipped);
      return [];
    }
    return [{ dir, rules: file.rules }];
  }
}

/** Whether a chain hides a path: the first file with a verdict on it decides. */
function verdict(chain: Chain, relPath: string, isDir: boolean): boolean {
  for (const { dir, rules } of chain) {
    // The exclude file's rules, like the root's, are relative to the root.
    const below = dir === "" || dir === GIT_EXCLUDE_FILE ? relPath : relPath.slice(dir.length + 1);
    const result = rules.test(isDir ? `${below}/` : below);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}
