// What a definition looks like, line by line, in the common languages: the grep pattern the offline model searches with, and the check that ranks what it finds.
//
// The pattern is a Rust regex for rg and also valid JavaScript, so the line rg found is judged by the same forms.

/** Words that may come before the keyword: `export default`, `pub(crate)`, `public static`, `async` … */
const MODIFIERS =
  "export|default|declare|public|private|protected|internal|static|abstract|async|final|readonly|override|" +
  "pub(?:\\([\\w:]+\\))?|unsafe|extern|sealed|open|data|inline|virtual|const";
/** The keyword that introduces a definition in TS/JS, Python, Go, Rust, Java, Kotlin, C … */
const SEARCH_KEYWORDS =
  "class|interface|type|enum|struct|trait|def|function|func|fn|const|let|var|val|namespace|module|define";
const KEYWORDS = `${SEARCH_KEYWORDS}|function\\*`;
/** Method modifiers in a class body (TypeScript, Java). */
const MEMBER_MODIFIERS = "public|private|protected|static|async|readonly|abstract|override|get|set|declare";
/** Words that start a statement, not a definition: `return foo(x)` at column 0 is a call. */
const STATEMENT_WORDS = new Set(
  "return await assert print raise yield throw new delete typeof void else if while for switch case echo del not and or in go defer".split(
    " ",
  ),
);

export type Tier = 1 | 2 | 3;

/**
 * The forms, strongest first. Tier 1: top level (keyword at column 0, `export …`, `NAME = …`,
 * `#define`); tier 2: a keyword form indented (a method, a nested function); tier 3: a class
 * member without a keyword (`name(args) {`, `name: Type;`, `name = value` with spaces).
 */
function forms(name: string): { tier: Tier; source: string }[] {
  const n = escapeRegex(name);
  return [
    { tier: 1, source: `^(?:(?:${MODIFIERS})\\s+)*(?:${KEYWORDS})\\s+\\*?${n}\\b` },
    { tier: 1, source: `^\\s*export\\s+(?:(?:${MODIFIERS})\\s+)*(?:${KEYWORDS})\\s+\\*?${n}\\b` },
    { tier: 1, source: `^(?:module\\.)?(?:exports\\.)?${n}\\s*(?::[^=]*)?=(?:[^=>]|$)` },
    { tier: 1, source: `^#\\s*define\\s+${n}\\b` },
    { tier: 1, source: `^func\\s*\\([^)]*\\)\\s*${n}\\b` },
    { tier: 1, source: `^[A-Za-z_][\\w<>*, ]*[\\s*]${n}\\s*\\([^;]*$` },
    { tier: 2, source: `^\\s+(?:@\\w+\\s+)?(?:(?:${MODIFIERS})\\s+)*(?:${KEYWORDS})\\s+\\*?${n}\\b` },
    {
      tier: 2,
      source: `^\\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native)\\s+)+[\\w<>\\[\\],.? ]*\\b${n}\\s*\\(`,
    },
    {
      tier: 3,
      source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*\\*?${n}\\??\\s*(?:<[^>]*>)?\\([^()]*\\)\\s*(?::[^{;]*)?\\{\\s*$`,
    },
    // A signature without a body (interface, overload, declaration file) has a return type: `f(x);` alone is a call.
    { tier: 3, source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}\\??\\s*(?:<[^>]*>)?\\([^()]*\\)\\s*:[^{;]*;\\s*$` },
    { tier: 3, source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}[?!]?\\s*:\\s*[^,=;]+;\\s*$` },
    { tier: 3, source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}[?!]?\\s*(?::[^=]+)?\\s=\\s` },
    { tier: 3, source: `^\\s+${n}\\s*:=` },
  ];
}

/**
 * One grep pattern that finds every definition form of `name` (and a few lines that are not:
 * `definitionTier` sorts them out): a keyword before the name, words or types before the name
 * and then `=`, `:`, `(` or `<` after it, or a Go method.
 */
export function definitionPattern(name: string): string {
  const n = escapeRegex(name);
  return `\\b(?:${SEARCH_KEYWORDS})\\s+\\*?${n}\\b|^\\s*(?:[\\w<>\\[\\],.?]+\\s+)*\\*?${n}\\s*[?!=:(<]|^func\\s*\\([^)]*\\)\\s*${n}\\b`;
}

/** The narrower search when the first one was capped: top-level forms only (column 0). */
export function topLevelPattern(name: string): string {
  const n = escapeRegex(name);
  return `^(?:\\w+\\s+)*(?:${SEARCH_KEYWORDS})\\s+\\*?${n}\\b|^${n}\\s*[=:]|^func\\s*\\([^)]*\\)\\s*${n}\\b`;
}

/** The tier of the strongest form `text` matches as a definition of `name`, or null for a use, an import, a call. */
export function definitionTier(text: string, name: string): Tier | null {
  const firstWord = /^\s*([A-Za-z_]+)/.exec(text)?.[1] ?? "";
  if (STATEMENT_WORDS.has(firstWord)) return null;
  if (/^\s*type\s+[\w$]+(\s+as\s+[\w$]+)?,?\s*$/.test(text)) return null; // an entry of an import or export { … } list
  for (const form of compiledForms(name)) if (form.regex.test(text)) return form.tier;
  return null;
}

/** The last name's forms, compiled: definitionTier is asked about one name for every hit of a search in a row. */
let compiled: { name: string; forms: { tier: Tier; regex: RegExp }[] } | undefined;

function compiledForms(name: string): { tier: Tier; regex: RegExp }[] {
  if (compiled?.name !== name)
    compiled = { name, forms: forms(name).map(({ tier, source }) => ({ tier, regex: new RegExp(source) })) };
  return compiled.forms;
}

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

export interface Definition extends Hit {
  tier: Tier;
}

/** The hits that define `name`, best first: code before tests and docs, top level before members, then grep's order. */
export function rankDefinitions(hits: Hit[], name: string): Definition[] {
  const found = hits.flatMap((hit) => {
    const tier = definitionTier(hit.text, name);
    return tier ? [{ ...hit, tier }] : [];
  });
  return found
    .map((d, index) => ({ d, index }))
    .sort((a, b) => definitionRank(a.d) - definitionRank(b.d) || a.index - b.index)
    .map(({ d }) => d);
}

/** How good a definition is, lower first: the file's rank, then the form's tier. */
export function definitionRank(d: Definition): number {
  return fileRank(d.path) * 10 + d.tier;
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
  const weight = (hit: Hit) => fileRank(hit.path) * 2 + (isImport(hit.text) || isComment(hit.text) ? 1 : 0);
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

/** Comment lines: a mention, not a use. */
export function isComment(text: string): boolean {
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

/** Whether grep said it stopped at its cap. */
export function isCapped(result: string): boolean {
  return /more matches exist/.test(result);
}

/** A word as a search stem: lower case, without a common ending ("loaded" → "load"). */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  return escapeRegex(lower.length > 5 ? lower.replace(/(ing|ed|es|s)$/, "") : lower);
}
