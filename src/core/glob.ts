// glob: find files by name pattern with fast-glob, newest first.
import path from "node:path";
import { escapeListed, escapePath } from "../guards/escape.js";
import { type FoundFiles, findNewestFiles } from "../guards/file-walk.js";
import { MAX_FOLDER_ENTRIES } from "../guards/folder-entries.js";
import { formatCount } from "../guards/format.js";
import { addLiteralMatch, backslashHint, fixedFolderProblem, withoutFixedFolders } from "../guards/glob-folders.js";
import { checkPattern, checkPatternComplexity, MAX_PATTERN_CHARS } from "../guards/patterns.js";
import { clipEcho } from "../guards/result-budget.js";
import { resolveSearchRoot } from "../guards/search-path.js";
import { fail, MAX_RESULT_LINES, ok, SCOUT_LIMITS, SMART_CASE, type Tool } from "./tool.js";

/** A glob call stops after this long, as grep's rg does, and says so. */
export const GLOB_TIMEOUT_MS = 10_000;
/** Characters fast-glob reads as pattern syntax that real folder names also hold (Next.js "[slug]", "(marketing)"). */
const SYNTAX_IN_NAMES = /[[\](){}]/;

export const glob: Tool<{ pattern: string; path?: string }> = {
  name: "glob",
  description:
    'Find files (not directories) whose path matches a glob pattern, e.g. "**/*.ts" or "src/**/test_*.py". ' +
    `Results are sorted by modification time, newest first, at most ${MAX_RESULT_LINES}; ` +
    "ignored files (.gitignore, .ignore, node_modules) and protected files are not listed. " +
    `${SMART_CASE} ` +
    "Escape [ ] ( ) { } with \\ to match them literally. " +
    `Pattern up to ${formatCount(MAX_PATTERN_CHARS)} characters; reads ${formatCount(MAX_FOLDER_ENTRIES)} entries a folder and ${GLOB_TIMEOUT_MS / 1000} s at most. ` +
    "Use it to locate files by name; use grep to search their contents.",
  askForLess: "a narrower pattern or path",
  input_schema: {
    type: "object",
    properties: {
      pattern: { type: "string", description: "glob pattern, relative to path (e.g. **/*.ts)" },
      path: { type: "string", description: 'directory to search in, relative to the workspace root (default ".")' },
    },
    required: ["pattern"],
    additionalProperties: false,
  },

  async run({ pattern, path: input = "." }, { workspace, signal, limits = SCOUT_LIMITS }) {
    // 1. The pattern and the folder: bounded, inside the workspace, not hidden.
    const problem = checkPattern(pattern) ?? checkPatternComplexity(pattern);
    if (problem) return fail(problem);
    const folder = resolveSearchRoot(workspace, input, { filesAllowed: false });
    if ("error" in folder) return fail(folder.error);
    // A symlink given as path is searched where it points, as grep does, so each file is
    // judged (and shown) under its real path: the ignore rules are written for that one.
    const baseRel = folder.realRel;
    const folderProblem = fixedFolderProblem(workspace, baseRel, pattern);
    if (folderProblem) return fail(folderProblem);

    // 2. Walk: every visible match counted, the newest `cap` kept.
    let found: FoundFiles;
    const walk = { limits, signal, deadline: Date.now() + GLOB_TIMEOUT_MS };
    try {
      // Smart case, as rg's --smart-case: only an upper-case letter makes the pattern case-sensitive.
      const caseSensitive = /\p{Lu}/u.test(pattern);
      const walked = caseSensitive ? pattern : withoutFixedFolders(pattern);
      found = await findNewestFiles(workspace, baseRel, walked, { ...walk, caseSensitive });
      addLiteralMatch(workspace, path.posix.join(baseRel, pattern), found, limits);
    } catch (error) {
      if (signal?.aborted) return fail("glob was cancelled");
      return fail(`glob pattern "${pattern}" could not be used: ${workspace.redact((error as Error).message)}`);
    }
    if (found.stopped === "cancelled") return fail("glob was cancelled");

    // 3. The files, and footers for what was cut or not searched.
    const where = folder.rel === "." ? "" : ` in ${escapePath(folder.rel)}`;
    const echoed = clipEcho(pattern); // as results quote it back
    const stoppedNote = `(glob stopped after ${GLOB_TIMEOUT_MS / 1000} s, so the list may be incomplete; use a narrower pattern or path)`;
    const most = formatCount(MAX_FOLDER_ENTRIES);
    const folders = found.cappedFolders === 1 ? "1 folder" : `${found.cappedFolders} folders`;
    const cappedNote = found.cappedFolders
      ? `(${folders} held more than ${most} entries; only the first ${most} of each were searched, so the list may be incomplete; use a narrower path)`
      : undefined;
    const facts = { total: found.total, capped: found.total > found.newest.length || !!found.stopped || !!cappedNote };
    if (found.total === 0) {
      if (found.stopped) return ok(`No files match "${echoed}"${where} so far.\n${stoppedNote}`, "stopped", facts);
      if (cappedNote)
        return ok(`No files match "${echoed}"${where} among the entries read.\n${cappedNote}`, "no files", facts);
      const escapeHint = SYNTAX_IN_NAMES.test(pattern)
        ? ` [ ] ( ) { } are pattern syntax; to match them in a name, put \\ before each, e.g. "app/\\[slug\\]/page.tsx".`
        : "";
      const note = await backslashHint(workspace, baseRel, pattern, walk);
      if (signal?.aborted) return fail("glob was cancelled");
      return ok(`No files match "${echoed}"${where}.${escapeHint}${note}`, "no files", facts);
    }
    const lines = found.newest.map((file) => escapeListed(file.rel));
    if (found.total > lines.length) {
      const which = limits.sort === "mtime" ? `${lines.length} newest` : `first ${lines.length}`;
      lines.push(`(showing the ${which} of ${found.total} files; use a narrower pattern or path to see others)`);
    }
    if (cappedNote) lines.push(cappedNote);
    if (found.stopped) lines.push(stoppedNote);
    return ok(lines.join("\n"), `${found.total} file${found.total === 1 ? "" : "s"}`, facts);
  },
};
