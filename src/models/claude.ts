// Claude through the official SDK.
//
// new Anthropic() reads ANTHROPIC_API_KEY,
// ANTHROPIC_AUTH_TOKEN and ANTHROPIC_BASE_URL, so any server that speaks the
// Messages API can stand in for Claude.
import type Anthropic from "@anthropic-ai/sdk";
import type { Model, ModelRequest, ModelResponse } from "../agent.js";
import { escapePath } from "../escape.js";
import type { Counter } from "../tokens/count.js";
import { badUsageNotice, checkUsage } from "./usage-check.js";
import { AnswerTooLarge, cappedFetch } from "./answer-cap.js";
import { withCacheBreakpoints } from "./cache.js";
import { messageFromEvents } from "./message-events.js";
import { withoutUrlCredentials } from "./url-credentials.js";

/**
 * The cheapest current model in the tables (src/tokens/prices.ts, 2026-12-01): Haiku 5.5, at a tenth of Haiku
 * 4.5's rates for prompts up to 100,000 tokens, which Scout's questions stay well under. Haiku 4.5 also caches
 * no prefix under 4,096 tokens, so short sessions and lab questions never cached.
 */
export const DEFAULT_MODEL = "claude-haiku-5-5";
/** Retries of a call answered 408, 409, 429, 529 or 5xx, or that could not reach the API. */
export const MAX_RETRIES = 2;
/** The longest wait before a retry, whatever the server's retry-after header asks for. */
const MAX_RETRY_WAIT_S = 60;
/** The longest answer one model call may write. */
export const MAX_OUTPUT_TOKENS = 4096;

/** True when the environment holds a credential, so Scout talks to Claude. */
export function hasCredentials(env = process.env): boolean {
  return Boolean(env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN);
}

/** The SDK is loaded on first use, so `scout --version` and the prompt appear fast. */
async function loadSdk() {
  return (await import("@anthropic-ai/sdk")).default;
}

let client: Anthropic | undefined;
export async function getClient(): Promise<Anthropic> {
  const Sdk = await loadSdk();
  // Scout retries itself (withRetries), so that it can say when it waits and why; cappedFetch bounds each answer.
  client ??= new Sdk({ maxRetries: 0, fetch: cappedFetch });
  return client;
}

/** Called before each retry with a line such as "rate limited (429), retrying in 2 s (1/2)". */
export type RetryNotice = (text: string) => void;

/**
 * Runs an API call, and again after a wait when it failed in a way that may
 * pass (rate limits, overloads, server errors, the network), at most
 * MAX_RETRIES times. The wait is the server's retry-after, else 1 s, 2 s.
 */
export async function withRetries<T>(call: () => Promise<T>, onRetry?: RetryNotice, signal?: AbortSignal): Promise<T> {
  const Sdk = await loadSdk();
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const why = retryable(Sdk, error);
      if (!why || attempt > MAX_RETRIES || signal?.aborted) throw error;
      const asked = retryAfterSeconds(error);
      const seconds = asked === undefined ? 2 ** (attempt - 1) : Math.min(asked, MAX_RETRY_WAIT_S);
      onRetry?.(`${why}, retrying in ${seconds} s (${attempt}/${MAX_RETRIES})`);
      await sleep(seconds * 1000, signal);
    }
  }
}

