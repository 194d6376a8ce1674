// The loop's tests, in one place: test/agent.test.ts runs them against src/core/loop.ts, and
// `npm run check -- loop` runs them against a learner's lessons/build/loop.ts.
//
// Each drives the loop with a scripted model, so it can assert the exact
// history the model saw on each call.
import assert from "node:assert/strict";
import type { MessageParam, runTurn, StepEvent, TurnOptions } from "../../src/core/loop.js";
import { type ScriptedReply as Reply, scriptedModel, text, toolUse as use } from "../../src/models/scripted.js";
import { SYSTEM_PROMPT, tools } from "../../src/core/scout.js";
import { ok, type Tool } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";
import { type Case, withTree } from "./case.js";

/** The loop being tested: runTurn, or a learner's function with the same signature. */
export type RunTurn = typeof runTurn;

/** A fresh scripted session over a tiny project; `run` asks one question. */
async function session<T>(
  runTurnUnderTest: RunTurn,
  replies: Reply[],
  test: (s: {
    run: (question: string, signal?: AbortSignal) => ReturnType<RunTurn>;
    requests: ReturnType<typeof scriptedModel>["requests"];
    events: StepEvent[];
    history: MessageParam[];
  }) => Promise<T>,
  extra: Partial<TurnOptions> = {},
): Promise<T> {
  const files = { "src/app.ts": "export function main() {\n  return 42;\n}\n", "README.md": "# demo\n" };
  return withTree(files, (root) => {
    const model = scriptedModel(replies);
    const events: StepEvent[] = [];
    const history: MessageParam[] = [];
    const run = (question: string, signal?: AbortSignal) =>
      runTurnUnderTest(question, history, {
        model,
        workspace: new Workspace(root),
        signal,
        onStep: (e) => events.push(e),
        ...extra,
      });
    return test({ run, requests: model.requests, events, history });
  });
}

