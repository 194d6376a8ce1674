// Scout itself: the system prompt and the four tools the loop is handed.
//
// Both are plain data a learner can read and edit: add a tool to the list and the model can use it.
import { BUDGET_NOTE } from "../guards/result-budget.js";
import { glob } from "./glob.js";
import { grep } from "./grep.js";
import { listFiles } from "./list_files.js";
import { readFile } from "./read_file.js";
import type { Tool } from "./tool.js";

/** The system prompt teaches the workflow the tools were designed for: search first, then read a little. */
export const SYSTEM_PROMPT = `You are Scout, a read-only code explorer. You answer questions about the code base in the current workspace using four tools: glob, grep, list_files and read_file.

Work like this:
1. Locate first. Use grep to find where a name or text appears (it returns path:line:text), glob to find files by name, list_files to see what a directory holds.
2. Then read only what you need: call read_file with offset and limit around the line numbers grep gave you, not whole files.
3. Stop searching as soon as you can answer. Do not read files "just in case".
4. Answer briefly and cite your evidence as path:line (for example src/app.ts:42). If you could not find something, say so plainly.`;

/** runTool holds every result to one character budget, so every description states it, once, here. */
export const tools: Tool[] = [readFile, listFiles, glob, grep].map((tool) => ({
  ...tool,
  description: `${tool.description} ${BUDGET_NOTE}`,
}));
