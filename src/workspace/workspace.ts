// The workspace: the one place that decides which paths a tool may touch and
// which files it may see.
//
// Every tool goes through here, so list_files, glob
// and grep always agree on the set of visible files.
import fs from "node:fs";
import path from "node:path";
import { escapePath } from "../escape.js";
import { DirectFolders, isNamedAsShown } from "./opened.js";
import { isInside, realpathOfDeepestExisting } from "./real-paths.js";
import { DENY_FILE, IgnoreRules, NOISE_DIRS } from "./ignore-rules.js";
import { isDenied, isDeniedName, protectedAncestor } from "./protected.js";
import { rgWouldReadSkipped, type WalkStop } from "./rg-ignore-walk.js";

/** Longest path argument accepted: Linux's PATH_MAX. Longer ones cannot name a file anyway. */
export const MAX_PATH_CHARS = 4096;
/** Most "/"-separated segments in a path argument: resolving costs grow with the square of the count. */
export const MAX_PATH_SEGMENTS = 256;

/**
 * U+FFFD stands in for bytes that are not UTF-8 when a file name is decoded: such a name cannot be named back,
 * so every tool hides it (list_files counts it) and no path holds it, unless U+FFFD is its own (isNamedAsShown).
 */
export const UNNAMABLE = "\uFFFD";

export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; error: string };

/**
 * One workspace root and what is visible in it. It remembers the ignore
 * rules it has read, and never looks again: runTool makes a new one for
 * every tool call, so nothing it remembers outlives a call.
 */
export class Workspace {
  /** The root after resolving symlinks: every check compares against this. */
  readonly root: string;
  /** Per folder (relative, "" for the root): whether it is visible. */
  private visibleDirCache = new Map<string, boolean>();
  /** The .gitignore, .ignore and .git/info/exclude rules, read as folders are asked about. */
  private readonly ignoreRules: IgnoreRules;

  /** Which folders are reached without a symlink: what a walk returns is re-checked against it. */
  private readonly directFolders: DirectFolders;
  /** The root folder's own name: top-level entries are judged with it as their parent (.docker/config.json). */
  private readonly rootName: string;
  /** Arguments read as meant, not as written ("src\a.ts" as "src/a.ts"): the result ends saying so. */
  private readonly meantNotes = new Set<string>();

  /** Throws when the root lies in a protected folder (~/.aws, repo/.git): everything there is a secret. */
  constructor(root: string) {
    this.root = fs.realpathSync(root);
    this.rootName = path.basename(this.root);
    this.directFolders = new DirectFolders(this.root);
    this.ignoreRules = new IgnoreRules(this.root);
    const inside = protectedAncestor(this.root);
    if (inside)
      throw new Error(
        `${this.root} is inside a protected folder (${inside}); Scout never reads credential stores or .git internals, so start it in a code folder`,
      );
  }

  /** The same root with nothing remembered: runTool gives each tool call one. */
  fresh(): Workspace {
    return new Workspace(this.root);
  }

  /** Path relative to the root, always with "/" separators ("." for the root). */
  toRelative(abs: string): string {
    const rel = path.relative(this.root, abs).split(path.sep).join("/");
    return rel === "" ? "." : rel;
  }

  /** Replaces the host path of the root in a message, so no absolute host path reaches the model. */
  redact(text: string): string {
    return text.split(this.root).join(".");
  }

