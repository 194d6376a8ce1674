// One line for a person that says what went wrong with a Messages API call, in the API's own words where it
// gave some: printed by the CLI and the REPL, and written to the trace.
import { getClient } from "../core/claude.js";
import { AnswerTooLarge } from "../guards/answer-cap.js";
import { escapePath } from "../guards/escape.js";
import { loadSdk } from "../guards/retries.js";
import { withoutUrlCredentials } from "../guards/url-credentials.js";

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
