// `scout tokens --trace FILE [--model NAME]`: what a traced run cost, and what it would cost on another model, with and without prompt caching.
//
// The model the run used keeps its recorded usage; the other model's input
// is recounted, exactly with a key (count_tokens on each rebuilt request) or
// by estimate (the recorded tokens, with the published hidden tool-use prompt
// of one model swapped for the other's). Output tokens are assumed the same.
// Caching is simulated as the API applies it to Scout's two breakpoints: a
// call reads the longest prefix an earlier call of the same conversation
// wrote, within 5 minutes, and writes the rest if it reaches the model's
// minimum (src/tokens/model-sizes.ts).
import type { Usage } from "../core/loop.js";
import { SYSTEM_PROMPT, tools as scoutTools } from "../core/scout.js";
import { toolSchemas } from "../core/tool.js";
import { describeCaching, type Pricing, sumUsage } from "./cost.js";
import type { Counter } from "./count.js";
import { formatCount } from "../guards/format.js";
import { cacheMinimum, tokenizerNote, tokenizerRatio, toolPromptTokens } from "./model-sizes.js";
import { dollars, dollarsEach, formatDollars, modelKey, priceOf, retiredNote, totalInput, uncached } from "./prices.js";
import { formatSplit, MAX_SPLIT_CALLS } from "./token-split.js";
import type { Trace, TracedCall } from "./trace-read.js";
import { escapePath } from "../guards/escape.js";
import { OFFLINE_MODEL_NAME } from "../models/offline.js";

/** How long a cache entry lives after its last use (the API's default, the only one Scout asks for). */
export const CACHE_LIFETIME_MS = 5 * 60 * 1000;

interface Column {
  model: string;
  /** How these figures were made. */
  how: string;
  /** Whether they are estimates (shown with "~"), not the API's usage or counts. */
  estimate: boolean;
  without: Usage[];
  with: Usage[];
}

/** Simulated usage with Scout's breakpoints: per call, what is read from the cache, written to it, and sent plain. */
export function simulateCaching(
  calls: { input: number; output: number; messages: number; time?: number }[],
  stablePrefix: number,
  minimum: number,
): Usage[] {
  let entries = new Map<number, number>(); // prefix length → last use (ms)
  let previousMessages = 0;
  return calls.map(({ input, output, messages, time = 0 }) => {
    if (messages <= previousMessages) entries = new Map([...entries].filter(([length]) => length === stablePrefix));
    previousMessages = messages;
    for (const [length, used] of entries) if (time - used > CACHE_LIFETIME_MS) entries.delete(length);
    const hits = [...entries.keys()].filter((length) => length <= input);
    const read = hits.length ? Math.max(...hits) : 0;
    if (read) entries.set(read, time);
    let written = 0;
    for (const breakpoint of [stablePrefix, input])
      if (breakpoint >= minimum && breakpoint > read && !entries.has(breakpoint)) {
        written = Math.max(written, breakpoint - read);
        entries.set(breakpoint, time);
      }
    return {
      input_tokens: input - read - written,
      output_tokens: output,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: written,
    };
  });
}

