// Writes the offline model's answers from what the tools returned: quotes only lines a tool really showed, and says plainly what failed.
import { type Definition, type Hit, fileRank, isComment, isImport, definitionTier } from "./definitions.js";

/** How many files or entries an answer lists. */
export const MAX_LISTED = 10;
/** How many line numbers one file's row of call sites lists. */
const MAX_LINES_PER_FILE = 12;

/** A read_file result, or the error it gave. */
export interface Read {
  result: string;
  isError: boolean;
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
    const quote = window.isError ? [] : quoteAround(window.result, definition.line);
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

/** The window's lines from one before the line to three after, indented as a quote. */
function quoteAround(window: string, line: number): string[] {
  const numbered = window.split("\n").filter((text) => /^\s*\d+\t/.test(text));
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
  const definitions = hits.filter((hit) => definitionTier(hit.text, name) !== null);
  const imports = hits.filter((hit) => isImport(hit.text));
  const sites = hits.filter(
    (hit) => !definitions.includes(hit) && !imports.includes(hit) && !isComment(hit.text) && fileRank(hit.path) < 2,
  );
  const verb = callsOnly ? "called" : "used";
  const elsewhere = hits.length - definitions.length - imports.length - sites.length;
  const notCounted = [
    definitions.length ? `the definition at ${definitions.map((d) => `${d.path}:${d.line}`).join(", ")}` : "",
    imports.length ? `${imports.length} import${imports.length === 1 ? "" : "s"}` : "",
    elsewhere ? `${elsewhere} line${elsewhere === 1 ? "" : "s"} in comments or docs` : "",
  ].filter(Boolean);
  const footer = notCounted.length ? [`Not counted: ${notCounted.join("; ")}.`] : [];
  if (sites.length === 0) {
    return [
      `I found no line where \`${name}\` is ${verb}${callsOnly ? ` (no \`${name}(\` outside its definition)` : ""}.`,
      ...footer,
    ].join("\n");
  }
  const byFile = new Map<string, number[]>();
  for (const site of sites) byFile.set(site.path, [...(byFile.get(site.path) ?? []), site.line]);
  // One row per file, citing path:line and then the other lines of that file: "- src/a.py:10, 14 (2)".
  const rows = [...byFile].slice(0, MAX_LISTED).map(([file, lines]) => {
    const shown = lines.slice(0, MAX_LINES_PER_FILE).join(", ");
    return `- ${file}:${shown}${lines.length > MAX_LINES_PER_FILE ? ", …" : ""} (${lines.length})`;
  });
  if (byFile.size > MAX_LISTED) rows.push(`- … and ${byFile.size - MAX_LISTED} more files`);
  const count = `${capped ? "at least " : ""}${sites.length} time${sites.length === 1 ? "" : "s"} in ${byFile.size} file${byFile.size === 1 ? "" : "s"}`;
  const cap = capped ? ["(grep stopped at its cap, so there are more.)"] : [];
  return [`\`${name}\` is ${verb} ${count}:`, ...rows, ...cap, ...footer].join("\n");
}

/** Lines that mention the words: where each is, quoted from grep. */
export function mentionAnswer(what: string, hits: Hit[], note: string): string {
  const shown = hits.slice(0, MAX_LISTED).map((hit) => `- ${hit.path}:${hit.line}: ${hit.text.trim()}`);
  const more = hits.length > shown.length ? [`- … and ${hits.length - shown.length} more`] : [];
  return [`${note}${what} appears at:`, ...shown, ...more].join("\n");
}

/** A glob or list_files result as a list, with the tool's own footer kept. */
export function listAnswer(heading: string, result: string): string {
  const lines = result.split("\n");
  const entries = lines.filter((line) => !line.startsWith("("));
  if (entries.length === 0 || result.startsWith("No files")) return `I couldn't find any: ${result}`;
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
