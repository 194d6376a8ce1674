// Claude through the official SDK.
//
// new Anthropic() reads ANTHROPIC_API_KEY,
// ANTHROPIC_AUTH_TOKEN and ANTHROPIC_BASE_URL, so any server that speaks the
// Messages API can stand in for Claude.
import type Anthropic from "@anthropic-ai/sdk";
import type { Model } from "../agent.js";
import type { Counter } from "../tokens/count.js";

export const DEFAULT_MODEL = "claude-haiku-4-5";
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
  client ??= new Sdk(); // retries 429, 529 and 5xx itself (2 retries, with backoff)
  return client;
}

export function claudeModel(name = DEFAULT_MODEL): Model {
  return {
    name,
    async createMessage(request, { signal, onText }) {
      const sdk = await getClient();
      // Streaming, so the answer appears as it is written.
      const stream = sdk.messages.stream(
        {
          model: name,
          max_tokens: MAX_OUTPUT_TOKENS,
          system: request.system,
          tools: request.tools,
          messages: request.messages,
        },
        { signal },
      );
      if (onText) stream.on("text", (delta) => onText(delta));
      const message = await stream.finalMessage();
      return {
        model: message.model,
        content: message.content as Anthropic.ContentBlockParam[],
        stop_reason: message.stop_reason,
        usage: message.usage,
      };
    },
  };
}

/** Exact counts from the API's free count_tokens endpoint (one request per count). */
export function exactCounter(): Counter {
  return async (request) => (await (await getClient()).messages.countTokens(request)).input_tokens;
}

/** One line that says what went wrong with an API call, with the API's own message. */
export async function describeApiError(error: unknown): Promise<string> {
  const Sdk = await loadSdk();
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
  if (status === 401 || status === 403)
    return `bad key: the API refused the credentials (ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN): ${apiMessage}`;
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
