// Reads a --trace file back: its model calls with their usage and, when the trace holds the whole story, the messages each call sent.
//
// Record types (one JSON object per line; see src/steplog.ts): `question`
// {text}, `model` {step, model, stopReason, usage, request: {messages,
// tools}, content?}, `tool` {name, input, result: {content, is_error}},
// `turn` {result}, `failure` {kind, message}. Unknown types and lines that
// are not JSON are skipped and counted, so an older or newer trace still reads.
// Older traces have no `question` and no model `content`: their calls carry
// usage only, and cannot be recounted on another model.
import fs from "node:fs";
import type { ContentBlock, MessageParam, Usage } from "../agent.js";
import { escapePath } from "../escape.js";

/** Largest trace read (a trace of a long session is a few MB). */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;

export interface TracedCall {
  /** The model that answered, as the API named it. */
  model: string;
  usage: Usage;
  /** How many messages the request carried: fewer than the call before means a new conversation. */
  messages: number;
  /** The messages sent, when the trace holds enough to rebuild them. */
  sent?: MessageParam[];
  /** Milliseconds since the epoch, when the record has a time. */
  time?: number;
}

export interface Trace {
  calls: TracedCall[];
  questions: number;
  turns: number;
  skipped: number;
}

/** Reads and rebuilds a trace file; throws with a plain message when the file cannot be read. */
export function readTrace(file: string): Trace {
  const size = fs.statSync(file).size;
  if (size > MAX_TRACE_BYTES) throw new Error(`${file} is ${size} bytes; traces over ${MAX_TRACE_BYTES} are not read`);
  return parseTrace(fs.readFileSync(file, "utf8"));
}

type Json = Record<string, any>;

/** The calls of a trace's text, with the messages each sent rebuilt from questions, model content and tool results. */
export function parseTrace(text: string): Trace {
  const trace: Trace = { calls: [], questions: 0, turns: 0, skipped: 0 };
  let conversation: MessageParam[] = [];
  let complete = true; // false once a record the rebuild needs is missing
  let turnStart = 0;
  let pending: ContentBlock[] = []; // tool results not yet sent
  let calls: { id: string }[] = []; // the tool_use blocks results answer, in order
  const flush = () => {
    if (pending.length) conversation.push({ role: "user", content: pending });
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
      turnStart = conversation.length;
      conversation.push({ role: "user", content: record.text });
    } else if (record.type === "model" && isUsage(record.usage)) {
      flush();
      const messages = Number(record.request?.messages ?? 0);
      const usable = complete && trace.questions > 0 && messages <= conversation.length;
      trace.calls.push({
        model: escapePath(String(record.model ?? "unknown")),
        usage: record.usage,
        messages,
        ...(usable ? { sent: conversation.slice(conversation.length - messages) } : {}),
        ...(Number.isNaN(time) ? {} : { time }),
      });
      if (!Array.isArray(record.content)) complete = false;
      else {
        const content = record.content as ContentBlock[];
        calls = content.filter((block) => block.type === "tool_use") as { id: string }[];
        const asksForTools = record.stopReason === "tool_use" && calls.length > 0;
        const kept = asksForTools ? content : content.filter((block) => block.type !== "tool_use");
        conversation.push({ role: "assistant", content: kept.length ? kept : [{ type: "text", text: "(no text)" }] });
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
        conversation.push({ role: "assistant", content: String(record.result.text ?? "") });
    } else if (record.type === "failure") {
      // The loop rolls a failed or cancelled turn back; a turn stopped by the step cap stays in the history.
      if (record.kind !== "step_cap") conversation = conversation.slice(0, turnStart);
      pending = [];
    } else trace.skipped++;
  }
  return trace;
}

function isUsage(value: unknown): value is Usage {
  const usage = value as Usage | undefined;
  return typeof usage?.input_tokens === "number" && typeof usage.output_tokens === "number";
}