/** The what-if report for a trace: the model it ran on, and `other` (if given), each without and with caching. */
export async function whatIf(
  trace: Trace,
  options: { other?: string; fallback: string; counter: Counter; exact: boolean; file: string },
): Promise<string> {
  if (trace.calls.length === 0)
    return `${options.file}: no model calls in this trace${trace.skipped ? ` (${trace.skipped} records skipped)` : ""}.`;
  const ranOn = modelKey(trace.calls[0].model);
  // Only the offline model's own name marks an offline run: a Claude model newer than the tables is still Claude.
  const offlineRun = ranOn === OFFLINE_MODEL_NAME;
  const asRun = trace.calls.map((call) => call.usage);
  const cachedRun = asRun.some((u) => (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) > 0);
  const columns: Column[] = [];
  const ranMinimum = cacheMinimum(ranOn);
  columns.push({
    model: ranOn,
    how:
      (offlineRun ? "as run, the offline model's own estimates" : "as run (usage the API reported)") +
      retiredNote(ranOn),
    estimate: offlineRun,
    without: cachedRun ? asRun.map(uncached) : asRun,
    with: cachedRun
      ? asRun
      : ranMinimum === undefined
        ? []
        : simulateCaching(shape(trace.calls, asRun.map(totalInput)), await stablePrefix(ranOn, options), ranMinimum),
  });
  // The offline model has no price, so an offline run is always compared with a Claude model.
  const other = options.other ?? (offlineRun ? options.fallback : undefined);
  if (other) columns.push(await recount(trace, other, offlineRun, options));
  const report = format(trace, columns);
  // Where the tokens went, when the trace holds the messages each call sent, and is short enough to split.
  if (trace.calls.length > MAX_SPLIT_CALLS)
    return `${report}\n\n(where the input tokens went is shown for traces of at most ${formatCount(MAX_SPLIT_CALLS)} model calls; this one has ${formatCount(trace.calls.length)})`;
  if (!trace.calls.every((call) => call.sent)) return report;
  const model = offlineRun ? (options.other ?? options.fallback) : ranOn;
  return `${report}\n\n${formatSplit(
    trace.calls.map((call) => call.sent ?? []),
    escapePath(modelKey(model)),
  )}`;
}

/** The same calls on another model: counted again with a key when the trace allows, else adjusted by the hidden prompts. */
async function recount(
  trace: Trace,
  model: string,
  offlineRun: boolean,
  options: { counter: Counter; exact: boolean },
): Promise<Column> {
  const tools = toolSchemas(scoutTools);
  let inputs: number[];
  let how: string;
  const exact = options.exact && trace.calls.every((call) => call.sent);
  if (exact) {
    inputs = [];
    for (const call of trace.calls)
      inputs.push(await options.counter({ model, system: SYSTEM_PROMPT, tools, messages: call.sent ?? [] }));
    how = `exact: count_tokens on each of the ${trace.calls.length} requests, rebuilt from the trace`;
  } else {
    const ranOn = modelKey(trace.calls[0].model);
    // The offline model's estimate holds no hidden prompt; the API's usage holds the one of the model it ran on.
    const had = offlineRun ? 0 : toolPromptTokens(ranOn);
    const target = toolPromptTokens(model);
    const unknown = [had === undefined ? ranOn : "", target === undefined ? modelKey(model) : ""].filter(Boolean);
    const cannotSwap = had === undefined || target === undefined;
    // The text apart from the hidden prompt, recounted by the other model's tokenizer where a ratio is published.
    const ratio = tokenizerRatio(model) / (offlineRun ? 1 : tokenizerRatio(ranOn));
    inputs = trace.calls.map((call) =>
      cannotSwap
        ? Math.round(totalInput(call.usage) * ratio)
        : Math.round((totalInput(call.usage) - (had ?? 0)) * ratio) + (target ?? 0),
    );
    const scaled =
      ratio === 1 ? "" : `, ×${ratio.toFixed(2)} for the tokenizer${tokenizerNote(ratio > 1 ? model : ranOn)}`;
    how = cannotSwap
      ? `estimate: the recorded input${scaled || " as is"} (no published hidden tool-use prompt size for ${unknown.map(escapePath).join(" or ")})`
      : `estimate: the recorded input${scaled}, ${target! - (had ?? 0) >= 0 ? "+" : ""}${formatCount(target! - (had ?? 0))} per call for the hidden tool-use prompt`;
    if (options.exact) how += " (this trace lacks the questions or model content a recount needs)";
  }
  const calls = shape(trace.calls, inputs);
  const minimum = cacheMinimum(model);
  return {
    model: escapePath(modelKey(model)),
    how: how + retiredNote(model),
    estimate: offlineRun || !exact,
    without: calls.map((c) => ({ input_tokens: c.input, output_tokens: c.output })),
    with: minimum === undefined ? [] : simulateCaching(calls, await stablePrefix(model, options), minimum),
  };
}

