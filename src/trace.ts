// --trace FILE: the whole session as JSON lines, enough to replay it; each record is written at once.
//
// Record types (every record also has "time", an ISO timestamp):
//   question  {text, piped_chars?}            a question, as sent to the model
//   model     {n, step, model, stopReason, usage, ms, request: {messages, tools}, content}
//             one model call: the request's size and the model's full message (text and tool_use blocks)
//   tool      {n, step, name, input, result: {content, is_error, chars, estimated_tokens}, ms, skipped?}
//             one tool call with its full input and result
//   turn      {result: {text, stopReason, modelCalls, toolCalls, usage}}   a turn that ended
//   failure   {kind: "api_error" | "cancelled" | "stopped" | "step_cap", message}   a turn that did not answer
// `n` is the step log's [n]; `step` the model call of the turn it belongs to.
import fs from "node:fs";
import type { StepEvent } from "./agent.js";
import { estimateTokens } from "./tokens/count.js";

export type FailureKind = "api_error" | "cancelled" | "stopped" | "step_cap";

export class Trace {
  private readonly fd: number;

  /** Opens FILE for appending; throws if it cannot be written. */
  constructor(file: string) {
    this.fd = fs.openSync(file, "a");
  }

  question(text: string, pipedChars?: number): void {
    this.write({ type: "question", text, ...(pipedChars === undefined ? {} : { piped_chars: pipedChars }) });
  }

  /** A step the step log numbered `n` (model and tool), or the end of a turn. */
  step(n: number, event: StepEvent): void {
    if (event.type === "turn") this.write(event);
    else if (event.type === "model") this.write({ type: event.type, n, ...withoutType(event) });
    else if (event.type === "tool") {
      const { content, isError } = event.result;
      const result = { content, is_error: isError, chars: content.length, estimated_tokens: estimateTokens(content) };
      this.write({ type: "tool", n, ...withoutType(event), result });
    }
  }

  failure(kind: FailureKind, message: string): void {
    this.write({ type: "failure", kind, message });
  }

  /** One line per record, written with one system call: a crash loses nothing already written. */
  private write(record: object): void {
    fs.writeSync(this.fd, `${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
  }
}

function withoutType<T extends { type: string }>(event: T): Omit<T, "type"> {
  const { type: _, ...rest } = event;
  return rest;
}
