// The workspace: the one place that decides which paths a tool may touch and which files it may see.
//
// Every tool goes through here, so list_files, glob and grep always agree on the set of visible files.
import fs from "node:fs";
import path from "node:path";
import { escapePath } from "../guards/escape.js";
import { DENY_FILE, IgnoreRules, NOISE_DIRS } from "../guards/ignore-rules.js";
import { DirectFolders, isNamedAsShown } from "../guards/opened.js";
import { forwardSlashForm, pathShapeProblem, shownArgument, UNNAMABLE } from "../guards/path-arguments.js";
import { isDenied, isDeniedName, protectedAncestor } from "../guards/protected.js";
import { isInside, realpathOfDeepestExisting } from "../guards/real-paths.js";
import type { Resolved, WorkspaceView } from "../guards/workspace-view.js";

/** A ".." segment anywhere in a relative path. */
const PARENT_SEGMENT = /(?:^|\/)\.\.(?:\/|$)/;

/**
 * One workspace root and what is visible in it. It remembers the ignore rules it has read, and never looks
 * again: runTool makes a new one for every tool call, so nothing it remembers outlives a call.
 */
export class Workspace implements WorkspaceView {
  /** The root after resolving symlinks: every check compares against this. */
  readonly root: string;
  /** The .gitignore, .ignore, .git/info/exclude and .scoutignore rules, read as folders are asked about. */
  readonly ignoreRules: IgnoreRules;
  /** Which folders are reached without a symlink: what a walk returns is re-checked against it. */
  private readonly directFolders: DirectFolders;
  /** The root folder's own name: top-level entries are judged with it as their parent (.docker/config.json). */
  private readonly rootName: string;
  /** Per folder: whether it is visible (every entry below it asks). */
  private readonly visibleDirs = new Map<string, boolean>();
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
   * Turns a path argument into an absolute path inside the workspace, or a clear error. The check is made after
   * resolving ".." and symlinks, and the name is checked against the protected-file rules as given and as resolved.
   */
  resolveInWorkspace(given: string, argName = "path"): Resolved {
    const input = given === "" ? "." : given; // an empty path means the root, as the default does
    const problem = pathShapeProblem(this.root, input, argName);
    if (problem) return { ok: false, error: problem };
    const lexical = path.resolve(this.root, input);
    const forward = forwardSlashForm(this.root, input, lexical);
    if (forward !== undefined) return this.resolveForwardSlash(input, forward, argName);

    const real = realpathOfDeepestExisting(lexical);
    if (!isInside(this.root, real)) {
      const error = `${argName} ${shownArgument(input)} is outside the workspace; paths must stay inside the directory Scout was started in`;
      return { ok: false, error };
    }
    // Named as given (a symlink keeps its name), unless the given path only reaches the
    // root through a symlink, e.g. an absolute path via a linked root (macOS /tmp).
    const rel = this.toRelative(isInside(this.root, lexical) ? lexical : real);
    const realRel = this.toRelative(real);
    if (isDenied(rel, this.rootName) || isDenied(realRel, this.rootName)) {
      const error = `${argName} "${escapePath(rel)}" is protected (secrets, keys and .git internals are never read or listed)`;
      return { ok: false, error };
    }
    if (this.ignoreRules.deniesPath(rel) || this.ignoreRules.deniesPath(realRel)) {
      const error = `${argName} "${escapePath(rel)}" is denied by ${DENY_FILE} (the user's rule: no tool reads or lists it)`;
      return { ok: false, error };
    }
    return { ok: true, abs: real, rel };
  }

  /** "lib\util.js" names nothing: when "lib/util.js" exists, that one is meant, resolved and checked, and said. */
  private resolveForwardSlash(input: string, forward: string, argName: string): Resolved {
    const asForward = this.resolveInWorkspace(forward, argName);
    if (!asForward.ok) return asForward; // protected, say: the "/" path's own reason
    if (!fs.existsSync(asForward.abs))
      return {
        ok: false,
        error: `${argName} "${escapePath(input)}" uses "\\" as a separator; Scout's separator is "/"`,
      };
    this.noteTakenAsMeant(
      `(${argName} "${escapePath(input)}" was taken as "${escapePath(forward)}": Scout's separator is "/")`,
    );
    return asForward;
  }

  /** A note for the end of this call's result: an argument was read as it was meant, not as written. */
  noteTakenAsMeant(note: string): void {
    this.meantNotes.add(note);
  }

  /** The lines runTool adds to this call's result: arguments taken as meant, ignore files that were not read. */
  notes(): string[] {
    const skipped = escapePath(this.ignoreRules.skippedNote()); // it names paths, so one line whatever they hold
    return [...this.meantNotes, skipped].filter((line) => line !== "");
  }

  /**
   * True when a workspace-relative path is visible to the search tools: inside the root, not protected, not
   * inside node_modules/.git, not matched by any .gitignore or .ignore file from the root down to its directory.
   */
  isVisible(relPath: string, isDir = false): boolean {
    if (relPath === "." || relPath === "") return true;
    // A path that leaves the root is never visible, whatever produced it.
    if (relPath.startsWith("/") || PARENT_SEGMENT.test(relPath)) return false;
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

  private isVisibleDir(relDir: string): boolean {
    let visible = this.visibleDirs.get(relDir);
    if (visible === undefined) this.visibleDirs.set(relDir, (visible = this.isVisible(relDir, true)));
    return visible;
  }

  /**
   * True when a file a walk found lies in a folder reached without a symlink. Walks never follow symlinks, but
   * a folder swapped for one mid-walk is followed; this re-check drops what came through.
   */
  isReachedDirectly(relPath: string): boolean {
    return this.directFolders.holds(relPath);
  }
}
