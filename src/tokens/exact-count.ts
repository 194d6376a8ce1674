// Exact token counts from the API's free count_tokens endpoint (one request per count), retried as calls are.
import { getClient } from "../core/claude.js";
import { type RetryNotice, withRetries } from "../guards/retries.js";
import type { Counter } from "./count.js";

export function exactCounter(onRetry?: RetryNotice): Counter {
  return (request) =>
    withRetries(async () => (await (await getClient()).messages.countTokens(request)).input_tokens, onRetry);
}
