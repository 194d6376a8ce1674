// `/request` and `--show-request`: the last request as it went to the model, block by block, with the tokens of each.
//
// With a key the counts are exact, by subtraction: count_tokens is asked for
// growing prefixes of the request (the first message, + system, + each tool,
// + each exchange), and each row is the difference from the one before. The
// API only counts whole requests, and a prefix must end on a user message, so
// a model call and the tool results answering it share one figure. Offline,
// each block is estimated locally, and the hidden tool-use prompt is its own
// row (src/tokens/model-sizes.ts).
import type { MessageParam, ModelRequest } from "../core/loop.js";
import { countBreakpoints, withCacheBreakpoints } from "../models/cache.js";
import { blockText, type Counter, estimateTokens as localTokens } from "./count.js";
import { formatCount } from "../guards/format.js";
import { tokenizerNote, tokenizerRatio, toolPromptTokens } from "./model-sizes.js";
import { escapePath } from "../guards/escape.js";

/** Texts longer than this (tool results, the system prompt) are shown abbreviated, with their size; tool inputs at twice it. */
export const MAX_BLOCK_CHARS = 100;

export interface RequestViewOptions {
  /** The model the request went to, and whose hidden tool prompt to add offline. */
  model: string;
  /** Exact (count_tokens) or estimated (local tokenizer). */
  mode: "exact" | "estimate";
  counter: Counter;
  /** Whether the request carried cache_control breakpoints (Claude, unless --no-cache). */
  cache: boolean;
}

interface Row {
  tokens?: number;
  label: string;
  text: string;
  /** The block would carry a cache breakpoint (when caching is on). */
  breakpoint?: boolean;
}

/** The last request, block by block, with tokens beside each; "(no request yet)" before the first. */
export async function formatRequest(request: ModelRequest | undefined, options: RequestViewOptions): Promise<string> {
  if (!request) return "(no request yet: ask a question first)";
  const sent = withCacheBreakpoints(request, options.cache);
  const marks = countBreakpoints(sent);
  const rows = options.mode === "exact" ? await exactRows(request, options) : estimatedRows(request, options.model);
  const how =
    options.mode === "exact"
      ? `exact: count_tokens by subtraction, ${exactRequests(request)} requests`
      : `estimate: local tokenizer, per block${tokenizerNote(options.model).replace(/^ \((.*)\)$/, ", $1")}`;
  const lines = [
    `The last request to ${escapePath(options.model)} (${how}):`,
    `  system prompt, ${request.tools.length} tools, ${request.messages.length} messages; ${marks ? `${marks} cache breakpoints (◆)` : "no cache breakpoints"}`,
    "",
    `${"tokens".padStart(8)}  block`,
  ];
  const approx = options.mode === "estimate" ? "~" : "";
  for (const row of rows)
    lines.push(
      `${row.tokens === undefined ? "" : approx + formatCount(row.tokens)}`.padStart(8) +
        `  ${row.label.padEnd(11)} ${row.text}${options.cache && row.breakpoint ? " ◆" : ""}`,
    );
  const total = rows.reduce((sum, row) => sum + (row.tokens ?? 0), 0);
  lines.push(`${`${approx}${formatCount(total)}`.padStart(8)}  in all`);
  if (options.mode === "exact") {
    const hidden = toolPromptTokens(options.model);
    lines.push(
      "",
      `* the first tool's figure also holds the hidden tool-use system prompt the API adds${hidden === undefined ? "" : ` (published size: ${formatCount(hidden)})`}.`,
      "  The model's message and the tool results answering it share one figure: the API counts only requests that end on a user message.",
    );
  }
  return lines.join("\n");
}

