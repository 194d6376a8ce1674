// Published per-model token figures that a count cannot see offline: the hidden tool-use system prompt, and the shortest prefix the API caches.
//
// Both tables are dated and sourced; a model missing from them is reported
// as unknown, never as 0.
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

/** The hidden tool-use prompt for Scout's requests (tool_choice auto), or undefined when unpublished. */
export function toolPromptTokens(model: string): number | undefined {
  return TOOL_PROMPT_TOKENS[modelKey(model)]?.auto;
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
  return CACHE_MINIMUM_TOKENS[modelKey(model)];
}
