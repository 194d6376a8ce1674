// Writes the offline model's answers from what the tools returned: quotes only lines a tool really showed, and says plainly what failed.
import {
  type Definition,
  definitionTier,
  escapeRegex,
  fileRank,
  type Hit,
  isComment,
  isImport,
  isSource,
} from "./definitions.js";
import { type Exchange, foundNothing } from "./exchange.js";

/** How many files or entries an answer lists. */
export const MAX_LISTED = 10;
/** How many line numbers one file's row of call sites lists. */
const MAX_LINES_PER_FILE = 12;

/** A read_file result, or the error it gave. */
export interface Read {
  result: string;
  isError: boolean;
  /** The first line the read asked for: the window's lines are numbered from it when read_file shows no numbers. */
  offset?: number;
}

/** "`X` is defined at path:line:" and the lines around it from the window read, for each definition read. */
export function definitionAnswer(
  name: string,
  read: { definition: Definition; window: Read }[],
  others: Definition[],
  capped: boolean,
): string {
  const parts = read.map(({ definition, window }, index) => {
    const where = `${definition.path}:${definition.line}`;
    const heading = index === 0 ? `\`${name}\` is defined at ${where}` : `It is also defined at ${where}`;
    const quote = window.isError ? [] : quoteAround(window.result, definition.line, window.offset);
    if (quote.length === 0) {
      // Never an empty quote: grep's own line is evidence too, and the reason the window is missing is said.
      const why = window.isError
        ? `read_file could not show the lines around it: ${window.result.replace(/^Error: /, "")}`
        : "the file no longer has that line";
      return `${heading}: \`${definition.text.trim()}\` (${why}).`;
    }
    return [`${heading}:`, "", ...quote].join("\n");
  });
  if (others.length) {
    const listed = others.slice(0, 3).map((d) => `${d.path}:${d.line}`);
    const more = others.length > listed.length ? ` and ${others.length - listed.length} more` : "";
    parts.push(`Other lines that define it: ${listed.join(", ")}${more}.`);
  }
  if (capped) parts.push("(grep stopped at its cap, so there may be definitions it did not show.)");
  return parts.join("\n\n");
}

/**
 * The window's lines from one before the line to three after, indented as a quote. Without line numbers
 * (line-numbers=off), the window's lines are counted from the offset asked for.
 */
function quoteAround(window: string, line: number, offset?: number): string[] {
  const lines = window.split("\n");
  if (offset !== undefined && !lines.some((text) => /^\s*\d+\t/.test(text))) {
    const body = lines.filter((text) => !/^\(.*\)$/.test(text)); // read_file's footer, "(lines 5-19 of 40 …)"
    if (line - offset >= body.length) return [];
    return body.slice(Math.max(0, line - 1 - offset), line + 3 - offset + 1).map((text) => `    ${text}`);
  }
  const numbered = lines.filter((text) => /^\s*\d+\t/.test(text));
  if (!numbered.some((text) => Number(/^\s*(\d+)\t/.exec(text)![1]) === line)) return [];
  return numbered
    .filter((text) => {
      const number = Number(/^\s*(\d+)\t/.exec(text)![1]);
      return number >= line - 1 && number <= line + 3;
    })
    .map((text) => `    ${text}`);
}

/**
 * Call sites (or uses) grouped by file with a count; the definition, imports, comments and
 * lines in docs are set apart, not counted. `capped` says the grep stopped at its cap.
 */
export function usageAnswer(name: string, hits: Hit[], callsOnly: boolean, capped: boolean): string {
  // Each line is one kind, decided once, so the counts add up.
  const kindOf = (hit: Hit) =>
    definitionTier(hit.text, name, hit.path) !== null
      ? "definition"
      : isImport(hit.text)
        ? "import"
        : isComment(hit.text, hit.path) || fileRank(hit.path) >= 2
          ? "elsewhere"
          : "site";
  const kinds = hits.map((hit) => ({ hit, kind: kindOf(hit) }));
  const definitions = kinds.filter((k) => k.kind === "definition").map((k) => k.hit);
  const imports = kinds.filter((k) => k.kind === "import").length;
  const elsewhere = kinds.filter((k) => k.kind === "elsewhere").length;
  const sites = kinds.filter((k) => k.kind === "site").map((k) => k.hit);
  const verb = callsOnly ? "called" : "used";
  const notCounted = [
    definitions.length ? `the definition at ${definitions.map((d) => `${d.path}:${d.line}`).join(", ")}` : "",
    imports ? `${imports} import${imports === 1 ? "" : "s"}` : "",
    elsewhere ? `${elsewhere} line${elsewhere === 1 ? "" : "s"} in comments or docs` : "",
  ].filter(Boolean);
  const footer = notCounted.length ? [`Not counted: ${notCounted.join("; ")}.`] : [];
  if (sites.length === 0) {
    const outside = callsOnly && definitions.length ? ` (no \`${name}(\` outside its definition)` : "";
    return [`I found no line where \`${name}\` is ${verb}${outside}.`, ...footer].join("\n");
  }
  const byFile = new Map<string, number[]>();
  for (const site of sites) byFile.set(site.path, [...(byFile.get(site.path) ?? []), site.line]);
  // One row per file, citing path:line and then the other lines of that file: "- src/a.py:10, 14 (2)".
  const rows = [...byFile].slice(0, MAX_LISTED).map(([file, lines]) => {
    const shown = lines.slice(0, MAX_LINES_PER_FILE).join(", ");
    return `- ${file}:${shown}${lines.length > MAX_LINES_PER_FILE ? ", …" : ""} (${lines.length})`;
  });
  if (byFile.size > MAX_LISTED) rows.push(`- … and ${byFile.size - MAX_LISTED} more files`);
  // Two calls on one line are two calls: counted on the line, said with the lines when they differ.
  const each = callsOnly ? new RegExp(`(?:^|[^\\w$])${escapeRegex(name)}\\s*\\(`, "g") : null;
  const times = each
    ? sites.reduce((sum, site) => sum + Math.max(1, site.text.match(each)?.length ?? 0), 0)
    : sites.length;
  const onLines = times === sites.length ? "" : ` on ${sites.length} line${sites.length === 1 ? "" : "s"}`;
  const count = `${capped ? "at least " : ""}${times} time${times === 1 ? "" : "s"}${onLines} in ${byFile.size} file${byFile.size === 1 ? "" : "s"}`;
  const cap = capped ? ["(grep stopped at its cap, so there are more.)"] : [];
  return [`\`${name}\` is ${verb} ${count}:`, ...rows, ...cap, ...footer].join("\n");
}

