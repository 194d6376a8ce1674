// Grep's hit lines as the offline model reads them: parsing them, which files are code, tests or docs, which lines are imports or comments, and the regex helpers the searches share.

export interface Hit {
  path: string;
  line: number;
  text: string;
}

/** The hit lines of a grep result ("path:line:text"; context lines and footers are skipped). */
export function parseHits(grepOutput: string): Hit[] {
  return grepOutput.split("\n").flatMap((line) => {
    const match = /^(.+?):(\d+):(.*)$/.exec(line);
    return match ? [{ path: match[1], line: Number(match[2]), text: match[3] }] : [];
  });
}

const SOURCE_EXTENSIONS =
  "ts tsx mts cts js jsx mjs cjs py pyi go rs java kt kts scala c h cc cpp hpp cs rb php swift m sh lua dart ex exs".split(
    " ",
  );

/** Source files of the common languages: the include when the hits show no main language. */
const COMMON_SOURCE = "*.{py,ts,tsx,js,jsx,go,rs,java,c,h,cpp,rb}";

/** The file's extension, lower case ("" when it has none). */
export function extensionOf(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.includes(".") ? base.slice(base.lastIndexOf(".") + 1).toLowerCase() : "";
}

export function isSource(file: string): boolean {
  return SOURCE_EXTENSIONS.includes(extensionOf(file));
}

/** Tests, examples and build output rank below the code itself; docs and data below those. */
export function fileRank(file: string): number {
  if (!isSource(file)) return 2;
  if (/\.d\.[mc]?ts$/.test(file)) return 1; // a declaration file: the code is elsewhere when it is there at all
  if (/(^|\/)(tests?|__tests__|spec|examples?|build|dist)\/|[._-](test|spec)\.|(^|\/)test_/.test(file)) return 1;
  return 0;
}

/** The include glob that narrows a capped search: the source language most hits are in, else all source files. */
export function narrowingInclude(hits: Hit[]): string {
  const counts = new Map<string, number>();
  for (const hit of hits)
    if (isSource(hit.path)) counts.set(extensionOf(hit.path), (counts.get(extensionOf(hit.path)) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (top && top[1] * 2 > hits.length) return `*.${top[0]}`;
  return COMMON_SOURCE;
}

/** Whether a file name matches the simple include globs narrowingInclude makes ("*.ts", "*.{ts,py}"). */
export function matchesInclude(file: string, include: string): boolean {
  const extensions = include.replace(/^\*\.\{?|\}$/g, "").split(",");
  return extensions.includes(extensionOf(file));
}

/** Code first, then tests, then docs, grep's order (newest first) within each; imports and comments last in each. */
export function sortBySource(hits: Hit[]): Hit[] {
  const weight = (hit: Hit) => fileRank(hit.path) * 2 + (isImport(hit.text) || isComment(hit.text, hit.path) ? 1 : 0);
  return hits
    .map((hit, index) => ({ hit, index }))
    .sort((a, b) => weight(a.hit) - weight(b.hit) || a.index - b.index)
    .map(({ hit }) => hit);
}

/** Lines that bring a name in (import, from … import, use, require, re-export): never a definition, never a call. */
export function isImport(text: string): boolean {
  return /^\s*(import\b|from\s+\S+\s+import\b|use\s|#include\b|export\s+(?:type\s+)?\{[^}]*\}\s*from\b|export\s+\*)|\brequire\(/.test(
    text,
  );
}

/**
 * Comment lines: a mention, not a use. A line starting with `*` is a comment only as `/*` or a block
 * comment's ` * ` continuation, and never in Python, where `*args` starts a call's line.
 */
export function isComment(text: string, file = ""): boolean {
  if (/^\s*\*(?!\s|\/|$)/.test(text) || (extensionOf(file) === "py" && /^\s*\*/.test(text))) return false;
  return /^\s*(\/\/|#(?!include|define)|\/?\*|--|"""|''')/.test(text);
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `name` as a whole word: a word boundary before it, and after it unless `followedBy` says what
 * comes next. The \b goes only beside a word character: beside `$` or `.` it would ask for a letter there.
 */
export function wholeWord(name: string, followedBy?: string): string {
  const start = /^\w/.test(name) ? "\\b" : "";
  const end = followedBy ?? (/\w$/.test(name) ? "\\b" : "");
  return `${start}${escapeRegex(name)}${end}`;
}

/** A word as a search stem: lower case, without a common ending ("loaded" → "load"). */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 5) return escapeRegex(lower);
  // "loaded" → "load", "passes" → "pass", "states" → "state"; "express" and "class" keep their double s.
  return escapeRegex(lower.replace(/(ing|ed)$|(?<=(?:s|x|z|ch|sh))es$|(?<!s)s$/, ""));
}
