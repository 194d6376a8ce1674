// The agent: one loop that runs one user turn.
//
// It knows no tool by name: it sends the tools' schemas, runs what the model asks for, and feeds the results
// back until the model stops asking, or the step cap is reached.
import type Anthropic from "@anthropic-ai/sdk";
import { checkToolCalls } from "../guards/tool-calls.js";
import type { Usage } from "../guards/usage-check.js";
import { SYSTEM_PROMPT, tools as scoutTools } from "./scout.js";
import { runTool, type Tool, type ToolResult, toolSchemas } from "./tool.js";
import type { Workspace } from "./workspace.js";

/** Most model calls in one turn before the loop gives up (change with --max-steps). */
export const DEFAULT_MAX_STEPS = 20;

export type MessageParam = Anthropic.MessageParam;
export type ContentBlock = Anthropic.ContentBlockParam;
export type { Usage };
export interface ModelRequest {
  system: string;
  tools: ReturnType<typeof toolSchemas>;
  messages: MessageParam[];
}
export interface ModelResponse {
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
  usage: Usage;
}

/** Anything that answers like the Messages API: Claude, or the offline teaching model. */
export interface Model {
  name: string;
  createMessage(
    request: ModelRequest,
    options: { signal?: AbortSignal; onText?: (text: string) => void },
  ): Promise<ModelResponse>;
}

export interface TurnResult {
  /** The final answer's text (or what explains why there is none). */
  text: string;
  /** The last stop_reason, or "step_cap" when the loop gave up. */
  stopReason: string;
  modelCalls: number;
  /** The tools called, in order. */
  toolCalls: string[];
  /** The usage of all its model calls, added up (cache reads and writes included). */
  usage: Required<{ [K in keyof Usage]: number }>;
}

/** What the loop reports as it goes: the step log, the trace and the counters listen (each shape its own name). */
export type StepEvent =
  | { type: "model_request"; step: number; request: ModelRequest }
  | {
      type: "model_response";
      step: number;
      model: string;
      stopReason: string | null;
      usage: Usage;
      ms: number;
      /** What the request held: how many messages, and the names of the tools offered. */
      sent: { messages: number; tools: string[] };
      /** The model's whole message: text and tool_use blocks. */
      content: ContentBlock[];
    }
  | { type: "tool_call"; step: number; id: string; name: string; input: unknown }
  | { type: "tool_result"; step: number; id: string; name: string; input: unknown; result: ToolResult; ms: number }
  | { type: "turn_end"; result: TurnResult };

export interface TurnOptions {
  model: Model;
  workspace: Workspace;
  /** The tools the model may call: Scout's four (src/core/scout.ts) unless others are given (the lab's, a learner's). */
  tools?: Tool[];
  maxSteps?: number;
  signal?: AbortSignal;
  onStep?: (event: StepEvent) => void;
  onText?: (text: string) => void;
}

/**
 * Runs one user turn and returns the answer. `history` is updated in place and is always valid for the next
 * request: every tool_use gets its tool_result, and roles alternate. A turn that fails (API error, Ctrl-C) is
 * removed from the history and the error is rethrown.
 */
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
        turn.text = `(Stopped after ${maxSteps} model call${maxSteps === 1 ? "" : "s"} without an answer. Ask again, more narrowly, or raise --max-steps.)`;
        history.push({ role: "assistant", content: turn.text }); // keeps the roles alternating
        break;
      }

      // 1. Ask the model, sending the system prompt, every tool's schema and the whole history.
      const step = ++turn.modelCalls;
      const request = { system: SYSTEM_PROMPT, tools: toolSchemas(tools), messages: history };
      onStep({ type: "model_request", step, request: { ...request, messages: [...history] } }); // a copy: /request shows it later
      const started = Date.now();
      const response = await model.createMessage(request, { signal, onText });
      const { content, calls } = checkToolCalls(response.content); // malformed or too many: refused, not run
      for (const key of Object.keys(turn.usage) as (keyof Usage)[]) turn.usage[key] += response.usage[key] ?? 0;
      onStep({
        type: "model_response",
        step,
        model: response.model,
        stopReason: response.stop_reason,
        usage: response.usage,
        ms: Date.now() - started,
        sent: { messages: history.length, tools: request.tools.map((tool) => tool.name) },
        content,
      });

      // 2. Append its message to the history.
      const asksForTools = response.stop_reason === "tool_use" && calls.length > 0;
      history.push({ role: "assistant", content: asksForTools ? content : withoutToolUse(content) });

      // 3. Unless it asked for tools, the turn is over: answer, max_tokens, refusal, or anything else.
      if (!asksForTools) {
        turn.stopReason = response.stop_reason ?? "unknown";
        turn.text = textOf(content);
        break;
      }

      // 4. Run every tool it asked for, in order; all results go back in one user message.
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const call of calls) {
        signal?.throwIfAborted(); // Ctrl-C: not one more tool (the running one got the signal too)
        const { id, name, input } = call;
        onStep({ type: "tool_call", step, id, name, input });
        const toolStarted = Date.now();
        // A call that cannot run (malformed, one too many) gets the result that says why.
        const result = call.refused ?? (await runTool(name, input, { workspace, signal }, tools));
        onStep({ type: "tool_result", step, id, name, input, result, ms: Date.now() - toolStarted });
        turn.toolCalls.push(name);
        results.push({ type: "tool_result", tool_use_id: id, content: result.content, is_error: result.isError });
        await letWaitingEventsIn(); // a Ctrl-C pressed while the tool held the thread is seen before the next one
      }
      history.push({ role: "user", content: results });
      signal?.throwIfAborted(); // Ctrl-C during the last tool: stop before the next model call
    }
  } catch (error) {
    history.length = turnStart; // no half-finished exchange is left behind
    throw error;
  }
  onStep({ type: "turn_end", result: turn });
  return turn;
}

/**
 * Lets the events that arrived while a tool ran be handled: a tool that held the thread returns through
 * promises alone, which run before any event, so a Ctrl-C that came meanwhile would wait for the next tool.
 * Two turns of the event loop's check phase always have its poll phase (signals, keys) between them.
 */
async function letWaitingEventsIn(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** An answer that stopped for another reason (max_tokens) may end in a tool_use that will get no result. */
export function withoutToolUse(content: ContentBlock[]): ContentBlock[] {
  const kept = content.filter((block) => block.type !== "tool_use");
  return kept.length > 0 ? kept : [{ type: "text", text: "(no text)" }];
}

export function textOf(content: ContentBlock[]): string {
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