function shape(calls: TracedCall[], inputs: number[]) {
  return calls.map((call, i) => ({
    input: inputs[i],
    output: call.usage.output_tokens,
    messages: call.messages,
    time: call.time,
  }));
}

/** Tokens before the system breakpoint: tools, system prompt and the hidden tool-use prompt (counted by the API, added offline). */
async function stablePrefix(model: string, { counter, exact }: { counter: Counter; exact: boolean }): Promise<number> {
  if (!exact)
    return (
      (await counter({ model, system: SYSTEM_PROMPT, tools: toolSchemas(scoutTools), messages: [] })) +
      (toolPromptTokens(model) ?? 0)
    );
  // count_tokens needs a message; one character's worth is close enough for a threshold.
  return counter({
    model,
    system: SYSTEM_PROMPT,
    tools: toolSchemas(scoutTools),
    messages: [{ role: "user", content: "." }],
  });
}

/** Rows of the call-by-call table, at most; the rest are counted. */
export const MAX_CALL_ROWS = 20;

function format(trace: Trace, columns: Column[]): string {
  const lines = [
    `What this trace cost, and would cost · ${plural(trace.turns, "turn")} · ${plural(trace.calls.length, "model call")}${trace.skipped ? ` · ${plural(trace.skipped, "record")} skipped` : ""}`,
    ...(trace.badUsage
      ? [`(${plural(trace.badUsage, "model call")} reported usage that is not a count of tokens; counted as 0)`]
      : []),
    "",
    `${"".padEnd(22)}${"input tokens".padStart(14)}${"output".padStart(9)}${"without caching".padStart(18)}${"with caching".padStart(16)}`,
  ];
  for (const column of columns) {
    const pricing: Pricing = { model: column.model, estimate: column.estimate };
    const price = priceOf(column.model);
    const cost = (usages: Usage[]) =>
      !price
        ? "price unknown"
        : usages.length === 0
          ? "minimum unknown"
          : `${column.estimate ? "~" : ""}${formatDollars(dollarsEach(usages, price))}`;
    const without = sumUsage(column.without);
    lines.push(
      `${column.model.padEnd(22)}${formatCount(totalInput(without)).padStart(14)}${formatCount(without.output_tokens).padStart(9)}${cost(column.without).padStart(18)}${cost(column.with).padStart(16)}`,
    );
    lines.push(`  ${column.how}`);
    if (column.with.length) {
      const cached = describeCaching(sumUsage(column.with), pricing);
      const minimum = cacheMinimum(column.model);
      lines.push(
        `  with caching: ${cached || `nothing cached: no prefix reached ${column.model}'s minimum of ${formatCount(minimum ?? 0)} tokens`}`,
      );
    }
  }
  const last = columns[columns.length - 1];
  const price = priceOf(last.model);
  if (price && last.with.length) {
    const approx = last.estimate ? "~" : "";
    const money = (usage: Usage) => `${approx}${formatDollars(dollars(usage, price))}`;
    lines.push(
      "",
      `${last.model}, call by call (with caching: tokens read / written / sent plain):`,
      `${"call".padStart(6)}${"messages".padStart(10)}${"input".padStart(9)}${"without caching".padStart(18)}${"with caching".padStart(15)}`,
    );
    for (const [i, usage] of last.with.slice(0, MAX_CALL_ROWS).entries()) {
      const split = [usage.cache_read_input_tokens, usage.cache_creation_input_tokens, usage.input_tokens];
      lines.push(
        `${String(i + 1).padStart(6)}${String(trace.calls[i].messages).padStart(10)}${formatCount(totalInput(usage)).padStart(9)}` +
          `${money(last.without[i]).padStart(18)}${money(usage).padStart(15)}  ${split.map((n) => formatCount(n ?? 0)).join(" / ")}`,
      );
    }
    if (last.with.length > MAX_CALL_ROWS) lines.push(`  … ${plural(last.with.length - MAX_CALL_ROWS, "more call")}`);
  }
  return lines.join("\n");
}

function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? "" : "s"}`;
}
