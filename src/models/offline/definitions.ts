// What a definition looks like, line by line, in the common languages: the grep pattern the offline model searches with, and the check that ranks what it finds.
//
// The pattern is a Rust regex for rg and also valid JavaScript, so the line rg found is judged by the same forms.
import { escapeRegex, extensionOf, fileRank, type Hit, isImport } from "./hits.js";

export * from "./hits.js";

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

/** A function as a value: what `obj.name = …` or a helper call must assign for the line to define `name`. */
const FUNCTION_VALUE = "(?:function\\b|async\\b|class\\b|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>)";
/** Helpers that define a name given as a string: `defineGetter(req, 'host', …)`, `Assertion.addMethod('closeTo', …)`. */
const DEFINING_HELPER = "(?:[\\w$]+\\.)*(?:add|define|def|register)[\\w$]*";

/**
 * The forms, strongest first. Tier 1: top level (keyword at column 0, `export …`, `NAME = …`,
 * `exports.name =`, `X.prototype.name =`, `macro_rules!`, `#define`); tier 2: a keyword form indented (a
 * method, a nested function), a Rust impl block, a Go constant in a `const (` block; tier 3: a class member
 * without a keyword (`name(args) {`, `name: Type`, `name = value` with spaces), a Go struct field, a name
 * a helper call defines. Which forms apply depends on the file's language: Go has no `name = value`
 * definitions outside const and var blocks (one in a test function or a raw string is an assignment or
 * text), and prose has no C-style signatures.
 */
