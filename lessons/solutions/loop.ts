// One solution to lessons/build/loop.ts (lesson 2): the whole loop, in the order the cases ask for it.
//
// Compare it with runTurn in src/core/loop.ts: the same steps, without the comments
// that explain Scout's choices. npm test checks that it passes every case.
import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, MessageParam, TurnOptions, TurnResult, Usage } from "../../src/core/loop.js";
import { DEFAULT_MAX_STEPS } from "../../src/core/loop.js";
import { SYSTEM_PROMPT, tools as scoutTools } from "../../src/core/scout.js";
import { runTool, toolSchemas } from "../../src/core/tool.js";

export async function runTurn(question: string, history: MessageParam[], options: TurnOptions): Promise<TurnResult> {
  const { model, workspace, tools = scoutTools, maxSteps = DEFAULT_MAX_STEPS, signal, onText } = options;
  const onStep = options.onStep ?? (() => {});
  const turnStart = history.length;
  const turn: TurnResult = {
    text: "",
    stopReason: "",
    modelCalls: 0,
    toolCalls: [],
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
  history.push({ role: "user", content: question });
  try {
    for (;;) {
      if (turn.modelCalls === maxSteps) {
        turn.stopReason = "step_cap";
        const calls = `${maxSteps} model call${maxSteps === 1 ? "" : "s"}`;
        turn.text = `(Stopped after ${calls} without an answer. Ask again, more narrowly, or raise --max-steps.)`;
        history.push({ role: "assistant", content: turn.text });
        break;
      }
      const step = ++turn.modelCalls;
      const request = { system: SYSTEM_PROMPT, tools: toolSchemas(tools), messages: history };
      onStep({ type: "model_request", step, request: { ...request, messages: [...history] } });
      const started = Date.now();
      const response = await model.createMessage(request, { signal, onText });
      for (const key of Object.keys(turn.usage) as (keyof Usage)[]) turn.usage[key] += response.usage[key] ?? 0;
      onStep({
        type: "model_response",
        step,
        model: response.model,
        stopReason: response.stop_reason,
        usage: response.usage,
        ms: Date.now() - started,
        sent: { messages: history.length, tools: request.tools.map((tool) => tool.name) },
        content: response.content,
      });

      const calls = response.content.filter((block) => block.type === "tool_use");
      if (response.stop_reason !== "tool_use" || calls.length === 0) {
        const kept = response.content.filter((block) => block.type !== "tool_use");
        const content: ContentBlock[] = kept.length > 0 ? kept : [{ type: "text", text: "(no text)" }];
        history.push({ role: "assistant", content });
        turn.stopReason = response.stop_reason ?? "unknown";
        turn.text = kept.map((block) => (block.type === "text" ? block.text : "")).join("");
        break;
      }
      history.push({ role: "assistant", content: response.content });

      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const call of calls) {
        signal?.throwIfAborted();
        const { id, name, input } = call;
        onStep({ type: "tool_call", step, id, name, input });
        const toolStarted = Date.now();
        const result = await runTool(name, input, { workspace, signal }, tools);
        onStep({ type: "tool_result", step, id, name, input, result, ms: Date.now() - toolStarted });
        turn.toolCalls.push(call.name);
        results.push({ type: "tool_result", tool_use_id: call.id, content: result.content, is_error: result.isError });
      }
      history.push({ role: "user", content: results });
      signal?.throwIfAborted();
    }
  } catch (error) {
    history.length = turnStart;
    throw error;
  }
  onStep({ type: "turn_end", result: turn });
  return turn;
}
