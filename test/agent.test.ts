// The loop against a scripted model. The shared cases live in lessons/cases/loop.ts, so
// `npm run check -- loop` holds a learner's loop (lessons/build/loop.ts) to exactly those tests,
// step-through mode (pause) and Ctrl-C between tool calls included; a tool that holds the thread is tested here.
import { describe, expect, it } from "vitest";
import { type MessageParam, runTurn } from "../src/core/loop.js";
import { scriptedModel, toolUse as use } from "../src/models/scripted.js";
import { ok, type Tool } from "../src/core/tool.js";
import { Workspace } from "../src/core/workspace.js";
import { loopCases } from "../lessons/cases/loop.js";
import { makeTree } from "./helpers.js";

describe("runTurn", () => {
  for (const testCase of loopCases) it(testCase.name, () => testCase.run(runTurn));
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