/** Rows offline: each block tokenized on its own, and the hidden tool prompt from the published table. */
function estimatedRows(request: ModelRequest, model: string): Row[] {
  const hidden = request.tools.length ? toolPromptTokens(model) : 0;
  const ratio = tokenizerRatio(model);
  const estimateTokens = (text: string) => Math.round(localTokens(text) * ratio);
  const rows: Row[] = [
    { tokens: estimateTokens(request.system), label: "system", text: clip(request.system), breakpoint: true },
    {
      tokens: hidden,
      label: "(hidden)",
      text: `tool-use system prompt the API adds${hidden === undefined ? `: size unknown for ${escapePath(model)}` : ` (published size for ${model})`}`,
    },
    ...request.tools.map((tool) => ({
      tokens: estimateTokens(JSON.stringify(tool)),
      label: "tool",
      text: toolText(tool),
    })),
  ];
  request.messages.forEach((message, i) => {
    for (const [j, block] of blocksOf(message).entries()) {
      const newest = i === request.messages.length - 1 && j === blocksOf(message).length - 1;
      rows.push({
        tokens: estimateTokens(blockText(block)),
        label: j === 0 ? message.role : "",
        text: describeBlock(block),
        breakpoint: newest,
      });
    }
  });
  return rows;
}

/** Rows with a key: one count per growing prefix, each row the difference. */
async function exactRows(request: ModelRequest, { model, counter }: RequestViewOptions): Promise<Row[]> {
  const [first, ...rest] = request.messages;
  const count = (part: { system?: string; tools?: ModelRequest["tools"]; messages: MessageParam[] }) =>
    counter({ model, ...part });
  const rows: Row[] = [];
  const firstAlone = await count({ messages: [first] });
  let previous = await count({ system: request.system, messages: [first] });
  rows.push({ tokens: previous - firstAlone, label: "system", text: clip(request.system), breakpoint: true });
  for (let i = 0; i < request.tools.length; i++) {
    const next = await count({ system: request.system, tools: request.tools.slice(0, i + 1), messages: [first] });
    rows.push({ tokens: next - previous, label: "tool", text: toolText(request.tools[i]) + (i === 0 ? " *" : "") });
    previous = next;
  }
  rows.push(...messageRows(first, firstAlone, request.messages.length === 1));
  // The rest in pairs (the model's message, then the user message answering it), each pair one count.
  for (let i = 0; i < rest.length; i += 2) {
    const upTo = request.messages.slice(0, i + 3);
    const next = await count({ system: request.system, tools: request.tools, messages: upTo });
    const pair = rest.slice(i, i + 2);
    const last = upTo.length === request.messages.length;
    for (const [j, message] of pair.entries())
      rows.push(...messageRows(message, j === 0 ? next - previous : undefined, last && j === pair.length - 1));
    previous = next;
  }
  return rows;
}

/** How many count_tokens requests the exact view makes: first message, + system, + each tool, + each pair. */
export function exactRequests(request: ModelRequest): number {
  return 2 + request.tools.length + Math.ceil((request.messages.length - 1) / 2);
}

function messageRows(message: MessageParam, tokens: number | undefined, newest: boolean): Row[] {
  const blocks = blocksOf(message);
  return blocks.map((block, j) => ({
    tokens: j === 0 ? tokens : undefined,
    label: j === 0 ? message.role : "",
    text: describeBlock(block),
    breakpoint: newest && j === blocks.length - 1,
  }));
}

type Block = Exclude<MessageParam["content"], string>[number];

function blocksOf(message: MessageParam): Block[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** One block in one line: a question's text, a tool call, or a tool result abbreviated with its size. */
function describeBlock(block: Block): string {
  if (block.type === "text") return clip(block.text);
  if (block.type === "tool_use") {
    const input = JSON.stringify(block.input);
    const long = input.length > 2 * MAX_BLOCK_CHARS;
    return `tool_use ${block.name} ${long ? `${input.slice(0, 2 * MAX_BLOCK_CHARS)}… (${formatCount(input.length)} chars)` : input}`;
  }
  if (block.type === "tool_result") return `tool_result${block.is_error ? " (error)" : ""} ${clip(blockText(block))}`;
  return block.type;
}

function toolText(tool: ModelRequest["tools"][number]): string {
  return `${tool.name}: description ${formatCount(tool.description.length)} chars, input_schema ${formatCount(JSON.stringify(tool.input_schema).length)} chars`;
}

/** A text as one JSON-quoted line (control characters escaped), abbreviated with its size when long. */
function clip(text: string): string {
  if (text.length <= MAX_BLOCK_CHARS) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, MAX_BLOCK_CHARS)).slice(0, -1)}…" (${formatCount(text.length)} chars)`;
}