function forms(name: string, language: Language): { tier: Tier; source: string }[] {
  const n = escapeRegex(name);
  const keyword = [
    { tier: 1 as Tier, source: `^(?:(?:${MODIFIERS})\\s+)*(?:${KEYWORDS})\\s+\\*?${n}\\b` },
    { tier: 1 as Tier, source: `^\\s*export\\s+(?:(?:${MODIFIERS})\\s+)*(?:${KEYWORDS})\\s+\\*?${n}\\b` },
    { tier: 2 as Tier, source: `^\\s+(?:@\\w+\\s+)?(?:(?:${MODIFIERS})\\s+)*(?:${KEYWORDS})\\s+\\*?${n}\\b` },
  ];
  const assignment = {
    tier: 1 as Tier,
    source: `^(?:module\\.)?(?:exports\\.)?${n}\\s*(?::[^=]*)?=(?:[^=>]|$)`,
  };
  // Prose: a keyword form (in a code sample) or `NAME = value` at column 0, never a call's shape.
  if (language === "prose") return [...keyword, assignment];
  if (language === "go")
    return [
      ...keyword,
      { tier: 1, source: `^func\\s*\\([^)]*\\)\\s*${n}\\b` },
      // In a const or var block: `Name Type = value`, `Name = iota`, or a bare `Name` that repeats the one above.
      { tier: 2, source: `^\\t${n}\\s+[\\w.*\\[\\]]+\\s*=|^\\t${n}\\s*=\\s*iota\\b` },
      ...(/^[A-Z]/.test(name) ? [{ tier: 2 as Tier, source: `^\\t${n}\\s*(?://.*)?$` }] : []),
      // A struct field: `\tName Type` with nothing assigned (in a function body that is not Go).
      {
        tier: 3,
        source: `^\\t+${n}(?:\\s*,\\s*\\w+)*\\s+(?:[*\\[\\]]|map\\[|func\\(|chan\\s|[A-Za-z_][\\w.]*)[^=:]*$`,
      },
      { tier: 3, source: `^\\s+${n}(?:\\s*,\\s*\\w+)*\\s*:=` },
    ];
  const shared = [
    ...keyword.slice(0, 2),
    assignment,
    { tier: 1 as Tier, source: `^(?:[\\w$]+\\.prototype|[\\w$]+(?:\\.[\\w$]+)*)\\.${n}\\s*=\\s*${FUNCTION_VALUE}` },
    { tier: 1 as Tier, source: `^[\\w$]+\\.prototype\\.${n}\\s*=(?!=)` },
    { tier: 1 as Tier, source: `^macro_rules!\\s*${n}\\b` },
    { tier: 1 as Tier, source: `^#\\s*define\\s+${n}\\b` },
    { tier: 1 as Tier, source: `^[A-Za-z_][\\w<>*, ]*[\\s*]${n}\\s*\\([^;]*$` },
    keyword[2],
    // Rust: `impl Name`, `impl Trait for Name`, `impl Name for Type`.
    {
      tier: 2 as Tier,
      source: `^\\s*impl(?:<[^>]*>)?\\s+(?:(?:[\\w:]+(?:<[^>]*>)?)\\s+for\\s+)?(?:[\\w]+::)*${n}\\b|^\\s*impl(?:<[^>]*>)?\\s+(?:[\\w]+::)*${n}\\b.*\\bfor\\b`,
    },
    {
      tier: 2 as Tier,
      source: `^\\s*(?:(?:public|private|protected|static|final|abstract|synchronized|native)\\s+)+[\\w<>\\[\\],.? ]*\\b${n}\\s*\\(`,
    },
    {
      tier: 3 as Tier,
      source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*\\*?${n}\\??\\s*(?:<[^>]*>)?\\([^()]*\\)\\s*(?::[^{;]*)?\\{\\s*$`,
    },
    // A signature without a body (interface, overload, declaration file) has a return type: `f(x);` alone is a call.
    {
      tier: 3 as Tier,
      source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}\\??\\s*(?:<[^>]*>)?\\([^()]*\\)\\s*:[^{;=]*;?\\s*$`,
    },
    // A multi-line signature: `static fromSourceMap(` with the parameters below.
    { tier: 3 as Tier, source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)+${n}\\??\\s*(?:<[^>]*>)?\\(\\s*$` },
    { tier: 3 as Tier, source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}[?!]?\\s*:\\s*[^,=;]+;\\s*$` },
    { tier: 3 as Tier, source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}[?!]?\\s*(?::[^=]+)?\\s=\\s` },
    { tier: 3 as Tier, source: `^\\s+${n}\\s*:=` },
    { tier: 3 as Tier, source: `^\\s+[\\w$]+(?:\\.[\\w$]+)*\\.${n}\\s*=\\s*${FUNCTION_VALUE}` },
    {
      tier: 3 as Tier,
      source: `^\\s*${DEFINING_HELPER}\\(\\s*(?:[\\w$.]+\\s*,\\s*)?['"]${n}['"]\\s*,|^\\s*[\\w$.]+\\(\\s*(?:[\\w$.]+\\s*,\\s*)?['"]${n}['"]\\s*,\\s*${FUNCTION_VALUE}`,
    },
  ];
  // TypeScript members may go without semicolons: `getState(): S`, `createdAt: number`.
  if (language === "typescript")
    shared.push({
      tier: 3,
      source: `^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}[?!]?\\s*:\\s*[^,=;{}()]+$|^\\s+(?:(?:${MEMBER_MODIFIERS})\\s+)*${n}[?!]?\\s*:\\s*\\([^)]*\\)\\s*=>.*[^,;]$`,
    });
  return shared;
}

/** What decides which definition forms a file can hold. */
type Language = "go" | "typescript" | "prose" | "other";

function languageOf(file: string): Language {
  const extension = extensionOf(file);
  if (extension === "go") return "go";
  if (/^[mc]?tsx?$/.test(extension)) return "typescript";
  if (/^(md|markdown|txt|rst|adoc)$/.test(extension)) return "prose";
  return "other";
}

/**
 * One grep pattern that finds every definition form of `name` (and a few lines that are not:
 * `definitionTier` sorts them out): a keyword before the name, words or types before the name
 * and then `=`, `:`, `(` or `<` after it, a member assignment (`exports.name =`), a Go method or
 * field, a Rust macro or impl, a helper call with the name as a string.
 */
export function definitionPattern(name: string): string {
  const n = escapeRegex(name);
  return (
    `\\b(?:${SEARCH_KEYWORDS})\\s+\\*?${n}\\b|^\\s*(?:[\\w<>\\[\\],.?]+\\s+)*\\*?${n}\\s*[?!=:(<]|^func\\s*\\([^)]*\\)\\s*${n}\\b` +
    `|^\\s*(?:[\\w$]+\\.)+${n}\\s*=|macro_rules!\\s*${n}\\b|^\\s*impl\\b.*\\b${n}\\b|^\\t+${n}\\b|\\(\\s*(?:[\\w$.]+\\s*,\\s*)?['"]${n}['"]\\s*,`
  );
}

/** The narrower search when the first one was capped: top-level forms only (column 0). */
export function topLevelPattern(name: string): string {
  const n = escapeRegex(name);
  return `^(?:\\w+\\s+)*(?:${SEARCH_KEYWORDS})\\s+\\*?${n}\\b|^${n}\\s*[=:]|^func\\s*\\([^)]*\\)\\s*${n}\\b|^(?:[\\w$]+\\.)+${n}\\s*=|^macro_rules!\\s*${n}\\b`;
}

/**
 * The tier of the strongest form `text` matches as a definition of `name` in `file`, or null for a
 * use, an import (`var x = require(…)` included), a call.
 */
export function definitionTier(text: string, name: string, file = ""): Tier | null {
  const firstWord = /^\s*([A-Za-z_]+)/.exec(text)?.[1] ?? "";
  if (STATEMENT_WORDS.has(firstWord) || isImport(text)) return null;
  if (/^\s*type\s+[\w$]+(\s+as\s+[\w$]+)?,?\s*$/.test(text)) return null; // an entry of an import or export { … } list
  for (const form of compiledForms(name, languageOf(file))) if (form.regex.test(text)) return form.tier;
  return null;
}

/** The last name's forms, compiled: definitionTier is asked about one name for every hit of a search in a row. */
const compiled = new Map<string, { tier: Tier; regex: RegExp }[]>();

function compiledForms(name: string, language: Language): { tier: Tier; regex: RegExp }[] {
  const key = `${language} ${name}`;
  if (!compiled.has(key)) {
    if (compiled.size > 64) compiled.clear();
    compiled.set(
      key,
      forms(name, language).map(({ tier, source }) => ({ tier, regex: new RegExp(source) })),
    );
  }
  return compiled.get(key)!;
}

export interface Definition extends Hit {
  tier: Tier;
}

/** The hits that define `name`, best first: code before tests and docs, top level before members, then grep's order. */
export function rankDefinitions(hits: Hit[], name: string): Definition[] {
  const found = hits.flatMap((hit) => {
    const tier = definitionTier(hit.text, name, hit.path);
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
