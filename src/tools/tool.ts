// What every tool is: plain data (name, description, JSON schema) plus one
// function.
//
// Shared limits and the argument checker live here, once.
import type { Workspace } from "../workspace/workspace.js";

/** No tool result is longer than this many lines, plus a footer saying what was cut. */
export const MAX_RESULT_LINES = 100;
/**
 * Nor longer than this many characters (about 8,000 tokens): a hundred lines
 * of long paths came to 95 KB. runTool cuts a longer result at a line and
 * says so (see withinBudget).
 */
export const MAX_RESULT_CHARS = 30_000;
/** Each line of an error is clipped in the middle to this many characters, so an input it quotes stays short. */
export const MAX_ERROR_LINE_CHARS = 400;
/** An input a result quotes back (the pattern of "No matches for /…/") is clipped in the middle to this many characters. */
export const MAX_ECHO_CHARS = 200;
/** The sentence that states the budget in every tool's description. */
export const BUDGET_NOTE = `A result is at most ${groupThousands(MAX_RESULT_CHARS)} characters.`;

/** The one case rule of glob and grep, as both descriptions state it (rg's --smart-case). */
export const SMART_CASE = "Smart case: a pattern without upper-case letters ignores case.";

/**
 * 30000 → "30,000", as toLocaleString("en-US") writes a whole number, but by
 * hand: the first toLocaleString in a process loads locale data (~20 ms), and
 * BUDGET_NOTE is built when the tools load, at every start-up.
 */
export function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+$)/g, ",");
}

/**
 * How a tool set is designed: the knobs `scout lab` turns to measure what a
 * design costs and answers. Each tool is made from one (see makeTools);
 * DEFAULT_DESIGN is Scout's own.
 */
