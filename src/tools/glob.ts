// glob: find files by name pattern with fast-glob, newest first.
import fs from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import type { Workspace } from "../workspace.js";
import { MAX_RESULT_LINES, checkSearchPath, fail, ok, type Tool } from "./tool.js";

/** Patterns whose braces would expand to more alternatives than this are refused. */
export const MAX_BRACE_EXPANSION = 1000;

interface Args {
  pattern: string;
  path?: string;
}

export const glob: Tool<Args> = {
  name: "glob",
  description:
    `Find files (not directories) whose path matches a glob pattern, e.g. "**/*.ts" or "src/**/test_*.py". ` +
    `Results are sorted by modification time, newest first, at most ${MAX_RESULT_LINES}; ` +
    `ignored files (.gitignore, .ignore, node_modules) and protected files are not listed. ` +
    `Use it to locate files by name; use grep to search their contents.`,
  input_schema: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "glob pattern, relative to path (e.g. **/*.ts)" },
      path: { type: "string", description: 'directory to search in, relative to the workspace root (default ".")' },
    },
    required: ["pattern"],
    additionalProperties: false,
  },

  async run({ pattern, path: input = "." }, { workspace }) {
    const problem = checkPattern(pattern);
    if (problem) return fail(problem);
    const resolved = workspace.resolveInWorkspace(input);
    if (!resolved.ok) return fail(resolved.error);
    const { error } = checkSearchPath(workspace, resolved, { filesAllowed: false });
    if (error) return fail(error);
    // A symlink given as path is searched where it points, as grep does, so each file is
    // judged (and shown) under its real path: the ignore rules are written for that one.
    const baseRel = workspace.toRelative(resolved.abs);
    // fast-glob opens a pattern's fixed leading folders ("link/" in "link/*") directly, and
    // would follow a symlink there: each is checked like a path, and must not be a symlink.
    for (const { base } of fg.generateTasks(pattern)) {
      const folder = workspace.resolveInWorkspace(path.posix.join(baseRel, base), "the folder in pattern");
      if (!folder.ok) return fail(folder.error);
      const real = workspace.toRelative(folder.abs);
      if (real !== folder.rel) {
        return fail(
          `the folder in pattern "${folder.rel}" goes through a symlink (it is "${real}"); glob does not follow symlinks, so write "${real}" in the pattern`,
        );
      }
    }

    let found: FoundFiles;
    try {
      found = await findNewestFiles(workspace, baseRel, pattern);
    } catch (error) {
      return fail(`glob pattern "${pattern}" could not be used: ${workspace.redact((error as Error).message)}`);
    }
    const where = resolved.rel === "." ? "" : ` in ${resolved.rel}`;
    if (found.total === 0) return ok(`No files match "${pattern}"${where}.`, "no files");

    const lines = found.newest.map((file) => file.rel);
    if (found.total > lines.length) {
      lines.push(
        `(showing the ${lines.length} newest of ${found.total} files; use a narrower pattern or path to see others)`,
      );
    }
    const summary = `${found.total} file${found.total === 1 ? "" : "s"}`;
    return ok(lines.join("\n"), summary);
  },
};

/** A ".." segment: plain, after a Windows separator, or inside braces {..,x} or extglobs @(..). */
const DOT_DOT_SEGMENT = /(^|[/\\{},(|])\.\.($|[/\\{},)|])/;

/** Refuses patterns that could reach outside the workspace or expand without bound. */
export function checkPattern(pattern: string, argName = "pattern"): string | null {
  if (pattern === "") return `${argName} must not be empty`;
  if (pattern.includes("\0")) return `${argName} must not contain a NUL byte`;
  // An absolute pattern is not echoed back: tool output never shows host paths.
  if (path.isAbsolute(pattern) || /^[a-zA-Z]:[\\/]|^\\\\/.test(pattern))
    return `${argName} must be relative to the workspace, not an absolute path`;
  if (pattern.startsWith("~")) return `${argName} "${pattern}": "~" is not expanded; use a relative pattern`;
  if (braceExpansionSize(pattern) > MAX_BRACE_EXPANSION) {
    return `${argName} "${pattern}" expands to more than ${MAX_BRACE_EXPANSION} alternatives; use a simpler pattern`;
  }
  // Checked again after fast-glob expands the braces: "{.,.}./x" becomes "../x".
  const expanded = fg.generateTasks(pattern).flatMap((task) => task.patterns);
  if ([pattern, ...expanded].some((p) => DOT_DOT_SEGMENT.test(p)))
    return `${argName} "${pattern}" must not contain a ".." segment`;
  return null;
}