/** Lines that mention the words: where each is, quoted from grep. */
export function mentionAnswer(what: string, hits: Hit[], note: string): string {
  const shown = hits.slice(0, MAX_LISTED).map((hit) => `- ${hit.path}:${hit.line}: ${unclipped(hit.text).trim()}`);
  const more = hits.length > shown.length ? [`- … and ${hits.length - shown.length} more`] : [];
  return [`${note}${what} appears at:`, ...shown, ...more].join("\n");
}

/** A glob or list_files result as a list, with the tool's own footer kept. */
export function listAnswer(heading: string, listing: Exchange): string {
  const { result } = listing;
  const lines = result.split("\n");
  const entries = lines.filter((line) => !line.startsWith("("));
  if (entries.length === 0 || foundNothing(listing)) return `I couldn't find any: ${result}`;
  const listed = entries.slice(0, MAX_LISTED).map((entry) => `- ${entry}`);
  const rest = entries.length > MAX_LISTED ? [`- … and ${entries.length - MAX_LISTED} more`] : [];
  const footer = lines.filter((line) => line.startsWith("("));
  return [heading, ...listed, ...rest, ...footer].join("\n");
}

/** A tool that failed gets an honest answer, never a broader retry (a timed-out search would only take longer). */
export function honestFailure(tool: string, result: string): string {
  const message = result.replace(/^Error: /, "");
  const advice = /timed out/.test(message)
    ? " I did not retry a broader search, which would take longer still; ask about a folder or a file kind to narrow it."
    : "";
  return `I couldn't get an answer: ${tool} said "${message}".${advice}`;
}

/** A line as quoted in an answer: grep's clipped-line marker becomes a plain "…" (the marker is the tool's words, not the file's). */
function unclipped(text: string): string {
  return text.replace(/ \u2026 \[line clipped at \d+ characters\]$/, " …"); // \u2026: "…"
}

/** What a definition line looks like for the overview: a keyword form at any indent. */
const OVERVIEW_DEFINITION =
  /^\s*(?:(?:export|default|pub|public|private|static|async|abstract)\s+)*(?:class|def|function\*?|func|fn|struct|enum|trait|interface|type|macro_rules!)\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/;
const EXPLANATION_NEEDS_A_MODEL =
  "I can't explain code: I am a fixed search-then-read policy, not a language model. An explanation needs a real model (set ANTHROPIC_API_KEY).";

/** Piped text: its size, its definitions with line numbers, what it imports, and the plain limit. */
export function overviewAnswer(text: string): string {
  const lines = text.replace(/\n$/, "").split("\n");
  const definitions = lines.flatMap((line, index) => {
    const name = OVERVIEW_DEFINITION.exec(line)?.[1];
    return name ? [`- line ${index + 1}: ${name}`] : [];
  });
  const imports = lines.filter((line) => isImport(line)).map((line) => `- ${unclipped(line.trim()).slice(0, 120)}`);
  return [
    EXPLANATION_NEEDS_A_MODEL,
    "",
    `What the piped text holds: ${lines.length} line${lines.length === 1 ? "" : "s"}, ${text.length} characters.`,
    ...(definitions.length
      ? [
          `Definitions (${definitions.length}):`,
          ...definitions.slice(0, MAX_LISTED * 2),
          ...(definitions.length > MAX_LISTED * 2 ? [`- … and ${definitions.length - MAX_LISTED * 2} more`] : []),
        ]
      : ["No definitions (class, def, function, func, fn, struct, …) in it."]),
    ...(imports.length ? [`Imports (${imports.length}):`, ...imports.slice(0, MAX_LISTED)] : ["No imports in it."]),
  ].join("\n");
}

/** "What does this project do?": the top level, the README's first lines, and the plain limit. */
export function projectOverviewAnswer(listing: string, readme: { path: string; text: string } | null): string {
  const entries = listing.split("\n").filter((line) => line && !line.startsWith("("));
  const code = entries.filter((entry) => isSource(entry)).length;
  const start = readme
    ? readme.text
        .split("\n")
        .filter((line) => /^\s*\d+\t\S/.test(line) || (!/^\s*\d+\t/.test(line) && line.trim() && !line.startsWith("(")))
        .slice(0, 6)
        .map((line) => `    ${line}`)
    : [];
  return [
    EXPLANATION_NEEDS_A_MODEL,
    "",
    `What I can show: the top level holds ${entries.length} entr${entries.length === 1 ? "y" : "ies"}${code ? ` (${code} code file${code === 1 ? "" : "s"})` : ""}:`,
    ...entries.slice(0, MAX_LISTED).map((entry) => `- ${entry}`),
    ...(entries.length > MAX_LISTED ? [`- … and ${entries.length - MAX_LISTED} more`] : []),
    ...(readme ? ["", `${readme.path} begins:`, ...start] : ["", "There is no README at the top level."]),
  ].join("\n");
}