export interface ToolDesign {
  /** Most lines in one result; a footer says what was cut. */
  cap: number;
  /** Which description each tool sends: the full one, or the concise one written beside it. */
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
export function orderOf(design: ToolDesign): string {
  return design.sort === "mtime" ? "newest first (by modification time)" : "in path order";
}

export interface ToolResult {
  /** Exactly the text the model receives. */
  content: string;
  /** Sent to the model as the tool_result's is_error flag. */
  isError: boolean;
  /** A few words for the step log, e.g. "6 lines in 1 file". */
  summary?: string;
}

export interface ToolContext {
  workspace: Workspace;
  /** Aborted when the user presses Ctrl-C: long-running tools stop. */
  signal?: AbortSignal;
}

type JsonType = "string" | "integer";
export interface PropertySchema {
  type: JsonType;
  description: string;
  minimum?: number;
  maximum?: number;
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

export function ok(content: string, summary?: string): ToolResult {
  return { content, isError: false, summary };
}

export function fail(message: string): ToolResult {
  return { content: `Error: ${message}`, isError: true, summary: "error" };
}

/**
 * Clips one line to `max` characters, with a visible marker, so one line can't flood the context. `cut` says
 * the line was already cut while reading (it was longer than what the caller kept): it gets the marker too.
 */
export function clipLine(line: string, max: number, cut = false): string {
  if (!cut && line.length <= max) return line;
  // Cut before a surrogate pair, not inside it: half an emoji is not valid text for the API.
  const end = isHighSurrogate(line.charCodeAt(max - 1)) ? max - 1 : max;
  return `${line.slice(0, end)} … [line clipped at ${max} characters]`;
}

/** An input as a result quotes it back ("No matches for /…/"): clipped in the middle to MAX_ECHO_CHARS. */
export function clipEcho(input: string): string {
  return clipMiddle(input, MAX_ECHO_CHARS);
}

/** Clips text in the middle to about `max` characters, keeping both ends: the start of an input and the words after it. */
export function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.floor(max / 2);
  let tail = text.length - Math.floor(max / 2);
  if (isHighSurrogate(text.charCodeAt(head - 1))) head--; // never half an emoji
  if (isHighSurrogate(text.charCodeAt(tail - 1))) tail++;
  return `${text.slice(0, head)} … [${groupThousands(tail - head)} characters cut] … ${text.slice(tail)}`;
}

/**
 * A result within the budget: an error's lines clipped in the middle
 * (errors quote inputs, which may be of any length), and any result over
 * MAX_RESULT_CHARS cut after its last whole line that fits, with a last
 * line saying so.
 */
export function withinBudget(result: ToolResult, askForLess = "a narrower request"): ToolResult {
  let content = result.content;
  if (result.isError)
    content = content
      .split("\n")
      .map((line) => clipMiddle(line, MAX_ERROR_LINE_CHARS))
      .join("\n");
  if (content.length > MAX_RESULT_CHARS) {
    const total = content.split("\n").length;
    const room = MAX_RESULT_CHARS - 200; // for the note
    const cut = content.lastIndexOf("\n", room);
    const kept = cut > 0 ? content.slice(0, cut) : clipLine(content.slice(0, room + 1), room);
    const shown = kept.split("\n").length;
    content = `${kept}\n(result cut at the ${groupThousands(MAX_RESULT_CHARS)}-character budget after ${shown} of ${total} lines; ask for less: ${askForLess})`;
  }
  return content === result.content ? result : { ...result, content };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Arguments a model commonly gets slightly wrong, taken where their meaning is plain: a whole number sent as
 * a string ("5") is that number, and one over its maximum (limit 3000) is the maximum. Returns the arguments
 * to check and run, and a note for each change, which the result then states. Anything else is left for
 * checkArgs to refuse: a number under its minimum (offset 0 may mean the first line or none), "5.5", "five".
 */
export function easeArgs(tool: Tool, input: unknown): { input: unknown; notes: string[] } {
  const notes: string[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { input, notes };
  const eased: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(eased)) {
    const schema = Object.hasOwn(tool.input_schema.properties, key) ? tool.input_schema.properties[key] : undefined;
    if (schema?.type !== "integer") continue;
    let number = value;
    if (typeof value === "string" && /^\s*[+-]?\d{1,15}\s*$/.test(value)) {
      number = Number(value);
      notes.push(`${key} was the string ${JSON.stringify(value)}, read as the number ${number}`);
    }
    if (typeof number === "number" && Number.isSafeInteger(number) && schema.maximum !== undefined) {
      if (number > schema.maximum) {
        notes.push(`${key} ${number} is over its maximum, ${schema.maximum}, which was used`);
        number = schema.maximum;
      }
    }
    eased[key] = number;
  }
  return { input: eased, notes };
}

/** The line a result ends with when easeArgs changed arguments, or "". */
export function easedNote(notes: string[]): string {
  return notes.length ? `(arguments taken as meant: ${notes.join("; ")})` : "";
}

/**
 * Checks tool arguments against the tool's schema: unknown fields, missing
 * required ones, wrong types and out-of-range numbers. Returns an error
 * message naming the argument, or null when the arguments are fine.
 */
export function checkArgs(tool: Tool, input: unknown): string | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return `${tool.name} expects a JSON object of arguments`;
  }
  const args = input as Record<string, unknown>;
  const { properties, required } = tool.input_schema;
  // Own properties only: "constructor" or "toString" are in every object, but are no argument.
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(properties, key)) {
      return `unknown argument "${key}" for ${tool.name}; expected: ${Object.keys(properties).join(", ")}`;
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(args, key) || args[key] === undefined)
      return `missing required argument "${key}" (${properties[key].description})`;
  }
  for (const [key, value] of Object.entries(args)) {
    const schema = properties[key];
    if (schema.type === "string" && typeof value !== "string") {
      return `argument "${key}" must be a string, got ${describe(value)}`;
    }
    if (schema.type === "integer") {
      // Safe integers only: 1e999 parses to Infinity, and 2**60 cannot count lines exactly.
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        return `argument "${key}" must be a whole number, got ${describe(value)}`;
      }
      if (schema.minimum !== undefined && value < schema.minimum) {
        return `argument "${key}" must be at least ${schema.minimum}, got ${value}`;
      }
      if (schema.maximum !== undefined && value > schema.maximum) {
        return `argument "${key}" must be at most ${schema.maximum}, got ${value}`;
      }
    }
  }
  return null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") {
    // JSON.stringify would call 1e999 (Infinity) "null".
    if (!Number.isFinite(value)) return `a number too large to represent (${value})`;
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) return `number ${value}, too large to count exactly`;
  }
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : `${typeof value} ${JSON.stringify(value)}`;
}
