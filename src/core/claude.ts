// Claude through the official SDK, its answer streamed.
//
// new Anthropic() reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_BASE_URL, so any server that
// speaks the Messages API can stand in for Claude.
import type Anthropic from "@anthropic-ai/sdk";
import { cappedFetch } from "../guards/answer-cap.js";
import { messageFromEvents } from "../guards/message-events.js";
import { loadSdk, type RetryNotice, withRetries } from "../guards/retries.js";
import { badUsageNotice, checkUsage } from "../guards/usage-check.js";
import type { Model, ModelRequest } from "./loop.js";

/**
 * The cheapest current model in the tables (src/tokens/prices.ts, 2026-12-01): Haiku 5.5, at a tenth of Haiku
 * 4.5's rates for prompts up to 100,000 tokens, which Scout's questions stay well under. Haiku 4.5 also caches
 * no prefix under 4,096 tokens, so short sessions and lab questions never cached.
 */
export const DEFAULT_MODEL = "claude-haiku-5-5";
/** The longest answer one model call may write. */
export const MAX_OUTPUT_TOKENS = 4096;

/** True when the environment holds a credential, so Scout talks to Claude. */
export function hasCredentials(env = process.env): boolean {
  return Boolean(env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN);
}

let client: Anthropic | undefined;
export async function getClient(): Promise<Anthropic> {
  const Sdk = await loadSdk();
  // Scout retries itself (withRetries), so that it can say when it waits and why; cappedFetch bounds each answer.
  client ??= new Sdk({ maxRetries: 0, fetch: cappedFetch });
  return client;
}

/** How a request becomes the API's system, tools and messages: as it is, or with cache breakpoints added. */
export type PrepareRequest = (
  request: ModelRequest,
) => Pick<Anthropic.MessageCreateParams, "system" | "tools" | "messages">;

/** The body of a Messages API call exactly as Scout sends it (`/request` shows it). */
export function apiRequest(name: string, request: ModelRequest, prepare: PrepareRequest = (plain) => plain) {
  return { model: name, max_tokens: MAX_OUTPUT_TOKENS, ...prepare(request) };
}

/**
 * Claude, its answer streamed so it appears as it is written. `prepare` (the CLI's: src/models/cache.ts) may add
 * cache breakpoints. Usage that is not a count of tokens is counted as 0, and `onNotice` is told so once.
 */
export function claudeModel(
  name = DEFAULT_MODEL,
  onRetry?: RetryNotice,
  { prepare, onNotice = onRetry }: { prepare?: PrepareRequest; onNotice?: RetryNotice } = {},
): Model {
  let toldBadUsage = false;
  const stream = async (request: ModelRequest, { signal, onText }: Parameters<Model["createMessage"]>[1]) => {
    const sdk = await getClient();
    const events = await sdk.messages.create({ ...apiRequest(name, request, prepare), stream: true }, { signal });
    const message = await messageFromEvents(events, onText);
    signal?.throwIfAborted(); // the SDK's stream just ends when aborted
    return message;
  };
  return {
    name,
    createMessage: async (request, options) => {
      const response = await withRetries(() => stream(request, options), onRetry, options.signal);
      const { usage, bad } = checkUsage(response.usage);
      if (bad.length && !toldBadUsage) onNotice?.(badUsageNotice(bad));
      toldBadUsage ||= bad.length > 0;
      return { ...response, usage };
    },
  };
}