  /**
   * Turns a path argument into an absolute path inside the workspace, or a
   * clear error. The check is made after resolving ".." and symlinks, and the
   * name is checked against the protected-file rules as given and as resolved.
   */
  resolveInWorkspace(given: string, argName = "path"): Resolved {
    const input = given === "" ? "." : given; // an empty path means the root, as the default does
    if (input.includes("\0")) return { ok: false, error: `${argName} must not contain a NUL byte` };
    if (input.includes(UNNAMABLE) && (input.length > MAX_PATH_CHARS || !isNamedAsShown(path.resolve(this.root, input))))
      return refused(
        `${argName} holds U+FFFD, the mark of a file name that is not valid UTF-8; such files cannot be named, so no tool reads or lists them`,
      );
    // Before any work that grows with the length: an 80 KB path took 40 s to resolve.
    if (input.length > MAX_PATH_CHARS)
      return { ok: false, error: `${argName} is ${input.length} characters long, over the ${MAX_PATH_CHARS} limit` };
    if (input.split("/").length > MAX_PATH_SEGMENTS)
      return refused(`${argName} has more than ${MAX_PATH_SEGMENTS} "/"-separated segments; give a shorter path`);
    if (input.startsWith("~"))
      return refused(
        `${argName} "${escapePath(input)}": "~" is not expanded; give a path relative to the workspace root`,
      );
    if (/^[a-zA-Z]:[\\/]|^\\\\/.test(input))
      return refused(
        `${argName} "${escapePath(input)}": Windows drive and UNC paths are not supported; give a path relative to the workspace root`,
      );

    const lexical = path.resolve(this.root, input);
    const backslash = this.backslashMeaning(input, lexical, argName);
    if (backslash) return backslash;

    const real = realpathOfDeepestExisting(lexical);
    if (!isInside(this.root, real)) return outside(argName, input);
    // Named as given (a symlink keeps its name), unless the given path only reaches the
    // root through a symlink, e.g. an absolute path via a linked root (macOS /tmp).
    const rel = this.toRelative(isInside(this.root, lexical) ? lexical : real);
    if (isDenied(rel, this.rootName) || isDenied(this.toRelative(real), this.rootName))
      return protectedPath(argName, rel);
    if (this.ignoreRules.deniesPath(rel) || this.ignoreRules.deniesPath(this.toRelative(real)))
      return refused(
        `${argName} "${escapePath(rel)}" is denied by ${DENY_FILE} (the user's rule: no tool reads or lists it)`,
      );
    return { ok: true, abs: real, rel };
  }

  /**
   * A path with "\" that names nothing is a Windows-style path: on Linux "\" is a character of a name, so
   * "lib\util.js" would be "not found". When the "/" path exists, that one is meant: it is resolved (and
   * checked) instead, and a note tells the model the separator. Otherwise an error says so.
   */
  private backslashMeaning(input: string, lexical: string, argName: string): Resolved | undefined {
    if (!input.includes("\\") || !isInside(this.root, lexical) || fs.existsSync(lexical)) return undefined;
    const forward = input.replace(/\\+/g, "/");
    const asForward = this.resolveInWorkspace(forward, argName);
    if (asForward.ok && fs.existsSync(asForward.abs)) {
      this.noteTakenAsMeant(
        `(${argName} "${escapePath(input)}" was taken as "${escapePath(forward)}": Scout's separator is "/")`,
      );
      return asForward;
    }
    if (!asForward.ok) return asForward; // protected, say: the "/" path's own reason
    return refused(`${argName} "${escapePath(input)}" uses "\\" as a separator; Scout's separator is "/"`);
  }

  /** A note for the end of this call's result: an argument was read as it was meant, not as written. */
  noteTakenAsMeant(note: string): void {
    this.meantNotes.add(note);
  }

  /** The notes of noteTakenAsMeant, one per line, or "" (paths in them are already escaped). */
  takenAsMeantNote(): string {
    return [...this.meantNotes].join("\n");
  }

