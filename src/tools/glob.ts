// glob: find files by name pattern with fast-glob, newest first.
import path from "node:path";
import type { Workspace } from "../workspace/workspace.js";
import { escapeListed, escapePath } from "../escape.js";
import { MAX_FOLDER_ENTRIES } from "./folder-entries.js";
import { addFoundFile, type FoundFiles, findNewestFiles } from "./newest-first.js";
import { BACKSLASH_RULE, checkPattern, checkPatternComplexity, fastGlob, MAX_PATTERN_CHARS } from "./patterns.js";
import { resolveSearchRoot } from "./search-path.js";
import {
  clipEcho,
  DEFAULT_DESIGN,
  fail,
  groupThousands,
  ok,
  orderOf,
  SMART_CASE,
  type Tool,
  type ToolDesign,
} from "./tool.js";

/** A glob call stops after this long, as grep's rg does, and says so. */
export const GLOB_TIMEOUT_MS = 10_000;
/** Characters fast-glob reads as pattern syntax that real folder names also hold (Next.js "[slug]", "(marketing)"). */
const SYNTAX_IN_NAMES = /[[\](){}]/;

interface Args {
  pattern: string;
  path?: string;
}

/** glob as a given design makes it (Scout's own: DEFAULT_DESIGN). */
export function makeGlob(design: ToolDesign = DEFAULT_DESIGN): Tool<Args> {
  const { cap } = design;
  const description = {
    full:
      `Find files (not directories) whose path matches a glob pattern, e.g. "**/*.ts" or "src/**/test_*.py". ` +
      `Results are sorted ${design.sort === "mtime" ? "by modification time, newest first" : "by path"}, at most ${cap}; ` +
      `ignored files (.gitignore, .ignore, node_modules) and protected files are not listed. ` +
      `${SMART_CASE} ` +
      `Escape [ ] ( ) { } with \\ to match them literally. ` +
      `Pattern up to ${groupThousands(MAX_PATTERN_CHARS)} characters; reads ${groupThousands(MAX_FOLDER_ENTRIES)} entries a folder and ${GLOB_TIMEOUT_MS / 1000} s at most. ` +
      `Use it to locate files by name; use grep to search their contents.`,
    concise: `Find files by glob pattern (e.g. "**/*.ts"; smart case), ${orderOf(design)}, at most ${cap}.`,
  }[design.descriptions];
  return {
    name: "glob",
    description,
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

    async run({ pattern, path: input = "." }, { workspace, signal }) {
      const problem = checkPattern(pattern) ?? checkPatternComplexity(pattern);
      if (problem) return fail(problem);
      const resolved = resolveSearchRoot(workspace, input, { filesAllowed: false });
      if ("error" in resolved) return fail(resolved.error);
      // A symlink given as path is searched where it points, as grep does, so each file is
      // judged (and shown) under its real path: the ignore rules are written for that one.
      const baseRel = resolved.realRel;
      const folderProblem = fixedFolderProblem(workspace, baseRel, pattern);
      if (folderProblem) return fail(folderProblem);

      let found: FoundFiles;
      const deadline = Date.now() + GLOB_TIMEOUT_MS;
      try {
        // Smart case, as rg's --smart-case: only an upper-case letter makes the pattern case-sensitive.
        const caseSensitive = /\p{Lu}/u.test(pattern);
        const walked = caseSensitive ? pattern : withoutFixedFolders(pattern);
        found = await findNewestFiles(workspace, baseRel, walked, { design, caseSensitive, signal, deadline });
        addLiteralMatch(workspace, path.posix.join(baseRel, pattern), found, design);
      } catch (error) {
        if (signal?.aborted) return fail("glob was cancelled");
        return fail(`glob pattern "${pattern}" could not be used: ${workspace.redact((error as Error).message)}`);
      }
      // "sub\*.md" is "sub*.md" to fast-glob ("\" escapes); a model used to Windows meant "sub/*.md". That
      // pattern was never checked: it is walked only if it passes the same checks, and stops as this call does.
      const backslashNote = async () => {
        if (!pattern.includes("\\")) return "";
        const forward = pattern.replace(/\\+/g, "/");
        const refused =
          checkPattern(forward) ?? checkPatternComplexity(forward) ?? fixedFolderProblem(workspace, baseRel, forward);
        const alternative = refused
          ? undefined
          : await findNewestFiles(workspace, baseRel, forward, { design, signal, deadline }).catch(() => undefined);
        // A walk stopped early has a partial count: no suggestion then.
        const matches = alternative && !alternative.stopped ? alternative.total : 0;
        const hint = matches ? ` Did you mean "${forward}"? It matches ${matches} file(s).` : "";
        return ` ${BACKSLASH_RULE}${hint}`;
      };
      const where = resolved.rel === "." ? "" : ` in ${escapePath(resolved.rel)}`;
      const echoed = clipEcho(pattern); // as results quote it back
      if (found.stopped === "cancelled") return fail("glob was cancelled");
      const stoppedNote = `(glob stopped after ${GLOB_TIMEOUT_MS / 1000} s, so the list may be incomplete; use a narrower pattern or path)`;
      const cappedNote = found.cappedFolders
        ? `(${found.cappedFolders} folder${found.cappedFolders === 1 ? "" : "s"} held more than ${groupThousands(MAX_FOLDER_ENTRIES)} entries; only the first ${groupThousands(MAX_FOLDER_ENTRIES)} of each were searched, so the list may be incomplete; use a narrower path)`
        : undefined;
      if (found.total === 0) {
        if (found.stopped) return ok(`No files match "${echoed}"${where} so far.\n${stoppedNote}`, "stopped");
        if (cappedNote)
          return ok(`No files match "${echoed}"${where} among the entries read.\n${cappedNote}`, "no files");
        const escapeHint = SYNTAX_IN_NAMES.test(pattern)
          ? ` [ ] ( ) { } are pattern syntax; to match them in a name, put \\ before each, e.g. "app/\\[slug\\]/page.tsx".`
          : "";
        const note = await backslashNote();
        if (signal?.aborted) return fail("glob was cancelled");
        return ok(`No files match "${echoed}"${where}.${escapeHint}${note}`, "no files");
      }

      const lines = found.newest.map((file) => escapeListed(file.rel));
      if (found.total > lines.length) {
        lines.push(
          `(showing the ${design.sort === "mtime" ? `${lines.length} newest` : `first ${lines.length}`} of ${found.total} files; use a narrower pattern or path to see others)`,
        );
      }
      if (cappedNote) lines.push(cappedNote);
      if (found.stopped) lines.push(stoppedNote);
      const summary = `${found.total} file${found.total === 1 ? "" : "s"}`;
      return ok(lines.join("\n"), summary);
    },
  };
}

