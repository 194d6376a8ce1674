// "Where did my tokens go": each request of a traced run split into the system prompt, the tool schemas, the
// hidden tool-use prompt, the history's own text and each tool's re-sent results, per call and in total.
//
// Local estimates (src/tokens/count.ts), times the model's published tokenizer ratio, so the parts add up to a
// figure comparable to what-if's estimate; the API reports only a request's total.
import type { MessageParam } from "../core/loop.js";
import { SYSTEM_PROMPT, tools as scoutTools } from "../core/scout.js";
import { toolSchemas } from "../core/tool.js";
import { blockText, estimateTokens } from "./count.js";
import { formatCount } from "../guards/format.js";
import { hiddenPromptTokens, tokenizerRatio, toolPromptTokens } from "./model-sizes.js";

/** The categories, in the order a request carries them (tool results last, one per tool). */
export type Split = Map<string, number>;

/** One request's tokens by category: "system prompt", "tool schemas", "hidden prompt", "history text", "NAME results". */
export function splitRequest(messages: MessageParam[], model: string): Split {
  const ratio = tokenizerRatio(model);
  const tokens = (text: string) => Math.round(estimateTokens(text) * ratio);
  const schemas = toolSchemas(scoutTools);
  const split: Split = new Map([
    ["system prompt", tokens(SYSTEM_PROMPT)],
    ["tool schemas", schemas.reduce((sum, tool) => sum + tokens(JSON.stringify(tool)), 0)],
    // Unpublished for the model: left out (and said so) rather than shown as 0.
    ...(toolPromptTokens(model) === undefined
      ? []
      : [["hidden prompt", hiddenPromptTokens(model, schemas.length)] as [string, number]]),
    ["history text", 0],
  ]);
  const toolOf = new Map<string, string>();
  for (const message of messages) {
    if (typeof message.content === "string") {
      split.set("history text", (split.get("history text") ?? 0) + tokens(message.content));
      continue;
    }
    for (const block of message.content) {
      if (block.type === "tool_use") toolOf.set(block.id, block.name);
      const key =
        block.type === "tool_result" ? `${toolOf.get(block.tool_use_id) ?? "unknown"} results` : "history text";
      split.set(key, (split.get(key) ?? 0) + tokens(blockText(block)));
    }
  }
  return split;
}

/**
 * The most model calls a trace may have for its split to be shown: each call's split counts the whole
 * conversation it sent, so the work grows with the square of the calls (100,000 calls would not finish).
 */
export const MAX_SPLIT_CALLS = 1_000;

/** The width of the longest bar, in characters. */
export const BAR_WIDTH = 30;

/** The split of every call and in total, with a bar per category sized by its share of all input. */
export function formatSplit(calls: MessageParam[][], model: string): string {
  const splits = calls.map((messages) => splitRequest(messages, model));
  const total: Split = new Map();
  for (const split of splits) for (const [key, n] of split) total.set(key, (total.get(key) ?? 0) + n);
  const all = [...total.values()].reduce((a, b) => a + b, 0);
  const lines = [
    `Where the input tokens went (local estimate for ${model}, ${calls.length} call${calls.length === 1 ? "" : "s"}; a tool's results are re-sent on every later call):`,
  ];
  for (const [key, n] of total) {
    const share = all === 0 ? 0 : n / all;
    lines.push(
      `  ${key.padEnd(20)}${`~${formatCount(n)}`.padStart(10)}${`${(share * 100).toFixed(1)}%`.padStart(8)}  ${"█".repeat(Math.round(share * BAR_WIDTH))}`,
    );
  }
  lines.push(`  ${"in all".padEnd(20)}${`~${formatCount(all)}`.padStart(10)}`);
  if (toolPromptTokens(model) === undefined)
    lines.push(`  (the hidden tool-use prompt has no published size for ${model}: not counted)`);
  lines.push("", "  per call:");
  const keys = [...total.keys()];
  for (const [i, split] of splits.entries())
    lines.push(
      `  ${String(i + 1).padStart(4)}  ${keys.map((key) => `${key} ~${formatCount(split.get(key) ?? 0)}`).join(" · ")}`,
    );
  return lines.join("\n");
}
