// The folders a glob pattern names and the names it matches literally: fixed leading folders are checked like
// paths and never entered through a symlink, smart case reaches them too, a pattern that names an existing
// file ("app/[slug]/page.tsx") finds it, and "src\*.ts" gets a hint that "/" is the separator.
import path from "node:path";
import { escapePath } from "./escape.js";
import { addFoundFile, type FoundFiles, findNewestFiles } from "./file-walk.js";
import type { ResultLimits } from "./newest-first.js";
import { BACKSLASH_RULE, checkPattern, checkPatternComplexity, fastGlob } from "./patterns.js";
import type { WorkspaceView as Workspace } from "./workspace-view.js";

/**
 * The hint a pattern with "\" gets when it matched nothing: "sub\*.md" is "sub*.md" to fast-glob ("\"
 * escapes); a model used to Windows meant "sub/*.md". That pattern was never checked: it is walked only if it
 * passes the same checks, and stops as the call does.
 */
export async function backslashHint(
  workspace: Workspace,
  baseRel: string,
  pattern: string,
  walk: { limits: ResultLimits; signal?: AbortSignal; deadline: number },
): Promise<string> {
  if (!pattern.includes("\\")) return "";
  const forward = pattern.replace(/\\+/g, "/");
  const refused =
    checkPattern(forward) ?? checkPatternComplexity(forward) ?? fixedFolderProblem(workspace, baseRel, forward);
  const alternative = refused
    ? undefined
    : await findNewestFiles(workspace, baseRel, forward, walk).catch(() => undefined);
  // A walk stopped early has a partial count: no suggestion then.
  const matches = alternative && !alternative.stopped ? alternative.total : 0;
  const hint = matches ? ` Did you mean "${forward}"? It matches ${matches} file(s).` : "";
  return ` ${BACKSLASH_RULE}${hint}`;
}

/**
 * A pattern that names an existing file literally finds it, although its
 * "[slug]" or "(group)" reads as pattern syntax: the file is added when it is
 * a visible regular file, reached through no symlink.
 */
export function addLiteralMatch(workspace: Workspace, rel: string, found: FoundFiles, limits: ResultLimits): void {
  if (!fastGlob().isDynamicPattern(rel) || found.newest.some((file) => file.rel === rel)) return;
  const resolved = workspace.resolveInWorkspace(rel);
  if (!resolved.ok || workspace.toRelative(resolved.abs) !== rel || !workspace.isVisible(rel)) return;
  addFoundFile(found, { rel, abs: resolved.abs }, limits);
}

/**
 * Why a pattern's fixed leading folders ("link/" in "link/*") cannot be
 * walked, or null: fast-glob opens them directly, and would follow a symlink
 * there, so each is checked like a path, and must not be a symlink.
 */
export function fixedFolderProblem(workspace: Workspace, baseRel: string, pattern: string): string | null {
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
export function withoutFixedFolders(written: string): string {
  // Tidied first, as a fixed folder would be: "./src//*.ts" is "src/*.ts".
  const pattern = written.replace(/\/{2,}/g, "/").replace(/(^|\/)(\.\/)+/g, "$1");
  const firstLetter = /^[^*?[\]{}()!+@\\]*?(\p{L})/u.exec(pattern);
  if (!firstLetter) return pattern; // pattern syntax comes first: nothing fixed has a case
  const at = firstLetter[0].length - firstLetter[1].length;
  return `${pattern.slice(0, at)}[${firstLetter[1]}]${pattern.slice(at + firstLetter[1].length)}`;
}
