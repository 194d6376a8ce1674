// The tool registry: the one list the agent loop, the CLI and the token
// counter read.
//
// Add a tool here and the model can use it.
import { escapePath } from "../escape.js";
import { makeGrep } from "./grep.js";
import { makeGlob } from "./glob.js";
import { makeListFiles } from "./list_files.js";
import { makeReadFile } from "./read_file.js";
import {
  BUDGET_NOTE,
  checkArgs,
  DEFAULT_DESIGN,
  easeArgs,
  easedNote,
  fail,
  type Tool,
  type ToolContext,
  type ToolDesign,
  type ToolResult,
  withinBudget,
} from "./tool.js";

/**
 * The four tools as a design makes them: `scout lab` compares designs,
 * everything else uses Scout's own. runTool holds every result to one
 * character budget, so every description states it, once, here.
 */
export function makeTools(design: ToolDesign = DEFAULT_DESIGN): Tool[] {
  return [makeReadFile(design), makeListFiles(design), makeGlob(design), makeGrep(design)].map((tool) => ({
    ...tool,
    description: `${tool.description} ${BUDGET_NOTE}`,
  }));
}

export const tools: Tool[] = makeTools();

/** The tool definitions as the Messages API expects them. */
export function toolSchemas(toolSet: Tool[] = tools) {
  return toolSet.map(({ name, description, input_schema }) => ({ name, description, input_schema }));
}

export function findTool(name: string, toolSet: Tool[] = tools): Tool | undefined {
  return toolSet.find((tool) => tool.name === name);
}

/** "read_file, list_files, glob, grep", for messages that name what exists. */
export function toolNames(toolSet: Tool[] = tools): string {
  return toolSet.map((tool) => tool.name).join(", ");
}

/**
 * Runs a tool by name, in a fresh copy of the given workspace (same root,
 * nothing remembered), and holds its result to the character budget.
 * Unknown names, bad arguments and unexpected exceptions all come back as
 * error results: nothing throws into the loop.
 */
export async function runTool(
  name: string,
  input: unknown,
  context: ToolContext,
  toolSet: Tool[] = tools,
): Promise<ToolResult> {
  return withinBudget(await runChecked(name, input, context, toolSet), findTool(name, toolSet)?.askForLess);
}

async function runChecked(name: string, given: unknown, context: ToolContext, toolSet: Tool[]): Promise<ToolResult> {
  const tool = findTool(name, toolSet);
  if (!tool) return fail(`unknown tool "${name}"; available tools: ${toolNames(toolSet)}`);
  const { input, notes } = easeArgs(tool, given); // "5" is 5, limit 3000 is the cap: the result says so
  const result = await runEased(tool, input, context);
  const eased = easedNote(notes);
  return eased ? { ...result, content: `${result.content}\n${eased}` } : result;
}

async function runEased(tool: Tool, input: unknown, context: ToolContext): Promise<ToolResult> {
  const { name } = tool;
  const problem = checkArgs(tool, input);
  if (problem) return fail(problem);
  try {
    // A new Workspace for each call: what it caches about folders and ignore
    // rules lasts one call, so a .gitignore edited mid-session counts at once,
    // as it does for the rg that grep starts.
    const workspace = context.workspace.fresh();
    const result = await tool.run(input, { ...context, workspace });
    // An ignore file skipped (a symlink, too large) changes what the model sees: it is told, once, at the end.
    const ignoreNote = escapePath(workspace.ignoreNote()); // it names paths, so one line whatever they hold
    const note = [workspace.takenAsMeantNote(), ignoreNote].filter((line) => line !== "").join("\n");
    return note ? { ...result, content: `${result.content}\n${note}` } : result;
  } catch (error) {
    if (context.signal?.aborted) return fail(`${name} was cancelled`); // a stream the signal stopped
    return fail(`${name} failed unexpectedly: ${context.workspace.redact((error as Error).message)}`);
  }
}
