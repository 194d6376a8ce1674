// Retrying a Messages API call that failed in a way that may pass (rate limits, overloads, server errors, the
// network), at most MAX_RETRIES times, waiting what the server asks for, within bounds; Ctrl-C stops the wait.

/** Retries of a call answered 408, 409, 429, 529 or 5xx, or that could not reach the API. */
export const MAX_RETRIES = 2;
/** The longest wait before a retry, whatever the server's retry-after header asks for. */
const MAX_RETRY_WAIT_S = 60;

/**
 * The SDK is loaded on first use, so `scout --version` and the prompt appear fast; and as the package's CommonJS
 * build, which Node loads in ~0.27 s of CPU where its ES modules take ~0.36 s (six runs each, load 4): the same
 * SDK, some 200 small files read in one go instead of through the ES module loader. Every SDK value Scout uses
 * comes from here (elsewhere Scout imports its types only), so the error classes checked below are this copy's.
 */
export async function loadSdk(): Promise<typeof import("@anthropic-ai/sdk").default> {
  const { createRequire } = await import("node:module");
  return createRequire(import.meta.url)("@anthropic-ai/sdk").default;
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
