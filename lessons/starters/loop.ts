// YOUR agent loop (lesson 2): finish runTurn until `npm run check -- loop` passes every case.
//
// It has the same signature as runTurn in src/core/loop.ts, and is held to the same
// tests (lessons/cases/loop.ts). As shipped it asks the model once and returns its
// answer, which passes the first case and fails the rest. Each TODO below is
// one or two cases. Stuck? `npm run check -- loop` prints a hint under each
// FAIL, and lessons/solutions/loop.ts is one answer.
import type { MessageParam, TurnOptions, TurnResult, Usage } from "../../src/core/loop.js";
import { DEFAULT_MAX_STEPS } from "../../src/core/loop.js";
import { SYSTEM_PROMPT } from "../../src/core/scout.js";
import { tools as scoutTools } from "../../src/core/scout.js";
import { toolSchemas } from "../../src/core/tool.js";

export async function runTurn(question: string, history: MessageParam[], options: TurnOptions): Promise<TurnResult> {
  const { model, tools = scoutTools, maxSteps = DEFAULT_MAX_STEPS, signal, onText } = options;
  const turn: TurnResult = {
    text: "",
    stopReason: "",
    modelCalls: 0,
    toolCalls: [],
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
  history.push({ role: "user", content: question });

  // TODO (step cap): before each model call, stop once turn.modelCalls reaches maxSteps, with lesson 1's
  // message: "(Stopped after N model calls without an answer. Ask again, more narrowly, or raise --max-steps.)".
  void maxSteps;
  // TODO (events): call options.onStep with model_request, model_response, tool_call, tool_result and turn_end events.
  // TODO (rollback): if anything throws, cut the history back to where the turn began, then rethrow.
  // TODO (Ctrl-C): signal?.throwIfAborted() before each tool call and after the last one.

  // 1. Ask the model, sending the system prompt, every tool's schema and the whole history.
  turn.modelCalls++;
  const request = { system: SYSTEM_PROMPT, tools: toolSchemas(tools), messages: history };
  const response = await model.createMessage(request, { signal, onText });
  for (const key of Object.keys(turn.usage) as (keyof Usage)[]) turn.usage[key] += response.usage[key] ?? 0;

  // 2. Append its message to the history.
  history.push({ role: "assistant", content: response.content });

  // TODO (tools): if response.stop_reason is "tool_use", run every tool_use block with
  // runTool(name, input, { workspace, signal }, tools), send all the results back in ONE
  // user message of tool_result blocks, and go back to step 1 (so: a loop).
  // TODO (other stop reasons): max_tokens may leave a tool_use block with no result, and
  // a reply may be empty; the history must stay valid for the next request.

  // 3. The turn is over: the answer is the reply's text.
  turn.stopReason = response.stop_reason ?? "unknown";
  turn.text = response.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return turn;
}
