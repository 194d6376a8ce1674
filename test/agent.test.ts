// The loop against a scripted model. The shared cases live in test/cases/loop.ts, so
// `npm run check -- loop` holds a learner's loop (lessons/build/loop.ts) to exactly those tests;
// step-through mode (pause), which only Scout's loop has, is tested here.
import { describe, expect, it } from "vitest";
import { type Decision, type MessageParam, runTurn, type StepEvent, TurnQuit, type Verdict } from "../src/agent.js";
import { type ScriptedReply as Reply, scriptedModel, text, toolUse as use } from "../src/models/scripted.js";
import { ok, type Tool } from "../src/tools/tool.js";
import { Workspace } from "../src/workspace/workspace.js";
import { loopCases } from "./cases/loop.js";
import { makeTree } from "./helpers.js";

describe("runTurn", () => {
  for (const testCase of loopCases) it(testCase.name, () => testCase.run(runTurn));
});

function setup(replies: Reply[], pause: (decision: Decision) => Verdict) {
  const root = makeTree({ "src/app.ts": "export function main() {\n  return 42;\n}\n", "README.md": "# demo\n" });
  const model = scriptedModel(replies);
  const history: MessageParam[] = [];
  const run = (question: string) => runTurn(question, history, { model, workspace: new Workspace(root), pause });
  return { run, requests: model.requests, history };
}

describe("runTurn in step-through mode", () => {
  it("pause: asked before each model call and each tool; skip sends an is_error result; the rest runs", async () => {
    const decisions: Decision[] = [];
    const verdicts: Verdict[] = ["run", "skip", "run"];
    const { run, requests } = setup(
      [
        { content: [use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
        { content: [text("skipped")], stop_reason: "end_turn" },
      ],
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
      (decision) => (decision.type === "tool" ? "quit" : "run"),
    );
    await expect(run("q")).rejects.toBeInstanceOf(TurnQuit);
    expect(history).toEqual([]);
  });
});

describe("Ctrl-C between tool calls", () => {
  it("is checked before each tool call: of 30 slow calls in one message, one runs", async () => {
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
    expect(history).toEqual([]);
  });
});

describe("Ctrl-C during a tool that holds the thread", () => {
  it("is seen before the next tool in the same message starts: nothing runs after a cancel", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    // The Ctrl-C arrives as an event while the tool still holds the thread (a timer, due before the tool returns),
    // as a SIGINT or a key does while a synchronous tool runs: only the event loop can deliver it.
    const blocking: Tool = {
      name: "blocking",
      description: "holds the thread",
      input_schema: { type: "object", properties: {}, required: [], additionalProperties: false },
      run: async () => {
        ran.push("blocking");
        setTimeout(() => controller.abort(), 0);
        const until = Date.now() + 20;
        while (Date.now() < until); // synchronous work: the timer is due before it ends
        return ok("done");
      },
    };
    const model = scriptedModel([
      { content: [use("t1", "blocking", {}), use("t2", "blocking", {})], stop_reason: "tool_use" },
    ]);
    const history: MessageParam[] = [];
    const turn = runTurn("q", history, {
      model,
      workspace: new Workspace(makeTree({ "a.txt": "a\n" })),
      tools: [blocking],
      signal: controller.signal,
    });
    await expect(turn).rejects.toThrow();
    expect(ran).toEqual(["blocking"]);
    expect(history).toEqual([]);
  });
});
