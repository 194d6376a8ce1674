// YOUR model adapter (lesson 7): finish makeModel until `npm run check -- model` passes every case.
//
// A model adapter turns the loop's ModelRequest into one HTTP call to the
// Messages API and the reply back into a ModelResponse. Scout's own
// (src/core/claude.ts) uses the official SDK; yours uses plain fetch, and is
// held to the same cases (lessons/cases/model.ts), run against a stand-in API on
// 127.0.0.1, so no key is needed. As shipped it never calls the API. Stuck?
// `npm run check -- model` prints a hint under each FAIL; lessons/solutions/model.ts is one answer.
import type { Model } from "../../src/core/loop.js";

export interface ModelOptions {
  /** Where the Messages API is, e.g. https://api.anthropic.com (no trailing slash). */
  baseURL: string;
  apiKey: string;
  name: string;
}

export function makeModel({ baseURL, apiKey, name }: ModelOptions): Model {
  return {
    name,
    async createMessage(request, { signal, onText }) {
      // TODO: POST `${baseURL}/v1/messages` with headers x-api-key, anthropic-version and
      // content-type, and a JSON body { model: name, max_tokens, system, tools, messages };
      // pass the signal to fetch; throw with the API's message when the answer is not ok;
      // call onText with the answer's text; return content, stop_reason, usage and model.
      void [baseURL, apiKey, request, signal, onText];
      return {
        model: name,
        content: [{ type: "text", text: "(not written yet)" }],
        stop_reason: "end_turn",
        usage: { input_tokens: 0, output_tokens: 0 },
      };
    },
  };
}