export const glob = makeGlob();

/**
 * A pattern that names an existing file literally finds it, although its
 * "[slug]" or "(group)" reads as pattern syntax: the file is added when it is
 * a visible regular file, reached through no symlink.
 */
function addLiteralMatch(workspace: Workspace, rel: string, found: FoundFiles, design: ToolDesign): void {
  if (!fastGlob().isDynamicPattern(rel) || found.newest.some((file) => file.rel === rel)) return;
  const resolved = workspace.resolveInWorkspace(rel);
  if (!resolved.ok || workspace.toRelative(resolved.abs) !== rel || !workspace.isVisible(rel)) return;
  addFoundFile(found, { rel, abs: resolved.abs }, design);
}

/**
 * Why a pattern's fixed leading folders ("link/" in "link/*") cannot be
 * walked, or null: fast-glob opens them directly, and would follow a symlink
 * there, so each is checked like a path, and must not be a symlink.
 */
function fixedFolderProblem(workspace: Workspace, baseRel: string, pattern: string): string | null {
  for (const { base } of fastGlob().generateTasks(pattern)) {
    // fast-glob keeps some escapes in the base ("\@\(x\)/*" has base "\@(x)"): the folder meant is "@(x)".
    const folder = workspace.resolveInWorkspace(path.posix.join(baseRel, unescaped(base)), "the folder in pattern");
    if (!folder.ok) return folder.error;
    const real = workspace.toRelative(folder.abs);
    if (real !== folder.rel) {
      return `the folder in pattern "${escapePath(folder.rel)}" goes through a symlink (it is "${escapePath(real)}"); glob does not follow symlinks, so write "${escapePath(real)}" in the pattern`;
    }
  }
  return null;
}

/** A pattern's fixed text as the name it means: each "\" escape dropped ("\@(x)" is "@(x)"). */
function unescaped(base: string): string {
  return base.replace(/\\(.)/gs, "$1");
}

/**
 * fast-glob opens a pattern's fixed leading folders ("docs/" in "docs/*.md")
 * by name, which finds "docs" but not "Docs", whatever the case rule. Writing
 * the first letter as a one-letter class ("[d]ocs/*.md") means the same and
 * makes every folder a match, so smart case reaches folders too.
 */
function withoutFixedFolders(written: string): string {
  // Tidied first, as a fixed folder would be: "./src//*.ts" is "src/*.ts".
  const pattern = written.replace(/\/{2,}/g, "/").replace(/(^|\/)(\.\/)+/g, "$1");
  const firstLetter = /^[^*?[\]{}()!+@\\]*?(\p{L})/u.exec(pattern);
  if (!firstLetter) return pattern; // pattern syntax comes first: nothing fixed has a case
  const at = firstLetter[0].length - firstLetter[1].length;
  return `${pattern.slice(0, at)}[${firstLetter[1]}]${pattern.slice(at + firstLetter[1].length)}`;
}
