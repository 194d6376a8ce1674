// One solution to lessons/build/model.ts (lesson 7): the Messages API with plain fetch, no SDK, no streaming.
//
// What it leaves out, and Scout's SDK-based adapter has: streaming (text
// appears as it is written), retries with backoff on 429, 529 and 5xx, and
// typed errors. npm test checks that it passes the same cases.
import type { Model, ModelResponse } from "../../src/core/loop.js";

/** The API version this adapter speaks; the API requires it on every request. */
const ANTHROPIC_VERSION = "2023-06-01";
const MAX_OUTPUT_TOKENS = 4096;

export interface ModelOptions {
  baseURL: string;
  apiKey: string;
  name: string;
}

export function makeModel({ baseURL, apiKey, name }: ModelOptions): Model {
  return {
    name,
    async createMessage(request, { signal, onText }) {
      const response = await fetch(`${baseURL}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION, "content-type": "application/json" },
        body: JSON.stringify({ model: name, max_tokens: MAX_OUTPUT_TOKENS, ...request }),
        signal,
      });
      const body = (await response.json()) as { error?: { message?: string } };
      if (!response.ok) throw new Error(`${response.status}: ${body?.error?.message ?? "no message"}`);
      const message = body as unknown as ModelResponse;
      const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      if (text) onText?.(text);
      return { model: message.model, content: message.content, stop_reason: message.stop_reason, usage: message.usage };
    },
  };
}
