// Backing off on rate limits: a model that, when the API answers 429, waits and asks again, so a lab run
// with many questions in flight slows down instead of losing answers.
//
// Scout's own withRetries (models/claude.ts) already retries a 429 twice;
// this is the lab's longer patience on top, because a lab run sends hundreds of
// requests in a burst and a rate limit is then expected, not an accident.
import type { Model } from "../core/loop.js";
import { retryAfterSeconds } from "../guards/retries.js";

/** Most extra attempts after a rate-limited call, and the waits between them (doubling, capped). */
export const MAX_RATE_LIMIT_RETRIES = 5;
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 60_000;

export interface BackoffOptions {
  retries?: number;
  baseMs?: number;
  maxMs?: number;
  /** Waits; tests pass one that records the waits instead. */
  sleep?: (ms: number) => Promise<void>;
  /** Told before each wait, for the progress line. */
  onWait?: (ms: number, attempt: number) => void;
}

/** The model, retrying a rate-limited call after a wait: the server's retry-after if given, else doubling. */
export function withBackoff(model: Model, options: BackoffOptions = {}): Model {
  const {
    retries = MAX_RATE_LIMIT_RETRIES,
    baseMs = BACKOFF_BASE_MS,
    maxMs = BACKOFF_MAX_MS,
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    onWait,
  } = options;
  return {
    name: model.name,
    async createMessage(request, callOptions) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await model.createMessage(request, callOptions);
        } catch (error) {
          if (!isRateLimit(error) || attempt > retries) throw error;
          const asked = retryAfterSeconds(error);
          const wait = Math.min(maxMs, asked === undefined ? baseMs * 2 ** (attempt - 1) : asked * 1000);
          onWait?.(wait, attempt);
          await sleep(wait);
        }
      }
    },
  };
}

/** A 429 answer, or a rate_limit_error event inside a stream that had started. */
export function isRateLimit(error: unknown): boolean {
  const { status, error: body } = (error ?? {}) as { status?: number; error?: { error?: { type?: string } } };
  return status === 429 || body?.error?.type === "rate_limit_error";
}