  /**
   * True when a workspace-relative path is visible to the search tools: inside
   * the root, not protected, not inside node_modules/.git, not matched by any
   * .gitignore or .ignore file from the root down to its directory. Called for
   * every file a search walks, so what a folder contributes is worked out once.
   */
  isVisible(relPath: string, isDir = false): boolean {
    if (relPath === "." || relPath === "") return true;
    // A path that leaves the root is never visible, whatever produced it.
    if (relPath.startsWith("/") || `/${relPath}/`.includes("/../")) return false;
    const slash = relPath.lastIndexOf("/");
    const parent = slash === -1 ? "" : relPath.slice(0, slash);
    const name = relPath.slice(slash + 1);
    if (parent !== "" && !this.isVisibleDir(parent)) return false;
    if (name.includes(UNNAMABLE) && !isNamedAsShown(path.join(this.root, relPath))) return false; // not UTF-8
    const parentName = parent === "" ? this.rootName : parent.slice(parent.lastIndexOf("/") + 1);
    if (isDeniedName(name, parentName) || NOISE_DIRS.includes(name)) return false;
    if (this.ignoreRules.denies(relPath, isDir)) return false; // the user's .scoutignore: as if protected
    return !this.ignoreRules.isIgnored(relPath, parent, isDir);
  }

  /**
   * True when a file a walk found (fast-glob's or rg's) lies in a folder reached without a symlink. Walks never
   * follow symlinks, but a folder swapped for one mid-walk is followed; this re-check drops what came through.
   */
  isReachedDirectly(relPath: string): boolean {
    return this.directFolders.holds(relPath);
  }

  /** isVisible for a folder, remembered: every entry below it asks. */
  private isVisibleDir(relDir: string): boolean {
    let visible = this.visibleDirCache.get(relDir);
    if (visible === undefined) {
      visible = this.isVisible(relDir, true);
      this.visibleDirCache.set(relDir, visible);
    }
    return visible;
  }

  /**
   * The ignore files that were not read (a symlink, too large, too many rules), as a note for a result, or ""
   * when every one was read. Their rules do not apply: the model should know why a file shows.
   */
  ignoreNote(): string {
    const skipped = [...this.ignoreRules.skipped].map(([file, why]) => `${file} (${why})`);
    if (skipped.length === 0) return "";
    const shown = skipped.slice(0, MAX_SKIPPED_NAMED).join(", ");
    const more = skipped.length > MAX_SKIPPED_NAMED ? ` and ${skipped.length - MAX_SKIPPED_NAMED} more` : "";
    return `(ignore files not read, so their rules do not apply: ${shown}${more})`;
  }

  /** Whether the root's .git/info/exclude was read (grep then hands it to rg). */
  readsExcludeFile(): boolean {
    return this.ignoreRules.readsExcludeFile();
  }

  /** What a walk found in a folder (fast-glob's): the ignore files it lacks are not looked for again. */
  noteListing(relDir: string, entries: fs.Dirent[]): void {
    this.ignoreRules.noteListing(relDir === "." ? "" : relDir, entries);
  }

  /**
   * True when rg, searching relDir, would read a .gitignore that Scout skips (a symlink to /dev/zero, 10 MB of
   * rules): then grep must tell rg to read none. Walks the folders rg would enter, reading their .gitignore
   * files as rg would (so nothing is read twice: isVisible uses what this reads). Also true when stopped.
   */
  rgWouldReadSkippedIgnoreFile(relDir: string, stop: WalkStop): Promise<boolean> {
    return rgWouldReadSkipped(this.ignoreRules, this.root, relDir === "." ? "" : relDir, stop);
  }
}

/** At most this many skipped ignore files are named in a note; the rest are counted. */
const MAX_SKIPPED_NAMED = 3;

/** A path argument refused, with the message the model gets. */
function refused(error: string): Resolved {
  return { ok: false, error };
}

function outside(argName: string, input: string): Resolved {
  // An absolute path is not echoed back: tool output never shows host paths.
  const shown = path.isAbsolute(input) ? "(an absolute path)" : `"${escapePath(input)}"`;
  return {
    ok: false,
    error: `${argName} ${shown} is outside the workspace; paths must stay inside the directory Scout was started in`,
  };
}

function protectedPath(argName: string, rel: string): Resolved {
  return {
    ok: false,
    error: `${argName} "${escapePath(rel)}" is protected (secrets, keys and .git internals are never read or listed)`,
  };
}