/** The server's retry-after header in seconds, when the error carries one (the lab's backoff reads it too). */
export function retryAfterSeconds(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  const value =
    headers instanceof Headers
      ? headers.get("retry-after")
      : (headers as Record<string, string> | undefined)?.["retry-after"];
  const seconds = Number(value);
  return value && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** Why an error may pass if tried again ("rate limited (429)"), or undefined if it will not. */
function retryable(Sdk: Awaited<ReturnType<typeof loadSdk>>, error: unknown): string | undefined {
  if (error instanceof Sdk.APIUserAbortError) return undefined;
  if (error instanceof Sdk.APIConnectionError) return "could not reach the API";
  if (!(error instanceof Sdk.APIError) || error.status === undefined) return undefined; // mid-stream errors too
  const status = error.status;
  if (status === 429) return "rate limited (429)";
  if (status === 529) return "overloaded (529)";
  if (status >= 500) return `server error (${status})`;
  if (status === 408 || status === 409) return `request timeout or conflict (${status})`;
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** The body of a Messages API call exactly as Scout sends it (`/request` shows it). */
export function apiRequest(name: string, request: ModelRequest, cache: boolean) {
  return { model: name, max_tokens: MAX_OUTPUT_TOKENS, ...withCacheBreakpoints(request, cache) };
}

/**
 * Claude; `cache` (on unless --no-cache) marks each request for prompt caching (see cache.ts).
 * Usage that is not a count of tokens is counted as 0, and `onNotice` (default: `onRetry`) is told so once.
 */
export function claudeModel(
  name = DEFAULT_MODEL,
  onRetry?: RetryNotice,
  { cache = true, onNotice = onRetry }: { cache?: boolean; onNotice?: RetryNotice } = {},
): Model {
  let toldBadUsage = false;
  return {
    name,
    createMessage: async (request, options) => {
      const response = await withRetries(() => streamMessage(name, request, options, cache), onRetry, options.signal);
      const { usage, bad } = checkUsage(response.usage);
      if (bad.length && !toldBadUsage) onNotice?.(badUsageNotice(bad));
      toldBadUsage ||= bad.length > 0;
      return { ...response, usage };
    },
  };
}

/** One streamed call, so the answer appears as it is written (put together by messageFromEvents). */
async function streamMessage(
  name: string,
  request: Parameters<Model["createMessage"]>[0],
  { signal, onText }: Parameters<Model["createMessage"]>[1],
  cache: boolean,
): Promise<ModelResponse> {
  const sdk = await getClient();
  const events = await sdk.messages.create({ ...apiRequest(name, request, cache), stream: true }, { signal });
  const message = await messageFromEvents(events, onText);
  signal?.throwIfAborted(); // the SDK's stream just ends when aborted
  return message;
}

/** Exact counts from the API's free count_tokens endpoint (one request per count). */
export function exactCounter(onRetry?: RetryNotice): Counter {
  return (request) =>
    withRetries(async () => (await (await getClient()).messages.countTokens(request)).input_tokens, onRetry);
}

/**
 * One line that says what went wrong with an API call, with the API's own message: control
 * characters escaped (src/escape.ts) and credentials in a URL cut out, since it is printed and traced.
 */
export async function describeApiError(error: unknown): Promise<string> {
  return escapePath(withoutUrlCredentials(await whatWentWrong(error)));
}

async function whatWentWrong(error: unknown): Promise<string> {
  const Sdk = await loadSdk();
  const tooLarge = error instanceof AnswerTooLarge ? error : (error as Error | undefined)?.cause;
  if (tooLarge instanceof AnswerTooLarge) return tooLarge.message;
  if (error instanceof Sdk.APIUserAbortError) return "cancelled";
  if (error instanceof Sdk.APIConnectionError) {
    return `network: could not reach the API at ${(await getClient()).baseURL} (${innermostCause(error).message})`;
  }
  if (!(error instanceof Sdk.APIError)) return `unexpected error: ${(error as Error).message}`;
  const body = error.error as { error?: { type?: string; message?: string } } | undefined;
  const apiMessage = body?.error?.message ?? error.message;
  // An error event inside a stream that had started (HTTP 200) has no status, only the API's
  // error type, and the SDK does not retry it.
  if (error.status === undefined) {
    const what =
      { overloaded_error: "overloaded", rate_limit_error: "rate limited", api_error: "server error" }[
        body?.error?.type ?? ""
      ] ?? "API error";
    return `${what}, in the middle of the answer: ${apiMessage}`;
  }
  const status = error.status;
  if (status === 401)
    return `bad key: the API refused the credentials (ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN): ${apiMessage}`;
  if (status === 403)
    return `forbidden (403): the key was accepted but may not do this (the model, or the organization's permissions): ${apiMessage}`;
  if (status === 429) return `rate limited, still after retries: ${apiMessage}`;
  if (status === 529) return `overloaded, still after retries: ${apiMessage}`;
  if (status >= 500) return `server error (${status}), still after retries: ${apiMessage}`;
  if (status >= 400) return `invalid request (${status}): ${apiMessage}`;
  return `API error (${status}): ${apiMessage}`;
}

/** fetch's own error only says "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is a cause further down. */
function innermostCause(error: Error): Error {
  while (error.cause instanceof Error) error = error.cause;
  return error;
}
