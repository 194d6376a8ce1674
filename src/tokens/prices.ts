// What tokens cost in dollars: one dated, sourced price table per model, and the arithmetic that turns usage into money.
//
// Prices change; this table says when it was copied and from where, and a
// model missing from it is "price unknown", never $0.
import type { Usage } from "../agent.js";

/** When the table was copied, and from where. */
export const PRICES_DATE = "2026-12-01";
export const PRICES_SOURCE = "https://platform.claude.com/docs/en/about-claude/pricing (Model pricing)";

/** US dollars per million tokens. A cache write is the 5-minute kind, the only one Scout asks for. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

const price = (input: number, output: number, cacheWrite: number, cacheRead: number): Price => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

/** Per model id (without a date suffix): base input, output, 5-minute cache write, cache read. */
export const PRICES: Record<string, Price> = {
  "claude-opus-5": price(5, 25, 6.25, 0.5),
  "claude-opus-4-8": price(5, 25, 6.25, 0.5),
  "claude-opus-4-7": price(5, 25, 6.25, 0.5),
  "claude-opus-4-6": price(5, 25, 6.25, 0.5),
  "claude-opus-4-5": price(5, 25, 6.25, 0.5),
  "claude-opus-4-1": price(15, 75, 18.75, 1.5),
  "claude-sonnet-5": price(2, 10, 2.5, 0.2),
  "claude-sonnet-4-6": price(3, 15, 3.75, 0.3),
  "claude-sonnet-4-5": price(3, 15, 3.75, 0.3),
  "claude-haiku-4-5": price(1, 5, 1.25, 0.1),
};

/** "claude-haiku-4-5-20251001" → "claude-haiku-4-5": the API answers with dated ids; tables list the alias. */
export function modelKey(model: string): string {
  return model.replace(/-\d{8}$/, "");
}

/** The model's prices, or undefined when the table does not know it. */
export function priceOf(model: string): Price | undefined {
  return PRICES[modelKey(model)];
}

/** Dollars for one usage (input_tokens are the uncached ones; reads and writes are priced apart). */
export function dollars(usage: Usage, p: Price): number {
  return (
    (usage.input_tokens * p.input +
      (usage.cache_creation_input_tokens ?? 0) * p.cacheWrite +
      (usage.cache_read_input_tokens ?? 0) * p.cacheRead +
      usage.output_tokens * p.output) /
    1_000_000
  );
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
