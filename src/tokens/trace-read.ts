// Reads a --trace file back: its model calls with their usage and, when the trace holds the whole story, the messages each call sent.
//
// Record types (one JSON object per line; see src/steplog.ts): `question`
// {text}, `model` {step, model, stopReason, usage, request: {messages,
// tools}, content?}, `tool` {name, input, result: {content, is_error}},
// `turn` {result}, `failure` {kind, message}. Unknown types and lines that
// are not JSON are skipped and counted, so an older or newer trace still reads.
// Older traces have no `question` and no model `content`: their calls carry
// usage only, and cannot be recounted on another model.
import type { ContentBlock, MessageParam, Usage } from "../core/loop.js";
import { escapePath } from "../guards/escape.js";
import { readPersonFile } from "../person-file.js";
import { checkUsage } from "../guards/usage-check.js";

/** Largest trace read, and written (a trace of a long session is a few MB). */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;

export interface TracedCall {
  /** The model that answered, as the API named it. */
  model: string;
  usage: Usage;
  /** How many messages the request carried: fewer than the call before means a new conversation. */
  messages: number;
  /** The messages sent, when the trace holds enough to rebuild them (made when read: a copy per call would be quadratic). */
  readonly sent?: MessageParam[];
  /** Milliseconds since the epoch, when the record has a time. */
  time?: number;
}

export interface Trace {
  calls: TracedCall[];
  questions: number;
  turns: number;
  skipped: number;
  /** Model calls whose usage was not a count of tokens (a string, negative, huge): counted as 0. */
  badUsage: number;
}

/** Reads and rebuilds a trace file; throws a PersonFileError naming --trace when the file cannot be read. */
export function readTrace(file: string): Trace {
  return parseTrace(readPersonFile(file, { option: "--trace", maxBytes: MAX_TRACE_BYTES }));
}

type Json = Record<string, any>;

/** The calls of a trace's text, with the messages each sent rebuilt from questions, model content and tool results. */
export function parseTrace(text: string): Trace {
  const trace: Trace = { calls: [], questions: 0, turns: 0, skipped: 0, badUsage: 0 };
  // The conversation as a chain, newest last: a call keeps the end it saw, and a rolled-back turn
  // moves the end back, both without copying (a copy per call made 100,000 calls quadratic).
  let conversation: Chain | undefined;
  const push = (message: MessageParam) => {
    conversation = { message, previous: conversation, length: (conversation?.length ?? 0) + 1 };
  };
  let complete = true; // false once a record the rebuild needs is missing
  let turnStart: Chain | undefined;
  let pending: ContentBlock[] = []; // tool results not yet sent
  let calls: { id: string }[] = []; // the tool_use blocks results answer, in order
  const flush = () => {
    if (pending.length) push({ role: "user", content: pending });
    pending = [];
  };
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let record: Json;
    try {
      record = JSON.parse(line);
    } catch {
      trace.skipped++;
      continue;
    }
    const time = typeof record.time === "string" ? Date.parse(record.time) : Number.NaN;
    if (record.type === "question" && typeof record.text === "string") {
      trace.questions++;
      flush();
      turnStart = conversation;
      push({ role: "user", content: record.text });
    } else if (record.type === "model" && isObject(record.usage)) {
      flush();
      const messages = Number(record.request?.messages ?? 0);
      const usable = complete && trace.questions > 0 && messages <= (conversation?.length ?? 0);
      const { usage, bad } = checkUsage(record.usage);
      if (bad.length) trace.badUsage++;
      const call: TracedCall = {
        model: escapePath(String(record.model ?? "unknown")),
        usage,
        messages,
        ...(Number.isNaN(time) ? {} : { time }),
      };
      if (usable) sentWhenRead(call, conversation, messages);
      trace.calls.push(call);
      if (!Array.isArray(record.content)) complete = false;
      else {
        const content = record.content as ContentBlock[];
        calls = content.filter((block) => block.type === "tool_use") as { id: string }[];
        const asksForTools = record.stopReason === "tool_use" && calls.length > 0;
        const kept = asksForTools ? content : content.filter((block) => block.type !== "tool_use");
        push({ role: "assistant", content: kept.length ? kept : [{ type: "text", text: "(no text)" }] });
      }
    } else if (record.type === "tool" && record.result) {
      const call = calls[pending.length];
      if (!call) complete = false;
      else
        pending.push({
          type: "tool_result",
          tool_use_id: call.id,
          content: String(record.result.content ?? ""),
          is_error: Boolean(record.result.is_error),
        });
    } else if (record.type === "turn") {
      trace.turns++;
      flush();
      if (record.result?.stopReason === "step_cap")
        push({ role: "assistant", content: String(record.result.text ?? "") });
    } else if (record.type === "failure") {
      // The loop rolls a failed or cancelled turn back; a turn stopped by the step cap stays in the history.
      if (record.kind !== "step_cap") conversation = turnStart;
      pending = [];
    } else trace.skipped++;
  }
  return trace;
}

/** One message of the rebuilt conversation, linked to the one before it. */
interface Chain {
  message: MessageParam;
  previous: Chain | undefined;
  length: number;
}

/** Gives `call` a `sent`, the last `messages` messages up to `end`, made only when read. */
function sentWhenRead(call: TracedCall, end: Chain | undefined, messages: number): void {
  const get = () => {
    const sent: MessageParam[] = [];
    for (let link = end; link && sent.length < messages; link = link.previous) sent.push(link.message);
    return sent.reverse();
  };
  Object.defineProperty(call, "sent", { enumerable: true, get });
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null;
}
