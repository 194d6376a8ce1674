// The tool registry: the one list the agent loop, the CLI and the token
// counter read.
//
// Add a tool here and the model can use it.
import { grep } from "./grep.js";
import { glob } from "./glob.js";
import { listFiles } from "./list_files.js";
import { readFile } from "./read_file.js";
import { checkArgs, fail, type Tool, type ToolContext, type ToolResult } from "./tool.js";

export const tools: Tool[] = [readFile, listFiles, glob, grep];

/** The tool definitions as the Messages API expects them. */
export function toolSchemas() {
  return tools.map(({ name, description, input_schema }) => ({ name, description, input_schema }));
}

export function findTool(name: string): Tool | undefined {
  return tools.find((tool) => tool.name === name);
}

/** "read_file, list_files, glob, grep", for messages that name what exists. */
export function toolNames(): string {
  return tools.map((tool) => tool.name).join(", ");
}

/**
 * Runs a tool by name, in a fresh copy of the given workspace (same root,
 * nothing remembered). Unknown names, bad arguments and unexpected
 * exceptions all come back as error results: nothing throws into the loop.
 */
export async function runTool(name: string, input: unknown, context: ToolContext): Promise<ToolResult> {
  const tool = findTool(name);
  if (!tool) return fail(`unknown tool "${name}"; available tools: ${toolNames()}`);
  const problem = checkArgs(tool, input);
  if (problem) return fail(problem);
  try {
    // A new Workspace for each call: what it caches about folders and ignore
    // rules lasts one call, so a .gitignore edited mid-session counts at once,
    // as it does for the rg that grep starts.
    return await tool.run(input, { ...context, workspace: context.workspace.fresh() });
  } catch (error) {
    return fail(`${name} failed unexpectedly: ${context.workspace.redact((error as Error).message)}`);
  }
}