/**
 * An upper bound on how many patterns the braces expand to: the product of
 * every group's size ({a,b,c} is 3, {1..9} is 9, {a..z} is 26), nested
 * groups included. Counted before anything is expanded.
 */
function braceExpansionSize(pattern: string): number {
  let size = 1;
  const open: { start: number; commas: number }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\")
      i++; // an escaped character is literal
    else if (char === "{") open.push({ start: i + 1, commas: 0 });
    else if (char === "," && open.length > 0) open[open.length - 1].commas++;
    else if (char === "}" && open.length > 0) {
      const group = open.pop()!;
      size *= group.commas > 0 ? group.commas + 1 : rangeSize(pattern.slice(group.start, i));
    }
  }
  return size;
}

/** The length of a {1..100} or {a..z} range (with an optional ..step); 1 for anything else. */
function rangeSize(body: string): number {
  const range = /^([^.]+)\.\.([^.]+)(?:\.\.(-?\d+))?$/.exec(body);
  if (!range) return 1;
  const [from, to] = [range[1], range[2]].map((end) =>
    /^-?\d+$/.test(end) ? Number(end) : end.length === 1 ? end.charCodeAt(0) : NaN,
  );
  if (Number.isNaN(from) || Number.isNaN(to)) return 1;
  const step = Math.abs(Number(range[3] ?? 1)) || 1;
  return Math.floor(Math.abs(to - from) / step) + 1;
}

interface FoundFile {
  rel: string;
  mtimeNs: bigint;
}
export interface FoundFiles {
  newest: FoundFile[];
  total: number;
}

/**
 * Streams the matches and keeps only the newest MAX_RESULT_LINES, so memory
 * does not grow with the number of matches.
 */
export async function findNewestFiles(
  workspace: Workspace,
  baseRel: string,
  pattern: string,
  caseSensitive = true,
): Promise<FoundFiles> {
  const newest: FoundFile[] = [];
  let total = 0;
  const cwd = path.join(workspace.root, baseRel);
  const stream = fg.stream(pattern, {
    cwd,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false, // symlinks are never followed while walking
    suppressErrors: true, // unreadable folders are skipped, not fatal
    caseSensitiveMatch: caseSensitive,
    // fast-glob reads folders through this, so it never walks into a hidden one.
    fs: { readdir: withoutHiddenFolders(workspace) },
  });
  for await (const entry of stream as AsyncIterable<string>) {
    const rel = path.posix.join(baseRel, entry); // also tidies "./x" and "a//b" from the pattern
    if (!workspace.isVisible(rel)) continue; // which also drops anything that left the workspace
    let mtimeNs: bigint;
    try {
      // Only matches are stat'ed, not every file walked; in nanoseconds, as grep sorts.
      mtimeNs = fs.lstatSync(path.join(cwd, entry), { bigint: true }).mtimeNs;
    } catch {
      continue; // vanished while walking
    }
    total++;
    insertNewest(newest, { rel, mtimeNs });
  }
  return { newest, total };
}

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: fs.Dirent[]) => void;

/**
 * fs.readdir, less the folders the workspace hides (fast-glob always asks
 * for Dirents). Files are checked after matching: most do not match.
 */
function withoutHiddenFolders(workspace: Workspace): typeof fs.readdir {
  const readdir = (dir: string, options: { withFileTypes: true }, callback: ReaddirCallback) =>
    fs.readdir(dir, options, (error, entries) => {
      if (error) return callback(error, []);
      const relDir = workspace.toRelative(dir);
      const prefix = relDir === "." ? "" : `${relDir}/`;
      callback(
        null,
        entries.filter((entry) => !entry.isDirectory() || workspace.isVisible(prefix + entry.name, true)),
      );
    });
  return readdir as typeof fs.readdir;
}

/** Newest first, ties by path; the list never holds more than MAX_RESULT_LINES. */
function insertNewest(list: FoundFile[], file: FoundFile): void {
  const before = (a: FoundFile, b: FoundFile) => a.mtimeNs > b.mtimeNs || (a.mtimeNs === b.mtimeNs && a.rel < b.rel);
  let i = list.length;
  while (i > 0 && before(file, list[i - 1])) i--;
  if (i >= MAX_RESULT_LINES) return;
  list.splice(i, 0, file);
  if (list.length > MAX_RESULT_LINES) list.pop();
}
