// The offline teaching model: not an LLM, but a small fixed policy that
// answers through the same interface as Claude, so Scout runs without a key
// and every run is the same.
//
// It sees only the conversation, as a model
// would, and follows the workflow the system prompt teaches: search for the
// definition (or the call sites, or the files), narrow when a tool says it
// was capped, read a window, answer citing path:line. Before each tool call
// it says one line of why, as a model's text before tool_use would.
// The policy is in offline/policy.ts, question parsing in offline/question.ts,
// what a definition looks like in offline/definitions.ts, answers in offline/answers.ts.
import type { ContentBlock, MessageParam, ModelResponse } from "../core/loop.js";
import type { ToolFacts } from "../core/tool.js";
import { estimateRequestTokens, estimateTokens } from "../tokens/count.js";
import type { ListeningModel } from "./listening.js";
import type { Exchange } from "./offline/policy.js";

export const OFFLINE_MODEL_NAME = "offline-teacher";
/** The kinds of question the policy answers, and the one it does not: said in the banner and in /help. */
export const OFFLINE_REACH =
  "it finds definitions, usages, test files, files by kind, folders and text, and explains nothing";
/** Said once at start-up, so nobody mistakes the offline model for an LLM. */
export const OFFLINE_NOTICE = `offline teaching model: a fixed search-then-read policy, not an LLM (${OFFLINE_REACH}); set ANTHROPIC_API_KEY to talk to Claude`;
/** With --offline the key is there: this notice does not ask for one. */
export const OFFLINE_BY_CHOICE_NOTICE = `offline teaching model (--offline): a fixed search-then-read policy, not an LLM (${OFFLINE_REACH})`;

/** The facts kept of this many tool calls at most, the oldest dropped first: a long session stays small. */
const MAX_FACTS_KEPT = 1_000;

/**
 * The offline model listens to the loop's events: from each tool_result it keeps the tool's structured facts
 * (capped, total), which it reads instead of the footers' wording.
 */
export function offlineModel(): ListeningModel {
  const factsById = new Map<string, ToolFacts>();
  return {
    name: OFFLINE_MODEL_NAME,
    onStep(event) {
      if (event.type !== "tool_result" || !event.result.facts) return;
      factsById.set(event.id, event.result.facts);
      if (factsById.size > MAX_FACTS_KEPT) factsById.delete(factsById.keys().next().value as string);
    },
    async createMessage(request, { onText }) {
      const content = await decide(request.messages, factsById);
      const toolUse = content.some((block) => block.type === "tool_use");
      // Text is streamed as Claude's would be: the thought before tool calls, or the answer.
      onText?.(content.map((block) => (block.type === "text" ? block.text : "")).join(""));
      const response: ModelResponse & { id: string; type: "message"; role: "assistant"; stop_sequence: null } = {
        id: `msg_offline_${request.messages.length}`,
        type: "message",
        role: "assistant",
        model: OFFLINE_MODEL_NAME,
        content,
        stop_reason: toolUse ? "tool_use" : "end_turn",
        stop_sequence: null,
        // An estimate, as the Messages API would count it, so the step log shows real-looking figures.
        usage: {
          input_tokens: estimateRequestTokens(request),
          output_tokens: estimateTokens(JSON.stringify(content)),
        },
      };
      return response;
    },
  };
}

/**
 * Reads the current turn (the last question and the tool calls since) and makes the policy's next move. The
 * policy and the question parser (7 modules) load with the first question, so the REPL's prompt does not wait.
 */
async function decide(messages: MessageParam[], factsById: Map<string, ToolFacts>): Promise<ContentBlock[]> {
  const [{ parseQuestion }, { nextMove }] = await Promise.all([
    import("./offline/question.js"),
    import("./offline/policy.js"),
  ]);
  const start = messages.findLastIndex((message) => message.role === "user" && typeof message.content === "string");
  const question = parseQuestion(String(messages[start]?.content ?? ""));
  const move = nextMove(question, exchangesSince(messages.slice(start + 1), factsById));
  if ("answer" in move) return [{ type: "text", text: move.answer }];
  return [
    { type: "text", text: move.thought },
    ...move.calls.map(
      (call, index): ContentBlock => ({
        type: "tool_use",
        id: `toolu_offline_${messages.length}_${index + 1}`,
        name: call.name,
        input: call.input,
      }),
    ),
  ];
}

/** The tool calls since the question, each with its result; `batch` numbers the assistant messages. */
function exchangesSince(messages: MessageParam[], factsById: Map<string, ToolFacts>): Exchange[] {
  const exchanges: (Exchange & { id: string })[] = [];
  let batch = 0;
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    if (message.role === "assistant") batch++;
    for (const block of message.content) {
      if (block.type === "tool_use")
        exchanges.push({
          id: block.id,
          batch,
          name: block.name,
          input: block.input as Record<string, any>,
          result: "",
          isError: false,
          facts: factsById.get(block.id),
        });
      const exchange = block.type === "tool_result" && exchanges.find((e) => e.id === block.tool_use_id);
      if (block.type === "tool_result" && exchange) {
        exchange.result = typeof block.content === "string" ? block.content : "";
        exchange.isError = block.is_error === true;
      }
    }
  }
  return exchanges;
}
