// Usage in dollars, as the step log, /tokens and the exit line say it: the cost, and what prompt caching saved.
//
// With the offline model every figure is an estimate priced as the Claude
// model Scout would use (--model), and says so with "~".
import type { Usage } from "../core/loop.js";
import { formatCount } from "../guards/format.js";
import { cacheMinimum } from "./model-sizes.js";
import { dollars, formatDollars, priceOf, totalInput, uncached } from "./prices.js";
import { escapePath } from "../guards/escape.js";

/** Which model's prices to use, and whether the token counts are estimates (offline). */
export interface Pricing {
  model: string;
  estimate: boolean;
  /** The requests carried cache breakpoints (Claude, unless --no-cache): say so when nothing was cached. */
  cache?: boolean;
}

/** "$0.0052", "~$0.0052 (estimate, claude-haiku-4-5 prices)", or "price unknown for NAME". */
export function describeCost(usage: Usage, pricing: Pricing): string {
  const price = priceOf(pricing.model);
  if (!price) return `price unknown for ${escapePath(pricing.model)}`;
  const cost = formatDollars(dollars(usage, price));
  return pricing.estimate ? `~${cost} (estimate, ${pricing.model} prices)` : cost;
}

/**
 * What caching did, or "" when nothing was read from or written to the cache:
 * "cache: 3,100 read, 1,200 written, saved $0.0021". Writes cost 25% more than
 * plain input and reads 90% less, so a first call that only writes costs more.
 */
export function describeCaching(usage: Usage, pricing: Pricing): string {
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  if (read === 0 && written === 0) return pricing.cache ? nothingCached(pricing.model) : "";
  const tokens = `cache: ${formatCount(read)} read, ${formatCount(written)} written`;
  const price = priceOf(pricing.model);
  if (!price) return tokens;
  const saved = dollars(uncached(usage), price) - dollars(usage, price);
  const approx = pricing.estimate ? "~" : "";
  return saved >= 0
    ? `${tokens}, saved ${approx}${formatDollars(saved)}`
    : `${tokens}, cost ${approx}${formatDollars(-saved)} more (writes; later reads repay them)`;
}

/** Why breakpoints cached nothing: the prompts were shorter than the model's minimum (or it is unpublished). */
export function nothingCached(model: string): string {
  const minimum = cacheMinimum(model);
  const name = escapePath(model);
  return minimum === undefined
    ? `cache: nothing cached (${name}'s minimum cacheable prompt is unpublished)`
    : `cache: nothing cached: every prompt was below ${name}'s minimum of ${formatCount(minimum)} tokens`;
}

/** The input and output tokens of a usage, then (with `pricing`) its cost and what caching did, for one line. */
export function describeUsage(usage: Usage, pricing?: Pricing): string {
  const parts = [
    `${formatCount(totalInput(usage))} input tokens`,
    `${formatCount(usage.output_tokens)} output tokens`,
    pricing ? describeCost(usage, pricing) : "",
    pricing ? describeCaching(usage, pricing) : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

/** Usages added up, cache fields included: a session's turns, a trace's calls. */
export function sumUsage(usages: Usage[]): Usage {
  return usages.reduce(addUsage, { input_tokens: 0, output_tokens: 0 });
}

function addUsage(sum: Usage, more: Usage): Usage {
  return {
    input_tokens: sum.input_tokens + more.input_tokens,
    output_tokens: sum.output_tokens + more.output_tokens,
    cache_read_input_tokens: (sum.cache_read_input_tokens ?? 0) + (more.cache_read_input_tokens ?? 0),
    cache_creation_input_tokens: (sum.cache_creation_input_tokens ?? 0) + (more.cache_creation_input_tokens ?? 0),
  };
}
