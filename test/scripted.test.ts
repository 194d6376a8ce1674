// The scripted model: replies in order, copies of the requests, text streamed, and a clear end.
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/core/loop.js";
import { SCRIPTED_USAGE, scriptedModel, text, toolUse } from "../src/models/scripted.js";

const request = (question: string): ModelRequest => ({
  system: "s",
  tools: [],
  messages: [{ role: "user", content: question }],
});

describe("scriptedModel", () => {
  it("replays its replies in order, streams their text, and keeps a copy of each request", async () => {
    const model = scriptedModel([
      { content: [text("Looking."), toolUse("t1", "grep", { pattern: "x" })], stop_reason: "tool_use" },
      { content: [text("Done.")], stop_reason: "end_turn", usage: { input_tokens: 7, output_tokens: 3 } },
    ]);
    const streamed: string[] = [];
    const sent = request("first?");
    const first = await model.createMessage(sent, { onText: (t) => streamed.push(t) });
    sent.messages.push({ role: "assistant", content: "changed afterwards" });
    const second = await model.createMessage(request("second?"), {});

    expect(first).toMatchObject({ model: "scripted", stop_reason: "tool_use", usage: SCRIPTED_USAGE });
    expect(second).toMatchObject({ stop_reason: "end_turn", usage: { input_tokens: 7, output_tokens: 3 } });
    expect(streamed).toEqual(["Looking."]);
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 1]);
    expect(model.replies).toEqual([]);
  });

  it("throws a scripted error, and says so when the script has run out", async () => {
    const model = scriptedModel([new Error("overloaded")]);
    await expect(model.createMessage(request("a"), {})).rejects.toThrow("overloaded");
    await expect(model.createMessage(request("b"), {})).rejects.toThrow("the script ran out of replies");
  });

  it("stops at once when the call is already cancelled", async () => {
    const model = scriptedModel([{ content: [text("never")], stop_reason: "end_turn" }]);
    await expect(model.createMessage(request("a"), { signal: AbortSignal.abort() })).rejects.toThrow();
    expect(model.replies).toHaveLength(1);
  });
});
