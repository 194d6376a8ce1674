// What a lab run cost in dollars: each model call priced on its own, as run and as if nothing were cached; offline,
// caching simulated as the API would apply it to Scout's breakpoints (src/tokens/what-if.ts).
//
// Token totals overstate what a schema change saves under caching: the schemas sit in the cached prefix, read
// back at a tenth of the price, so the dollars are the figure a designer pays.
import type { Usage } from "../core/loop.js";
import { cacheMinimum } from "../tokens/model-sizes.js";
import { dollarsEach, priceOf, totalInput } from "../tokens/prices.js";
import { simulateCaching } from "../tokens/what-if.js";
import type { RunRecord } from "./runner.js";

/** One run's dollars: without caching, and with it (as the API reported, or simulated offline; null if unknown). */
export interface RunDollars {
  uncached: number;
  cached: number | null;
}

/** The model calls of a run as usages: the API's split into plain, cache read and cache written. */
function usagesOf(run: RunRecord): Usage[] {
  return run.steps.flatMap((step) =>
    step.kind === "model"
      ? [
          {
            input_tokens: step.inputTokens - (step.cacheRead ?? 0) - (step.cacheWrite ?? 0),
            output_tokens: step.outputTokens,
            cache_read_input_tokens: step.cacheRead ?? 0,
            cache_creation_input_tokens: step.cacheWrite ?? 0,
          },
        ]
      : [],
  );
}

/**
 * One run of every question of a variant, in order, on `model`'s prices; null when the table has no price for it.
 * With Claude, the usage the API reported (cache reads and writes as they happened). Offline, caching is
 * simulated over the questions in turn, as one session within five minutes would see it: each question is a new
 * conversation, but the stable prefix (`stablePrefix`: tools, hidden prompt, system prompt) stays cached.
 */
export function variantDollars(
  runs: RunRecord[],
  model: string,
  offline: boolean,
  stablePrefix: number,
): RunDollars | null {
  const price = priceOf(model);
  if (!price) return null;
  const usages = runs.flatMap(usagesOf);
  const plain = usages.map((u) => ({ input_tokens: totalInput(u), output_tokens: u.output_tokens }));
  if (!offline) return { uncached: dollarsEach(plain, price), cached: dollarsEach(usages, price) };
  const minimum = cacheMinimum(model);
  // Call i of a question sends the question and i exchanges: 2i + 1 messages; fewer than before = a new question.
  const calls = runs.flatMap((run) =>
    usagesOf(run).map((u, i) => ({ input: totalInput(u), output: u.output_tokens, messages: 2 * i + 1 })),
  );
  return {
    uncached: dollarsEach(plain, price),
    cached: minimum === undefined ? null : dollarsEach(simulateCaching(calls, stablePrefix, minimum), price),
  };
}
