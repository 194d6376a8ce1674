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
// A trace holds everything sent, piped stdin included, so it is created (and kept) 0600,
// and it stops at the size `scout tokens --trace` reads back. It is opened
// and written as a person's file (src/person-file.ts): a FIFO or a device is
// refused, and a write that fails (a full disk) ends the trace with one line,
// never the session.
import type { StepEvent } from "./core/loop.js";
import { PersonFileAppender, PersonFileError } from "./person-file.js";
import { estimateTokens } from "./tokens/count.js";
import { MAX_TRACE_BYTES } from "./tokens/trace-read.js";

export type FailureKind = "api_error" | "cancelled" | "stopped" | "step_cap";

/** A trace file's permissions: only its owner may read what was sent. */
export const TRACE_FILE_MODE = 0o600;

export class Trace {
  private file: PersonFileAppender | undefined;

  /**
   * Opens FILE for appending; throws a PersonFileError naming --trace if it cannot be written.
   * `onFailure` gets the one line that says why the trace stopped, when a later write fails.
   */
  constructor(
    file: string,
    private readonly onFailure: (line: string) => void = (line) => console.error(line),
  ) {
    this.file = new PersonFileAppender(file, { option: "--trace", mode: TRACE_FILE_MODE, maxBytes: MAX_TRACE_BYTES });
  }

  question(text: string, pipedChars?: number): void {
    this.write({ type: "question", text, ...(pipedChars === undefined ? {} : { piped_chars: pipedChars }) });
  }

  /**
   * A step the step log numbered `n` (model and tool), or the end of a turn, as a record of the trace's own
   * format ("model", "tool", "turn"), which `scout tokens --trace` and `--replay` read back.
   */
  step(n: number, event: StepEvent): void {
    if (event.type === "turn_end") this.write({ type: "turn", result: event.result });
    else if (event.type === "model_response") {
      const { step, model, stopReason, usage, ms, sent, content } = event;
      this.write({ type: "model", n, step, model, stopReason, usage, ms, request: sent, content });
    } else if (event.type === "tool_result") {
      const { step, name, input, ms } = event;
      const { content, isError, facts } = event.result;
      const result = { content, is_error: isError, chars: content.length, estimated_tokens: estimateTokens(content) };
      this.write({ type: "tool", n, step, name, input, result, ms, skipped: !!facts?.skipped });
    }
  }

  failure(kind: FailureKind, message: string): void {
    this.write({ type: "failure", kind, message });
  }

  /** One line per record, written with one system call: a crash loses nothing already written. */
  private write(record: object): void {
    if (!this.file) return;
    try {
      this.file.write(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
    } catch (error) {
      if (!(error instanceof PersonFileError)) throw error;
      this.file.close();
      this.file = undefined; // the session goes on, untraced
      this.onFailure(`scout: ${error.message}; the trace stops here, the session goes on`);
    }
  }
}
