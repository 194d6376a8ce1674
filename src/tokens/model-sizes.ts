// Published per-model token figures that a count cannot see offline: the hidden tool-use system prompt, the shortest prefix the API caches, and how many more tokens a newer tokenizer counts.
//
// The tables are dated and sourced; a model missing from them is reported
// as unknown, never as 0.
import { type Counter, estimateCounter } from "./count.js";
import { modelKey } from "./prices.js";

/** When the tables were copied. */
export const MODEL_SIZES_DATE = "2026-12-01";

/** Its "Pricing" section: "Tool use system prompt token count". */
export const TOOL_PROMPT_SOURCE = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview";
/**
 * The system prompt the API adds whenever a request carries tools, in tokens:
 * `auto` with tool_choice auto or none (what Scout sends), `any` with any or tool.
 */
export const TOOL_PROMPT_TOKENS: Record<string, { auto: number; any: number }> = {
  "claude-opus-4-8": { auto: 290, any: 410 },
  "claude-opus-4-7": { auto: 675, any: 804 },
  "claude-opus-4-6": { auto: 497, any: 589 },
  "claude-opus-4-5": { auto: 496, any: 588 },
  "claude-opus-4-1": { auto: 313, any: 315 },
  "claude-sonnet-5": { auto: 354, any: 474 },
  "claude-sonnet-4-6": { auto: 497, any: 589 },
  "claude-sonnet-4-5": { auto: 496, any: 588 },
  "claude-haiku-4-5": { auto: 496, any: 588 },
};

// No published hidden-prompt size was found (2026-12-01) for claude-opus-5, claude-opus-5-5, claude-sonnet-5-5,
// claude-haiku-5-5, claude-fable-5, claude-fable-5-1 or claude-mythos-5: the tool-use page's table stops at the
// models above. They count as unknown (offline estimates leave the hidden prompt out, and say so).

/** Its section "Cache limitations": the minimum cacheable prompt length. */
export const CACHE_MINIMUM_SOURCE = "https://platform.claude.com/docs/en/build-with-claude/prompt-caching";
/** The shortest prefix (tokens up to a breakpoint) the API will cache; a shorter one is sent uncached, without error. */
export const CACHE_MINIMUM_TOKENS: Record<string, number> = {
  "claude-opus-5": 512,
  "claude-opus-4-8": 1024,
  "claude-opus-4-7": 4096,
  "claude-opus-4-6": 4096,
  "claude-opus-4-5": 4096,
  "claude-opus-4-1": 1024,
  "claude-sonnet-4-6": 2048,
  "claude-sonnet-4-5": 1024,
  "claude-haiku-4-5": 4096,
};

// No published minimum was found (2026-12-01) for claude-sonnet-5, claude-opus-5-5, claude-sonnet-5-5,
// claude-haiku-5-5, claude-fable-5, claude-fable-5-1 or claude-mythos-5 (only third-party articles, which
// disagree with each other): they count as unknown, and caching notes say so.

/** The token-counting page: "use a newer tokenizer … approximately 30 percent more tokens than on earlier models". */
export const TOKENIZER_SOURCE = "https://platform.claude.com/docs/en/build-with-claude/token-counting";
/**
 * How many tokens a model counts for the text the local tokenizer (that of the earlier models) counts as 1, per
 * model family, where published: Claude Opus 4.7 and later Opus models, Sonnet 5, Fable 5 and Mythos 5 (the
 * token-counting page), and Haiku 5.5 ("the same newer tokenizer as Claude 4.7 and later models … approximately
 * 30% more tokens than on Claude Haiku 4.5", its overview page). Models not listed count as the local tokenizer does.
 */
export const TOKENIZER_RATIO: Record<string, number> = Object.fromEntries(
  [
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-opus-5-5",
    "claude-sonnet-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-fable-5",
    "claude-fable-5-1",
    "claude-mythos-5",
  ].map((model) => [model, 1.3]),
);

/** The model's published tokenizer ratio against the local tokenizer (1 when it counts as the earlier models do). */
export function tokenizerRatio(model: string): number {
  return Object.hasOwn(TOKENIZER_RATIO, modelKey(model)) ? TOKENIZER_RATIO[modelKey(model)] : 1;
}

/** The offline counter for a model: the local estimate times the model's published tokenizer ratio. */
export const scaledEstimateCounter: Counter = async (request) =>
  Math.round((await estimateCounter(request)) * tokenizerRatio(request.model));

/** " (×1.30: MODEL's newer tokenizer, ~30% more tokens, published)" for a model with a ratio, else "". */
export function tokenizerNote(model: string): string {
  const ratio = tokenizerRatio(model);
  return ratio === 1
    ? ""
    : ` (×${ratio.toFixed(2)}: ${modelKey(model)}'s newer tokenizer counts ~${Math.round((ratio - 1) * 100)}% more tokens, as published)`;
}

/** The hidden tool-use prompt for Scout's requests (tool_choice auto), or undefined when unpublished. */
export function toolPromptTokens(model: string): number | undefined {
  return Object.hasOwn(TOOL_PROMPT_TOKENS, modelKey(model)) ? TOOL_PROMPT_TOKENS[modelKey(model)].auto : undefined;
}

/**
 * The one rule every view follows (lab, `scout tokens`, /request, the what-if): the hidden prompt is counted on
 * every request that carries tools, and on no other. Offline counts cannot see it, so they add this; the API's
 * usage and count_tokens already hold it. 0 when no tools are sent or the size is unpublished.
 */
export function hiddenPromptTokens(model: string, toolsSent: number): number {
  return toolsSent > 0 ? (toolPromptTokens(model) ?? 0) : 0;
}

/** The model's minimum cacheable prefix, or undefined when unknown. */
export function cacheMinimum(model: string): number | undefined {
  return Object.hasOwn(CACHE_MINIMUM_TOKENS, modelKey(model)) ? CACHE_MINIMUM_TOKENS[modelKey(model)] : undefined;
}
