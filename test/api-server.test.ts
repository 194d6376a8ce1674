// The test server itself, through the SDK in this process: the JSON answers
// (non-streaming and count_tokens) that the CLI tests do not reach.
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiError, count, reply, startApiServer, text, toolUse, type ApiServer } from "../lessons/cases/api-server.js";

let api: ApiServer;
let client: Anthropic;
beforeEach(async () => {
  api = await startApiServer();
  client = new Anthropic({ baseURL: api.url, apiKey: "test-key", maxRetries: 0 });
});
afterEach(() => api.close());

describe("the scripted Messages-API server", () => {
  it("answers messages.create with the scripted message as JSON", async () => {
    api.script(reply([text("Searching."), toolUse("toolu_1", "grep", { pattern: "x" })]));
    const message = await client.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "q" }],
    });
    expect(message).toMatchObject({
      model: "m",
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Searching." },
        { type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "x" } },
      ],
    });
    expect(api.requests[0].body).toEqual({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "q" }] });
  });

  it("streams the same message as events the SDK puts back together", async () => {
    api.script(reply([text("Searching."), toolUse("toolu_1", "grep", { pattern: "x" })]));
    const message = await client.messages
      .stream({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "q" }] })
      .finalMessage();
    expect(message.content).toEqual([
      { type: "text", text: "Searching." },
      { type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "x" } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({ input_tokens: 100, output_tokens: 20 });
  });

  it("answers count_tokens from its own queue, and says when nothing is scripted", async () => {
    api.scriptCount(count(42));
    const params = { model: "m", messages: [{ role: "user" as const, content: "q" }] };
    expect(await client.messages.countTokens(params)).toEqual({ input_tokens: 42 });
    await expect(client.messages.countTokens(params)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("nothing scripted"),
    });
    expect(api.requests.map((request) => request.path)).toEqual([
      "/v1/messages/count_tokens",
      "/v1/messages/count_tokens",
    ]);
  });

  it("sends scripted errors with the API's error body", async () => {
    api.script(apiError(529, "overloaded_error", "Overloaded"));
    await expect(
      client.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "q" }] }),
    ).rejects.toMatchObject({
      status: 529,
      error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
  });
});
