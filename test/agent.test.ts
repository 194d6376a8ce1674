// The loop against a scripted model: every request it sends is recorded, so
// the tests assert the exact history the model saw on each call.
import { describe, expect, it } from "vitest";
import { TurnQuit, runTurn, type Decision, type MessageParam, type StepEvent, type Verdict } from "../src/agent.js";
import { type ScriptedReply as Reply, scriptedModel, text, toolUse as use } from "../src/models/scripted.js";
import { ok, type Tool } from "../src/tools/tool.js";
import { Workspace } from "../src/workspace/workspace.js";
import { makeTree } from "./helpers.js";

function setup(replies: Reply[], maxSteps?: number, pause?: (decision: Decision) => Verdict) {
  const root = makeTree({ "src/app.ts": "export function main() {\n  return 42;\n}\n", "README.md": "# demo\n" });
  const model = scriptedModel(replies);
  const { requests } = model;
  const events: StepEvent[] = [];
  const history: MessageParam[] = [];
  const run = (question: string, signal?: AbortSignal) =>
    runTurn(question, history, {
      model,
      workspace: new Workspace(root),
      maxSteps,
      signal,
      onStep: (e) => events.push(e),
      pause,
    });
  return { run, requests, events, history };
}

describe("runTurn", () => {
  it("runs a tool round trip and sends its result back", async () => {
    const { run, requests, history } = setup([
      { content: [text("Searching."), use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
      { content: [text("main is at src/app.ts:1")], stop_reason: "end_turn" },
    ]);
    const result = await run("where is main?");
    expect(result).toMatchObject({
      text: "main is at src/app.ts:1",
      stopReason: "end_turn",
      modelCalls: 2,
      toolCalls: ["grep"],
    });
    expect(requests[0].messages).toEqual([{ role: "user", content: "where is main?" }]);
    expect(requests[0].tools.map((t) => t.name)).toEqual(["read_file", "list_files", "glob", "grep"]);
    expect(requests[1].messages).toEqual([
      { role: "user", content: "where is main?" },
      { role: "assistant", content: [text("Searching."), use("t1", "grep", { pattern: "main" })] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "src/app.ts:1:export function main() {", is_error: false },
        ],
      },
    ]);
    expect(history).toHaveLength(4);
    expect(history[3]).toEqual({ role: "assistant", content: [text("main is at src/app.ts:1")] });
  });

  it("answers several tool_use blocks of one message in one user message, in order", async () => {
    const { run, requests } = setup([
      { content: [use("a", "list_files", {}), use("b", "read_file", { path: "README.md" })], stop_reason: "tool_use" },
      { content: [text("done")], stop_reason: "end_turn" },
    ]);
    await run("look around");
    expect(requests[1].messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "a",
          content: expect.stringMatching(/src\/\n|README.md\n/),
          is_error: false,
        },
        { type: "tool_result", tool_use_id: "b", content: "1\t# demo\n(lines 1-1 of 1)", is_error: false },
      ],
    });
  });

  it("turns an unknown tool and bad arguments into is_error results and goes on", async () => {
    const { run, requests, events } = setup([
      { content: [use("a", "delete_everything", {}), use("b", "read_file", { path: 7 })], stop_reason: "tool_use" },
      { content: [text("sorry")], stop_reason: "end_turn" },
    ]);
    const result = await run("break things");
    expect(result.stopReason).toBe("end_turn");
    const results = requests[1].messages[2].content as Array<{ content: string; is_error: boolean }>;
    expect(results[0]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('unknown tool "delete_everything"'),
    });
    expect(results[1]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('argument "path" must be a string'),
    });
    expect(events.filter((e) => e.type === "tool").map((e) => e.type === "tool" && e.result.isError)).toEqual([
      true,
      true,
    ]);
  });

  it("stops at the step cap with a valid history", async () => {
    const loop: Reply = { content: [use("x", "list_files", {})], stop_reason: "tool_use" };
    const { run, requests, history } = setup([loop, loop, loop, loop], 2);
    const result = await run("loop forever");
    expect(result.stopReason).toBe("step_cap");
    expect(result.text).toContain("Stopped after 2 model calls");
    expect(requests).toHaveLength(2);
    // user, assistant(tool_use), user(result), assistant(tool_use), user(result), assistant(note)
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(history[5]).toEqual({ role: "assistant", content: result.text });
  });

  it("shows a max_tokens answer and drops an unfinished tool_use from the history", async () => {
    const { run, history } = setup([
      { content: [text("The answer is"), use("cut", "grep", { pattern: "x" })], stop_reason: "max_tokens" },
    ]);
    const result = await run("long question");
    expect(result).toMatchObject({ text: "The answer is", stopReason: "max_tokens", modelCalls: 1 });
    expect(history[1]).toEqual({ role: "assistant", content: [text("The answer is")] });
  });

  it("ends the turn on a stop reason it does not know, without resending", async () => {
    const { run, requests, history } = setup([{ content: [], stop_reason: "something_new" }]);
    const result = await run("hi");
    expect(result.stopReason).toBe("something_new");
    expect(requests).toHaveLength(1);
    expect(history[1]).toEqual({ role: "assistant", content: [text("(no text)")] });
  });

  it("rolls the turn back when the model throws mid-turn, so the next question works", async () => {
    const { run, requests, history } = setup([
      { content: [text("first")], stop_reason: "end_turn" },
      { content: [use("t", "grep", { pattern: "main" })], stop_reason: "tool_use" },
      new Error("overloaded"),
      { content: [text("third")], stop_reason: "end_turn" },
    ]);
    await run("one");
    await expect(run("two")).rejects.toThrow("overloaded");
    expect(history).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: [text("first")] },
    ]);
    await run("three");
    expect(requests[3].messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(requests[3].messages[2]).toEqual({ role: "user", content: "three" });
  });

  it("stops before the next model call when cancelled while tools run", async () => {
    const controller = new AbortController();
    const { run, requests, history } = setup([{ content: [use("t", "list_files", {})], stop_reason: "tool_use" }]);
    const turn = run("cancel me", controller.signal);
    controller.abort();
    await expect(turn).rejects.toThrow();
    expect(requests.length).toBeLessThanOrEqual(1);
    expect(history).toEqual([]);
  });

  it("checks for Ctrl-C before each tool call: of 30 slow calls in one message, one runs", async () => {
    // The tool ignores the signal on purpose: only the loop's own check can stop the other 29.
    const slow: Tool = {
      name: "slow",
      description: "waits",
      input_schema: { type: "object", properties: {}, required: [], additionalProperties: false },
      run: () => new Promise((resolve) => setTimeout(() => resolve(ok("done")), 300)),
    };
    const model = scriptedModel([
      { content: Array.from({ length: 30 }, (_, i) => use(`t${i}`, "slow", {})), stop_reason: "tool_use" },
    ]);
    const controller = new AbortController();
    const events: StepEvent[] = [];
    const history: MessageParam[] = [];
    const started = Date.now();
    const turn = runTurn("q", history, {
      model,
      workspace: new Workspace(makeTree({ "a.txt": "a\n" })),
      tools: [slow],
      signal: controller.signal,
      onStep: (e) => events.push(e),
    });
    setTimeout(() => controller.abort(), 100);
    await expect(turn).rejects.toThrow();
    expect(events.filter((e) => e.type === "tool")).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000); // 30 calls would take 9 s
    expect(history).toEqual([]);
  });

  it("reports every step as an event, ending with the turn", async () => {
    const { run, events } = setup([
      { content: [use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
      { content: [text("ok")], stop_reason: "end_turn" },
    ]);
    await run("q");
    expect(events.map((e) => e.type)).toEqual([
      "model_start",
      "model",
      "tool_start",
      "tool",
      "model_start",
      "model",
      "turn",
    ]);
    const tool = events[3];
    expect(tool).toMatchObject({ type: "tool", step: 1, name: "grep", input: { pattern: "main" } });
    expect(events[1]).toMatchObject({ type: "model", content: [use("t1", "grep", { pattern: "main" })] });
    expect(events[6]).toMatchObject({
      type: "turn",
      result: { toolCalls: ["grep"], usage: { input_tokens: 20, output_tokens: 10 } },
    });
  });

  it("pause: asked before each model call and each tool; skip sends an is_error result; the rest runs", async () => {
    const decisions: Decision[] = [];
    const verdicts: Verdict[] = ["run", "skip", "run"];
    const { run, requests } = setup(
      [
        { content: [use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
        { content: [text("skipped")], stop_reason: "end_turn" },
      ],
      undefined,
      (decision) => {
        decisions.push(decision);
        return verdicts.shift()!;
      },
    );
    await run("q");
    expect(decisions).toEqual([
      { type: "model", step: 1, messages: 1, inputTokensSoFar: 0 },
      { type: "tool", step: 1, name: "grep", input: { pattern: "main" } },
      { type: "model", step: 2, messages: 3, inputTokensSoFar: 10 },
    ]);
    expect(requests[1].messages[2].content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "t1",
        content: "Not run: skipped by the user (step-through mode).",
        is_error: true,
      },
    ]);
  });

  it("pause: quit ends the turn as a cancel does, leaving the history as it was", async () => {
    const { run, history } = setup(
      [{ content: [use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" }],
      undefined,
      (decision) => (decision.type === "tool" ? "quit" : "run"),
    );
    await expect(run("q")).rejects.toBeInstanceOf(TurnQuit);
    expect(history).toEqual([]);
  });
});
