// Token estimates without a network: @anthropic-ai/tokenizer is the tokenizer
// of older Claude models, so its counts are approximate for current ones.
// Everything it produces is labelled "~" or "estimate".
import { createRequire } from "node:module";

let countTokens: ((text: string) => number) | undefined;

/** Estimated tokens of a text. The tokenizer loads on first use, so start-up stays fast. */
export function estimateTokens(text: string): number {
  countTokens ??= (createRequire(import.meta.url)("@anthropic-ai/tokenizer") as { countTokens: (text: string) => number }).countTokens;
  return countTokens(text);
}
