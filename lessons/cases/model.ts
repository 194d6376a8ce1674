// A model adapter's tests, in one place: test/exercises.test.ts runs them against Scout's
// own (src/core/claude.ts, through the SDK), and `npm run check -- model` against a
// learner's lessons/build/model.ts, which speaks the Messages API with plain fetch.
//
// Every case talks to lessons/cases/api-server.ts, a stand-in for the Messages API on
// 127.0.0.1, so no key and no network are needed.
import assert from "node:assert/strict";
import type { Model, ModelRequest } from "../../src/core/loop.js";
import { apiError, hang, reply, type ApiServer, text, toolUse } from "./api-server.js";
import type { Case } from "./case.js";

/** What a case gets: a model that talks to `server`, and the server, to script and inspect. */
export interface ModelSubject {
  model: Model;
  server: ApiServer;
}

const request: ModelRequest = {
  system: "You are a test.",
  tools: [
    {
      name: "grep",
      description: "search",
      input_schema: { type: "object", properties: {}, required: [], additionalProperties: false },
    },
  ],
  messages: [{ role: "user", content: "where is main?" }],
};

/** A system prompt as a string, whether sent as one or as text blocks. */
function plain(system: unknown): unknown {
  return Array.isArray(system) ? system.map((block) => block.text).join("") : system;
}

/** A copy without cache_control marks, which only tell the API where to cache. */
function withoutCacheMarks(value: any): any {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "cache_control")
      .map(([key, inner]) => [key, withoutCacheMarks(inner)]),
  );
}

/** A message whose content is one text block, written as the plain string it stands for. */
function blocksAsText(message: any): any {
  const { content } = message;
  const oneText = Array.isArray(content) && content.length === 1 && content[0].type === "text";
  return oneText ? { ...message, content: content[0].text } : message;
}

/** The last request the server received. */
function lastRequest(server: ApiServer) {
  const last = server.requests.at(-1);
  assert.ok(last, "the API received no request");
  return last;
}

export const modelCases: Case<ModelSubject>[] = [
  {
    name: "POSTs the request to /v1/messages with the model, max_tokens, system, tools and messages",
    hint: 'fetch(baseURL + "/v1/messages", { method: "POST", body: JSON.stringify({ model, max_tokens, system, tools, messages }) }).',
    run: async ({ model, server }) => {
      server.script(reply([text("hi")]));
      await model.createMessage(request, {});
      const sent = lastRequest(server);
      assert.equal(sent.path, "/v1/messages");
      assert.equal(sent.body.model, model.name);
      assert.equal(typeof sent.body.max_tokens, "number");
      // Prompt-caching marks (cache_control) and text given as blocks are allowed: Scout's adapter adds both.
      assert.equal(plain(sent.body.system), request.system);
      assert.deepEqual(withoutCacheMarks(sent.body.tools), request.tools);
      assert.deepEqual(withoutCacheMarks(sent.body.messages).map(blocksAsText), request.messages);
    },
  },
  {
    name: "sends the key (as x-api-key), an anthropic-version and a JSON content-type",
    hint: 'Headers: { "x-api-key": apiKey, "anthropic-version": "2023-06-01", "content-type": "application/json" }.',
    run: async ({ model, server }) => {
      server.script(reply([text("hi")]));
      await model.createMessage(request, {});
      const { headers } = lastRequest(server);
      // The API takes the key either way; this version of the official SDK sends a Bearer token.
      assert.match(String(headers["x-api-key"] ?? headers.authorization), /^(Bearer )?test-key$/);
      assert.match(String(headers["anthropic-version"]), /^\d{4}-\d\d-\d\d$/);
      assert.match(String(headers["content-type"]), /application\/json/);
    },
  },
  {
    name: "returns the reply's content, stop_reason, usage and model",
    hint: "The API's JSON has the same field names as ModelResponse: copy content, stop_reason, usage and model.",
    run: async ({ model, server }) => {
      server.script(reply([text("main is at src/app.ts:1")]));
      const response = await model.createMessage(request, {});
      assert.deepEqual(response.content, [{ type: "text", text: "main is at src/app.ts:1" }]);
      assert.equal(response.stop_reason, "end_turn");
      assert.equal(response.usage.input_tokens, 100);
      assert.equal(response.usage.output_tokens, 20);
      assert.equal(response.model, model.name);
    },
  },
  {
    name: "returns a tool_use block with its input as an object",
    hint: "The loop runs tool_use blocks: keep id, name and input as the API sent them.",
    run: async ({ model, server }) => {
      server.script(reply([text("Searching."), toolUse("t1", "grep", { pattern: "main" })]));
      const response = await model.createMessage(request, {});
      assert.equal(response.stop_reason, "tool_use");
      assert.deepEqual(response.content[1], { type: "tool_use", id: "t1", name: "grep", input: { pattern: "main" } });
    },
  },
  {
    name: "passes the answer's text to onText (whole or in pieces)",
    hint: "Without streaming, call onText once with the text blocks joined; with streaming, once per text delta.",
    run: async ({ model, server }) => {
      server.script(reply([text("Hello, "), toolUse("t1", "grep", { pattern: "x" })]));
      const pieces: string[] = [];
      await model.createMessage(request, { onText: (piece) => pieces.push(piece) });
      assert.equal(pieces.join(""), "Hello, ");
    },
  },
  {
    name: "rejects with the API's own message when the API answers with an error",
    hint: "Check response.ok; if not, read the JSON body and throw an Error holding body.error.message.",
    run: async ({ model, server }) => {
      server.script(apiError(400, "invalid_request_error", "messages: roles must alternate"));
      await assert.rejects(model.createMessage(request, {}), /roles must alternate/);
    },
  },
  {
    name: "stops waiting when the signal is aborted",
    hint: "Pass the signal to fetch: fetch(url, { …, signal }).",
    run: async ({ model, server }) => {
      server.script(hang);
      const controller = new AbortController();
      const call = model.createMessage(request, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(call);
    },
  },
];
