// Tool designs: the knobs `scout lab` turns to measure what a design costs and answers.
//
// The tools themselves are Scout's four, unchanged: a design passes its cap and order to them as limits,
// swaps their descriptions (its own wording, or the concise table below), and takes read_file's line numbers
// off its results.
import { tools as scoutTools } from "../core/scout.js";
import { MAX_RESULT_LINES, type ResultLimits, type Tool, type ToolResult } from "../core/tool.js";
import { BUDGET_NOTE } from "../guards/result-budget.js";

export interface ToolDesign {
  /** Most lines in one result; a footer says what was cut. */
  cap: number;
  /** Which description each tool sends: Scout's own, or the concise one below. */
  descriptions: "full" | "concise";
  /** Whether read_file prefixes each line with its number. */
  lineNumbers: boolean;
  /** How glob, grep and list_files order files: newest first ("mtime"), or by path. */
  sort: "mtime" | "path";
}

export const DEFAULT_DESIGN: ToolDesign = {
  cap: MAX_RESULT_LINES,
  descriptions: "full",
  lineNumbers: true,
  sort: "mtime",
};

/** How a description states the order, so it always says what the tool does. */
function orderOf(design: ToolDesign): string {
  return design.sort === "mtime" ? "newest first (by modification time)" : "in path order";
}

/** The concise descriptions: one short sentence each, stating the cap and the order. */
const CONCISE: Record<string, (design: ToolDesign) => string> = {
  read_file: ({ cap }) =>
    `Read lines offset..offset+limit-1 of a text file (at most ${cap}); a footer gives the total.`,
  list_files: (design) => `List one directory (folders end in "/"), ${orderOf(design)}, at most ${design.cap} entries.`,
  glob: (design) =>
    `Find files by glob pattern (e.g. "**/*.ts"; smart case), ${orderOf(design)}, at most ${design.cap}.`,
  grep: (design) =>
    `Search file contents (Rust regex, smart case); "path:line:text" lines, files ${orderOf(design)}, at most ${design.cap}.`,
};

/** A concise wording for a tool the table does not know (a learner's): its first words, and the cap. */
function firstWords(tool: Tool, design: ToolDesign): string {
  return `${tool.description.split(/[,;:(]/)[0].trim()}, at most ${design.cap}.`;
}

/**
 * Scout's own description with the design's cap and order stated instead of Scout's: the phrases that state
 * them are replaced, and each must be there, so a reworded description cannot silently keep the old figure.
 */
function fullDescription(tool: Tool, design: ToolDesign): string {
  const phrases: [string, string][] = [[`at most ${MAX_RESULT_LINES}`, `at most ${design.cap}`]];
  if (design.sort === "path" && tool.name !== "read_file") {
    if (tool.name === "grep") phrases.push(["newest first (by modification time)", orderOf(design)]);
    else phrases.push(["by modification time, newest first", tool.name === "list_files" ? "by name" : "by path"]);
  }
  if (!design.lineNumbers && tool.name === "read_file") phrases.push([", each prefixed with its line number", ""]);
  let text = tool.description.replace(` ${BUDGET_NOTE}`, "");
  for (const [from, to] of phrases) {
    const at = text.toLowerCase().indexOf(from); // "At most" begins read_file's sentence
    if (at === -1 && tool.name in CONCISE)
      // Scout's own must state it; a learner's own tool may not
      throw new Error(`the lab cannot state its design in ${tool.name}'s description: no "${from}"`);
    if (at === -1) continue;
    const said = text[at] === from[0] ? to : to.charAt(0).toUpperCase() + to.slice(1);
    text = text.slice(0, at) + said + text.slice(at + from.length);
  }
  return text;
}

/** read_file's result without its "  12\t" prefixes: the footer, and every other line, as they were. */
function withoutLineNumbers(result: ToolResult): ToolResult {
  if (result.isError) return result;
  return { ...result, content: result.content.replace(/^ *\d+\t/gm, "") };
}

/** The four tools as a design makes them, each description ending in the budget sentence as Scout's do. */
export function makeTools(design: ToolDesign = DEFAULT_DESIGN, given: Tool[] = scoutTools): Tool[] {
  const limits: ResultLimits = { cap: design.cap, sort: design.sort };
  return given.map((tool) => {
    const concise = CONCISE[tool.name] ?? ((shown: ToolDesign) => firstWords(tool, shown));
    const wording = design.descriptions === "concise" ? concise(design) : fullDescription(tool, design);
    const schema = structuredClone(tool.input_schema);
    for (const property of Object.values(schema.properties))
      if (property.maximum === MAX_RESULT_LINES) {
        property.maximum = design.cap;
        property.description = property.description.replace(`${MAX_RESULT_LINES}`, `${design.cap}`);
      }
    const plainLines = tool.name === "read_file" && !design.lineNumbers;
    return {
      ...tool,
      description: `${wording} ${BUDGET_NOTE}`,
      input_schema: schema,
      run: async (args, context) => {
        const result = await tool.run(args, { ...context, limits });
        return plainLines ? withoutLineNumbers(result) : result;
      },
    };
  });
}
