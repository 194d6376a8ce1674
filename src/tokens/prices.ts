// What tokens cost in dollars: one dated, sourced price table per model, and the arithmetic that turns usage into money.
//
// Prices change; this table says when it was copied and from where, and a
// model missing from it is "price unknown", never $0.
import type { Usage } from "../core/loop.js";

/** When the table was last brought up to date (each row says when and where it was read). */
export const PRICES_DATE = "2026-12-01";
export const PRICES_SOURCE = "https://platform.claude.com/docs/en/about-claude/pricing (Model pricing)";

/** US dollars per million tokens. A cache write is the 5-minute kind, the only one Scout asks for. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** One model's row: its rates, where and when they were read, a long-prompt tier, and its end of life. */
export interface ModelPrice extends Price {
  source: string;
  date: string;
  /**
   * A higher rate for a request whose prompt (input + cache reads + cache writes) is longer than `above`
   * tokens: every token of that request, output included, is priced at it. Each request is priced on its own.
   */
  longPrompt?: Price & { above: number };
  /** The day the model was retired: requests to it fail. Kept so old traces still price. */
  retired?: string;
}

const OVERVIEW = (model: string) => `https://platform.claude.com/docs/en/models/${model}/overview`;
const price = (
  input: number,
  output: number,
  cacheWrite: number,
  cacheRead: number,
  from: { source?: string; date?: string; longPrompt?: Price & { above: number }; retired?: string } = {},
): ModelPrice => ({
  input,
  output,
  cacheWrite,
  cacheRead,
  source: from.source ?? PRICES_SOURCE,
  date: from.date ?? "2026-12-01",
  ...(from.longPrompt ? { longPrompt: from.longPrompt } : {}),
  ...(from.retired ? { retired: from.retired } : {}),
});

/**
 * Per model id (without a date suffix): base input, output, 5-minute cache write, cache read.
 * Read 2026-12-01. Rows without a source of their own are from the pricing page (PRICES_SOURCE).
 * Not priced, for want of a published page found (2026-12-01): claude-fable-5-2, claude-mythos-5-1,
 * claude-mythos-5-2 (named in the token-counting page's model list only). A model missing here is
 * "price unknown", never $0.
 */
export const PRICES: Record<string, ModelPrice> = {
  // The 5.5 family and Fable, from each model's overview page ("Specifications", "Pricing").
  "claude-opus-5-5": price(4, 20, 5, 0.2, { source: OVERVIEW("opus-5-5") }),
  // Third-party price trackers report a cache-read cut to $0.10 on 2026-10-07; the overview page says $0.20.
  "claude-sonnet-5-5": price(2, 10, 2.5, 0.2, { source: OVERVIEW("sonnet-5-5") }),
  // "From $0.10 / MTok for prompts up to 100K tokens"; the rates above 100K (5x) are from the page's price
  // list as quoted by apidog.com's API guide (2026-10-08), the overview's own excerpt being cut short.
  "claude-haiku-5-5": price(0.1, 0.5, 0.125, 0.01, {
    source: OVERVIEW("haiku-5-5"),
    longPrompt: { above: 100_000, input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
  }),
  // $10 / $50 on the models pages; cache rates are the standard 1.25x and 0.1x of input.
  "claude-fable-5-1": price(10, 50, 12.5, 1, { source: OVERVIEW("fable-5-1") }),
  "claude-fable-5": price(10, 50, 12.5, 1, { source: OVERVIEW("fable-5") }),
  // "It shares Claude Fable 5's specifications and pricing" (the Fable 5 overview); invitation only.
  "claude-mythos-5": price(10, 50, 12.5, 1, { source: OVERVIEW("fable-5") }),
  "claude-opus-5": price(5, 25, 6.25, 0.5, { source: OVERVIEW("opus-5") }),
  "claude-opus-4-8": price(5, 25, 6.25, 0.5),
  "claude-opus-4-7": price(5, 25, 6.25, 0.5),
  "claude-opus-4-6": price(5, 25, 6.25, 0.5),
  "claude-opus-4-5": price(5, 25, 6.25, 0.5),
  "claude-opus-4-1": price(15, 75, 18.75, 1.5),
  "claude-sonnet-5": price(2, 10, 2.5, 0.2),
  "claude-sonnet-4-6": price(3, 15, 3.75, 0.3),
  // "Deprecated [...] retires on November 30, 2026" (its overview page).
  "claude-sonnet-4-5": price(3, 15, 3.75, 0.3, { source: OVERVIEW("sonnet-4-5"), retired: "2026-11-30" }),
  "claude-haiku-4-5": price(1, 5, 1.25, 0.1),
};

/** " (retired 2026-11-30: requests to it fail)" for a model past its end of life, else "". */
export function retiredNote(model: string): string {
  const retired = priceOf(model)?.retired;
  return retired ? ` (retired ${retired}: requests to it fail)` : "";
}

/** "claude-haiku-4-5-20251001" → "claude-haiku-4-5": the API answers with dated ids; tables list the alias. */
export function modelKey(model: string): string {
  return model.replace(/-\d{8}$/, "");
}

/** The model's prices, or undefined when the table does not know it. */
export function priceOf(model: string): ModelPrice | undefined {
  return Object.hasOwn(PRICES, modelKey(model)) ? PRICES[modelKey(model)] : undefined;
}

/**
 * Dollars for one request's usage (input_tokens are the uncached ones; reads and writes are priced apart), at
 * the long-prompt rate when the row has one and the request's prompt is over its threshold. Usage summed over
 * several requests is priced as one request: price each request and add (`dollarsEach`) where the tier matters.
 */
export function dollars(usage: Usage, row: Price | ModelPrice): number {
  return millionths(usage, row) / 1_000_000;
}

/** Dollars × 1,000,000 for one request: whole figures for the sums, so adding requests adds no rounding noise. */
function millionths(usage: Usage, row: Price | ModelPrice): number {
  const long = "longPrompt" in row ? row.longPrompt : undefined;
  const p = long && totalInput(usage) > long.above ? long : row;
  return (
    usage.input_tokens * p.input +
    (usage.cache_creation_input_tokens ?? 0) * p.cacheWrite +
    (usage.cache_read_input_tokens ?? 0) * p.cacheRead +
    usage.output_tokens * p.output
  );
}

/** Dollars for several requests, each priced on its own (so a long-prompt tier applies only where it should). */
export function dollarsEach(usages: Usage[], row: Price | ModelPrice): number {
  return usages.reduce((sum, usage) => sum + millionths(usage, row), 0) / 1_000_000;
}

/** The same usage with every cached token sent as plain input: what it would have cost without caching. */
export function uncached(usage: Usage): Usage {
  return {
    input_tokens: totalInput(usage),
    output_tokens: usage.output_tokens,
  };
}

/** Every input token of a request, whether read from cache, written to it, or neither. */
export function totalInput(usage: Usage): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** $0.0052, $0.12, $1.23: two significant digits below a dollar, cents above; a sum too small to show says so. */
export function formatDollars(value: number): string {
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  if (abs === 0) return "$0";
  if (abs < 0.0001) return `${sign}<$0.0001`;
  return `${sign}$${abs >= 1 ? abs.toFixed(2) : String(Number(abs.toPrecision(2)))}`;
}
