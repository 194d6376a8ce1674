// What every tool is (plain data, name, description and JSON schema, plus one function), and runTool, the one
// way the loop calls a tool.
//
// A tool returns { content, isError } and never throws.
import { checkArgs, easeArgs, easedNote, type PropertySchema } from "../guards/arguments.js";
import type { ResultLimits } from "../guards/newest-first.js";
import { withinBudget } from "../guards/result-budget.js";
import type { Workspace } from "./workspace.js";

/** No tool result is longer than this many lines, plus a footer saying what was cut. */
export const MAX_RESULT_LINES = 100;

/** The one case rule of glob and grep, as both descriptions state it (rg's --smart-case). */
export const SMART_CASE = "Smart case: a pattern without upper-case letters ignores case.";

export interface ToolResult {
  /** Exactly the text the model receives. */
  content: string;
  /** Sent to the model as the tool_result's is_error flag. */
  isError: boolean;
  /** A few words for the step log, e.g. "6 lines in 1 file". */
  summary?: string;
  /** What listeners may read instead of the wording (the offline model, the step log). */
  facts?: ToolFacts;
}

export interface ToolFacts {
  /** Lines or entries found in all, when the tool knows (a footer may say "at least"). */
  total?: number;
  /** True when the cap (or a time or size limit) cut what is shown. */
  capped?: boolean;
  /** True when the tool was not run because the user skipped it (step-through). */
  skipped?: boolean;
}

/** How many lines a result holds and in what order files come: `scout lab` passes others to measure a design. */
export type { ResultLimits };
export const SCOUT_LIMITS: ResultLimits = { cap: MAX_RESULT_LINES, sort: "mtime" };

export interface ToolContext {
  workspace: Workspace;
  /** Aborted when the user presses Ctrl-C: long-running tools stop. */
  signal?: AbortSignal;
  /** Scout's own (SCOUT_LIMITS) unless given. */
  limits?: ResultLimits;
}

export interface Tool<Args = any> {
  name: string;
  description: string;
  /** What a result cut at the budget advises asking for instead, in the tool's own arguments ("a smaller limit"). */
  askForLess?: string;
  input_schema: {
    type: "object";
    properties: Record<string, PropertySchema>;
    required: string[];
    additionalProperties: false;
  };
  run(args: Args, context: ToolContext): Promise<ToolResult>;
}

export function ok(content: string, summary?: string, facts?: ToolFacts): ToolResult {
  return { content, isError: false, summary, facts };
}

export function fail(message: string): ToolResult {
  return { content: `Error: ${message}`, isError: true, summary: "error" };
}

/** The tool definitions as the Messages API expects them. */
export function toolSchemas(tools: Tool[]) {
  return tools.map(({ name, description, input_schema }) => ({ name, description, input_schema }));
}

/** "read_file, list_files, glob, grep", for messages that name what exists. */
export function toolNames(tools: Tool[]): string {
  return tools.map((tool) => tool.name).join(", ");
}

/**
 * Runs a tool by name, in a fresh copy of the given workspace (same root, nothing remembered), and holds its
 * result to the character budget. Unknown names, bad arguments and unexpected exceptions all come back as
 * error results: nothing throws into the loop.
 */
export async function runTool(name: string, given: unknown, context: ToolContext, tools: Tool[]): Promise<ToolResult> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) return fail(`unknown tool "${name}"; available tools: ${toolNames(tools)}`);
  const { input, notes } = easeArgs(tool, given); // "5" is 5, limit 3000 is the cap: the result says so
  const problem = checkArgs(tool, input);
  const result = problem ? fail(problem) : await runChecked(tool, input, context);
  const eased = easedNote(notes);
  return withinBudget(eased ? { ...result, content: `${result.content}\n${eased}` } : result, tool.askForLess);
}

async function runChecked(tool: Tool, input: unknown, context: ToolContext): Promise<ToolResult> {
  // A new Workspace for each call: what it caches about folders and ignore rules lasts one call, so a
  // .gitignore edited mid-session counts at once, as it does for the rg that grep starts.
  const workspace = context.workspace.fresh();
  try {
    const result = await tool.run(input, { ...context, workspace });
    // What the workspace read otherwise than written, or could not apply (an ignore file), is told at the end.
    const notes = workspace.notes();
    return notes.length ? { ...result, content: [result.content, ...notes].join("\n") } : result;
  } catch (error) {
    if (context.signal?.aborted) return fail(`${tool.name} was cancelled`); // a stream the signal stopped
    return fail(`${tool.name} failed unexpectedly: ${context.workspace.redact((error as Error).message)}`);
  }
}