export const loopCases: Case<RunTurn>[] = [
  {
    name: "answers a question that needs no tool, with the history [user, assistant]",
    hint: "Push the question as a user message, call model.createMessage once, push its reply as an assistant message, return its text.",
    run: (runTurn) =>
      session(runTurn, [{ content: [text("Hello.")], stop_reason: "end_turn" }], async ({ run, requests, history }) => {
        const result = await run("hi");
        assert.equal(result.text, "Hello.");
        assert.equal(result.stopReason, "end_turn");
        assert.equal(result.modelCalls, 1);
        assert.deepEqual(requests[0].messages, [{ role: "user", content: "hi" }]);
        assert.deepEqual(history, [
          { role: "user", content: "hi" },
          { role: "assistant", content: [text("Hello.")] },
        ]);
      }),
  },
  {
    name: "sends the system prompt and every tool's schema",
    hint: "The request is { system: SYSTEM_PROMPT, tools: toolSchemas(tools), messages: history }.",
    run: (runTurn) =>
      session(runTurn, [{ content: [text("ok")], stop_reason: "end_turn" }], async ({ run, requests }) => {
        await run("hi");
        assert.equal(requests[0].system, SYSTEM_PROMPT);
        // Scout's tool set, whatever it holds (adding a tool to the registry breaks no case): each tool's name,
        // description and input_schema in the registry's order, and nothing else (no run function). Built here from
        // the tools themselves, not with toolSchemas, which a loop under test calls too.
        const schemas = tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.input_schema,
        }));
        assert.ok(schemas.length > 0 && schemas.every((schema) => schema.description && schema.input_schema));
        assert.deepEqual(requests[0].tools, schemas);
      }),
  },
  {
    name: "runs a tool round trip and sends its result back",
    hint: "When stop_reason is tool_use, run each tool_use block with runTool and send the results back in ONE user message of tool_result blocks, then call the model again.",
    run: (runTurn) =>
      session(
        runTurn,
        [
          { content: [text("Searching."), use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
          { content: [text("main is at src/app.ts:1")], stop_reason: "end_turn" },
        ],
        async ({ run, requests, history }) => {
          const result = await run("where is main?");
          assert.equal(result.text, "main is at src/app.ts:1");
          assert.equal(result.stopReason, "end_turn");
          assert.equal(result.modelCalls, 2);
          assert.deepEqual(result.toolCalls, ["grep"]);
          assert.deepEqual(requests[1].messages, [
            { role: "user", content: "where is main?" },
            { role: "assistant", content: [text("Searching."), use("t1", "grep", { pattern: "main" })] },
            {
              role: "user",
              content: [
                {
                  type: "tool_result",
                  tool_use_id: "t1",
                  content: "src/app.ts:1:export function main() {",
                  is_error: false,
                },
              ],
            },
          ]);
          assert.equal(history.length, 4);
          assert.deepEqual(history[3], { role: "assistant", content: [text("main is at src/app.ts:1")] });
        },
      ),
  },
  {
    name: "answers several tool_use blocks of one message in one user message, in order",
    hint: "Loop over every tool_use block of the reply (not just the first); collect all the tool_result blocks, then push them together.",
    run: (runTurn) =>
      session(
        runTurn,
        [
          {
            content: [use("a", "list_files", {}), use("b", "read_file", { path: "README.md" })],
            stop_reason: "tool_use",
          },
          { content: [text("done")], stop_reason: "end_turn" },
        ],
        async ({ run, requests }) => {
          await run("look around");
          const message = requests[1].messages[2];
          assert.equal(message.role, "user");
          const results = message.content as Array<{ tool_use_id: string; content: string; is_error: boolean }>;
          assert.deepEqual(
            results.map((r) => r.tool_use_id),
            ["a", "b"],
          );
          assert.match(results[0].content, /README\.md/);
          assert.deepEqual(results[1], {
            type: "tool_result",
            tool_use_id: "b",
            content: "1\t# demo\n(lines 1-1 of 1)",
            is_error: false,
          });
        },
      ),
  },
  {
    name: "turns an unknown tool and bad arguments into is_error results and goes on",
    hint: "runTool never throws: it returns { content, isError }. Send isError as the tool_result's is_error.",
    run: (runTurn) =>
      session(
        runTurn,
        [
          {
            content: [use("a", "delete_everything", {}), use("b", "read_file", { path: 7 })],
            stop_reason: "tool_use",
          },
          { content: [text("sorry")], stop_reason: "end_turn" },
        ],
        async ({ run, requests }) => {
          const result = await run("break things");
          assert.equal(result.stopReason, "end_turn");
          const results = requests[1].messages[2].content as Array<{ content: string; is_error: boolean }>;
          assert.equal(results[0].is_error, true);
          assert.match(results[0].content, /unknown tool "delete_everything"/);
          assert.equal(results[1].is_error, true);
          assert.match(results[1].content, /argument "path" must be a string/);
        },
      ),
  },
  {
    name: "stops at the step cap (1, 2 or 3 calls) with lesson 1's message and a valid history",
    hint: 'Before each model call, stop if modelCalls has reached maxSteps (20 when not given): stopReason "step_cap", the text "(Stopped after N model calls without an answer. Ask again, more narrowly, or raise --max-steps.)" ("1 model call" for one), and that text as an assistant message so the roles still alternate.',
    run: async (runTurn) => {
      const loop: Reply = { content: [use("x", "list_files", {})], stop_reason: "tool_use" };
      for (const maxSteps of [1, 2, 3]) {
        await session(
          runTurn,
          Array.from({ length: maxSteps + 2 }, () => loop),
          async ({ run, requests, history }) => {
            const result = await run("loop forever");
            assert.equal(result.stopReason, "step_cap", `with maxSteps ${maxSteps}`);
            const calls = `${maxSteps} model call${maxSteps === 1 ? "" : "s"}`;
            assert.equal(
              result.text,
              `(Stopped after ${calls} without an answer. Ask again, more narrowly, or raise --max-steps.)`,
            );
            assert.equal(requests.length, maxSteps, `with maxSteps ${maxSteps}, the model was called`);
            assert.equal(result.modelCalls, maxSteps);
            const roles = history.map((m) => m.role);
            assert.deepEqual(roles, [
              "user",
              ...Array.from({ length: maxSteps }, () => ["assistant", "user"]).flat(),
              "assistant",
            ]);
            assert.deepEqual(history.at(-1), { role: "assistant", content: result.text });
          },
          { maxSteps },
        );
      }
      // No maxSteps: the default, DEFAULT_MAX_STEPS (20).
      await session(
        runTurn,
        Array.from({ length: 25 }, () => loop),
        async ({ run, requests }) => {
          assert.equal((await run("loop forever")).stopReason, "step_cap");
          assert.equal(requests.length, 20, "with no maxSteps given, the model was called");
        },
      );
    },
  },
  {
    name: "shows a max_tokens answer and drops an unfinished tool_use from the history",
    hint: "Only stop_reason tool_use means 'run tools'. Otherwise the turn ends; keep the reply's blocks except tool_use ones (a tool_use with no tool_result makes the next request invalid).",
    run: (runTurn) =>
      session(
        runTurn,
        [{ content: [text("The answer is"), use("cut", "grep", { pattern: "x" })], stop_reason: "max_tokens" }],
        async ({ run, history }) => {
          const result = await run("long question");
          assert.equal(result.text, "The answer is");
          assert.equal(result.stopReason, "max_tokens");
          assert.equal(result.modelCalls, 1);
          assert.deepEqual(history[1], { role: "assistant", content: [text("The answer is")] });
        },
      ),
  },
  {
    name: "ends the turn on a stop reason it does not know, without resending",
    hint: 'An empty reply still needs an assistant message: the API rejects empty content, so use [{ type: "text", text: "(no text)" }].',
    run: (runTurn) =>
      session(runTurn, [{ content: [], stop_reason: "something_new" }], async ({ run, requests, history }) => {
        const result = await run("hi");
        assert.equal(result.stopReason, "something_new");
        assert.equal(requests.length, 1);
        assert.deepEqual(history[1], { role: "assistant", content: [text("(no text)")] });
      }),
  },
  {
    name: "rolls the turn back when the model throws mid-turn, so the next question works",
    hint: "Remember history.length before the turn; in a catch, cut the history back to it and rethrow.",
    run: (runTurn) =>
      session(
        runTurn,
        [
          { content: [text("first")], stop_reason: "end_turn" },
          { content: [use("t", "grep", { pattern: "main" })], stop_reason: "tool_use" },
          new Error("overloaded"),
          { content: [text("third")], stop_reason: "end_turn" },
        ],
        async ({ run, requests, history }) => {
          await run("one");
          await assert.rejects(run("two"), /overloaded/);
          assert.deepEqual(history, [
            { role: "user", content: "one" },
            { role: "assistant", content: [text("first")] },
          ]);
          await run("three");
          assert.deepEqual(
            requests[3].messages.map((m) => m.role),
            ["user", "assistant", "user"],
          );
          assert.deepEqual(requests[3].messages[2], { role: "user", content: "three" });
        },
      ),
  },
  {
    name: "stops before the next model call when cancelled while tools run",
    hint: "After the tools ran, call signal?.throwIfAborted(): the catch then rolls the turn back.",
    run: (runTurn) => {
      const controller = new AbortController();
      return session(
        runTurn,
        [{ content: [use("t", "list_files", {})], stop_reason: "tool_use" }],
        async ({ run, requests, history }) => {
          const turn = run("cancel me", controller.signal);
          controller.abort();
          await assert.rejects(turn);
          assert.ok(requests.length <= 1, `the model was called ${requests.length} times`);
          assert.deepEqual(history, []);
        },
      );
    },
  },
  {
    name: "checks for Ctrl-C before each tool call: of 30 slow calls in one message, one runs",
    hint: "Call signal?.throwIfAborted() at the top of the loop over the calls too: a cancel must not start one more tool.",
    run: async (runTurn) => {
      // The tool ignores the signal on purpose: only the loop's own check can stop the other 29.
      const slow: Tool = {
        name: "slow",
        description: "waits",
        input_schema: { type: "object", properties: {}, required: [], additionalProperties: false },
        run: () => new Promise((resolve) => setTimeout(() => resolve(ok("done")), 300)),
      };
      const controller = new AbortController();
      const replies: Reply[] = [
        { content: Array.from({ length: 30 }, (_, i) => use(`t${i}`, "slow", {})), stop_reason: "tool_use" },
      ];
      await session(
        runTurn,
        replies,
        async ({ run, events, history }) => {
          const turn = run("q", controller.signal);
          setTimeout(() => controller.abort(), 100);
          await assert.rejects(turn);
          assert.equal(events.filter((e) => e.type === "tool_result").length, 1, "tools run after the cancel");
          assert.deepEqual(history, []);
        },
        { tools: [slow] },
      );
    },
  },
  {
    name: "reports every step as an event, ending with the turn",
    hint: 'Call onStep with { type: "model_request", step, request } before each model call and { type: "model_response", …, content } after it, { type: "tool_call", step, id, name, input } before each tool and { type: "tool_result", …, result, ms } after it, and { type: "turn_end", result } at the end.',
    run: (runTurn) =>
      session(
        runTurn,
        [
          { content: [use("t1", "grep", { pattern: "main" })], stop_reason: "tool_use" },
          { content: [text("ok")], stop_reason: "end_turn" },
        ],
        async ({ run, events }) => {
          await run("q");
          assert.deepEqual(
            events.map((e) => e.type),
            [
              "model_request",
              "model_response",
              "tool_call",
              "tool_result",
              "model_request",
              "model_response",
              "turn_end",
            ],
          );
          const model = events[1];
          assert.ok(model.type === "model_response");
          assert.deepEqual(model.content, [use("t1", "grep", { pattern: "main" })]);
          const tool = events[3];
          assert.ok(tool.type === "tool_result");
          assert.equal(tool.id, "t1");
          assert.equal(tool.step, 1);
          assert.equal(tool.name, "grep");
          assert.deepEqual(tool.input, { pattern: "main" });
          const turn = events[6];
          assert.ok(turn.type === "turn_end");
          assert.deepEqual(turn.result.toolCalls, ["grep"]);
          assert.equal(turn.result.usage.input_tokens, 20);
          assert.equal(turn.result.usage.output_tokens, 10);
        },
      ),
  },
];
