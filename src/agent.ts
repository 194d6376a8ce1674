// The agent: one loop that runs one user turn.
//
// It knows no tool by name:
// it sends the registry's schemas, runs what the model asks for, and feeds
// the results back until the model stops asking.
import type Anthropic from "@anthropic-ai/sdk";
import { SYSTEM_PROMPT } from "./prompt.js";
import { checkToolCalls } from "./tool-calls.js";
import { runTool, toolSchemas, tools as scoutTools } from "./tools/index.js";
import type { Tool, ToolResult } from "./tools/tool.js";
import type { Workspace } from "./workspace/workspace.js";

/** Most model calls in one turn before the loop gives up (change with --max-steps). */
export const DEFAULT_MAX_STEPS = 20;

export type MessageParam = Anthropic.MessageParam;
export type ContentBlock = Anthropic.ContentBlockParam;
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}
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

/** What the loop reports as it goes; the step log (src/steplog.ts) prints these. */
export type StepEvent =
  | { type: "model_start"; step: number; request: ModelRequest }
  | {
      type: "model";
      step: number;
      model: string;
      stopReason: string | null;
      usage: Usage;
      ms: number;
      request: { messages: number; tools: string[] };
      /** The model's whole message: text and tool_use blocks. */
      content: ContentBlock[];
    }
  | { type: "tool_start"; step: number; name: string }
  | { type: "tool"; step: number; name: string; input: unknown; result: ToolResult; ms: number; skipped?: boolean }
  | { type: "turn"; result: TurnResult };

/** What the loop is about to do, shown to `pause` (step-through mode) before it does it. */
export type Decision =
  | { type: "model"; step: number; messages: number; inputTokensSoFar: number }
  | { type: "tool"; step: number; name: string; input: unknown };
/** run: go ahead; skip: do not run this tool (the model is told); quit: end the turn, rolled back like a cancel. */
export type Verdict = "run" | "skip" | "quit";

/** Thrown when `pause` answers "quit": the turn is rolled back, as for Ctrl-C. */
export class TurnQuit extends Error {
  constructor() {
    super("stopped by the user");
  }
}

/** The result the model gets for a tool call the user skipped in step-through mode. */
export const SKIPPED: ToolResult = { content: "Not run: skipped by the user (step-through mode).", isError: true };

export interface TurnOptions {
  model: Model;
  workspace: Workspace;
  /** The tools the model may call (default: Scout's four; `scout lab` passes other designs). */
  tools?: Tool[];
  maxSteps?: number;
  signal?: AbortSignal;
  onStep?: (event: StepEvent) => void;
  onText?: (text: string) => void;
  /** Called before each model call and each tool call; waits for the user in step-through mode. */
  pause?: (decision: Decision) => Verdict;
}

/**
 * Runs one user turn and returns the answer. `history` is updated in place
 * and is always valid for the next request: every tool_use gets its
 * tool_result, and roles alternate. A turn that fails (API error, Ctrl-C)
 * is removed from the history and the error is rethrown.
 */
export async function runTurn(question: string, history: MessageParam[], options: TurnOptions): Promise<TurnResult> {
  const {
    model,
    workspace,
    tools = scoutTools,
    maxSteps = DEFAULT_MAX_STEPS,
    signal,
    onStep = () => {},
    onText,
    pause,
  } = options;
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
      const inputTokensSoFar = turn.usage.input_tokens;
      if (pause?.({ type: "model", step, messages: history.length, inputTokensSoFar }) === "quit") throw new TurnQuit();
      const request = { system: SYSTEM_PROMPT, tools: toolSchemas(tools), messages: history };
      onStep({ type: "model_start", step, request: { ...request, messages: [...history] } }); // a copy: /request shows it later
      const started = Date.now();
      const response = await model.createMessage(request, { signal, onText });
      const { content, calls } = checkToolCalls(response.content); // malformed or too many: refused, not run
      for (const key of Object.keys(turn.usage) as (keyof Usage)[]) turn.usage[key] += response.usage[key] ?? 0;
      onStep({
        type: "model",
        step,
        model: response.model,
        stopReason: response.stop_reason,
        usage: response.usage,
        ms: Date.now() - started,
        request: { messages: history.length, tools: request.tools.map((tool) => tool.name) },
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
        const verdict = call.refused
          ? "run"
          : (pause?.({ type: "tool", step, name: call.name, input: call.input }) ?? "run");
        if (verdict === "quit") throw new TurnQuit();
        onStep({ type: "tool_start", step, name: call.name });
        const toolStarted = Date.now();
        const skipped = verdict === "skip";
        const result =
          call.refused ?? (skipped ? SKIPPED : await runTool(call.name, call.input, { workspace, signal }, tools));
        const ms = Date.now() - toolStarted;
        onStep({ type: "tool", step, name: call.name, input: call.input, result, ms, skipped });
        turn.toolCalls.push(call.name);
        results.push({ type: "tool_result", tool_use_id: call.id, content: result.content, is_error: result.isError });
        await letWaitingEventsIn(); // a Ctrl-C pressed while the tool held the thread is seen before the next one
      }
      history.push({ role: "user", content: results });
      signal?.throwIfAborted(); // Ctrl-C during the last tool: stop before the next model call
    }
  } catch (error) {
    history.length = turnStart; // no half-finished exchange is left behind
    throw error;
  }
  onStep({ type: "turn", result: turn });
  return turn;
}

// The two helpers are exported so that a loop swapped in for runTurn (lesson 2, exercise 3) may leave them unused.

/**
 * Lets the events that arrived while a tool ran be handled. A tool that held
 * the thread (a long synchronous step) returns through promises alone, and
 * promises run before any event: the SIGINT, or the Ctrl-C key, that came
 * meanwhile would only be seen after the next tool. Two turns of the event
 * loop's check phase always have its poll phase (signals, keys) between them.
 */
async function letWaitingEventsIn(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * An answer that stopped for another reason (max_tokens, say) may end in a
 * tool_use block that will never get a result; the history keeps the rest.
 */
export function withoutToolUse(content: ContentBlock[]): ContentBlock[] {
  const kept = content.filter((block) => block.type !== "tool_use");
  return kept.length > 0 ? kept : [{ type: "text", text: "(no text)" }];
}

export function textOf(content: ContentBlock[]): string {
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
