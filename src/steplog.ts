// The step log: turns the loop's events into what a learner watches.
//
// One line each on stderr (stdout carries only answers), and JSON lines
// for --trace.
import fs from "node:fs";
import type { StepEvent, TurnResult, Usage } from "./agent.js";
import { estimateTokens, formatCount } from "./tokens/count.js";

/** Tool inputs longer than this are clipped in the step line (the trace keeps them whole). */
const MAX_INPUT_CHARS = 200;
const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface StepLogOptions {
  /** Hide the step lines (answers still print). */
  quiet?: boolean;
  /** Also print every tool result. */
  verbose?: boolean;
  /** Dim the step lines (only on a terminal, never with NO_COLOR). */
  color?: boolean;
  /** Show a waiting indicator until the first token arrives (only on a terminal). */
  spinner?: boolean;
  /**
   * Hold each model call's text until its stop reason is known (when stdout
   * is not a terminal, it must carry answers only): an answer goes to stdout,
   * talk before tool calls ("Let me search…") to stderr with the steps.
   */
  holdText?: boolean;
  /** Where step lines go (default: stderr). */
  writeStep?: (text: string) => void;
  /** Where answer text goes (default: stdout). */
  writeAnswer?: (text: string) => void;
}

/** The default printer: pass `log.onStep` and `log.onText` to runTurn. */
export class StepLog {
  private number = 0;
  private spinner: NodeJS.Timeout | undefined;
  private answerOpen = false;
  private held = "";
  private readonly writeStep: (text: string) => void;
  private readonly writeAnswer: (text: string) => void;

  constructor(private readonly options: StepLogOptions = {}) {
    this.writeStep = options.writeStep ?? ((text) => process.stderr.write(text));
    this.writeAnswer = options.writeAnswer ?? ((text) => process.stdout.write(text));
  }

  onStep = (event: StepEvent): void => {
    this.stopSpinner();
    if (event.type === "model_start") {
      this.startSpinner();
      return;
    }
    if (event.type === "turn") {
      this.endAnswer();
      this.number = 0;
      this.line(formatTurn(event.result));
      return;
    }
    this.endAnswer();
    this.number++;
    if (event.type === "model") {
      if (this.held && event.stopReason === "tool_use") this.line(this.held);
      else if (this.held) this.writeAnswer(`${this.held}\n`);
      this.held = "";
      this.line(
        `[${this.number}] model ${event.model} → ${event.stopReason} · ${formatUsage(event.usage)} · ${event.ms} ms`,
      );
      return;
    }
    const input = clip(JSON.stringify(event.input), MAX_INPUT_CHARS);
    const outcome = event.result.isError
      ? `error: ${clip(event.result.content.replace(/^Error: /, "").split("\n")[0], 120)}`
      : (event.result.summary ?? "done");
    this.line(
      `[${this.number}] ${event.name} ${input} → ${outcome} · ${event.ms} ms · ${formatSize(event.result.content)}`,
    );
    if (this.options.verbose) this.line(event.result.content.replace(/^/gm, "    "));
  };

  onText = (text: string): void => {
    this.stopSpinner();
    if (this.options.holdText) {
      this.held += text;
      return;
    }
    this.answerOpen = true;
    this.writeAnswer(text);
  };

  /** A turn ended by an error or Ctrl-C: finish its lines, and number the next turn from 1. */
  interrupted(): void {
    this.stopSpinner();
    this.held = "";
    this.endAnswer();
    this.number = 0;
  }

  /** Ends a streamed answer with a newline, so step lines start on their own line. */
  private endAnswer(): void {
    if (this.answerOpen) this.writeAnswer("\n");
    this.answerOpen = false;
  }

  private line(text: string): void {
    if (this.options.quiet) return;
    this.writeStep(this.options.color ? `\x1b[2m${text}\x1b[0m\n` : `${text}\n`);
  }

  private startSpinner(): void {
    if (!this.options.spinner || this.options.quiet) return;
    let frame = 0;
    this.spinner = setInterval(
      () => this.writeStep(`\r${SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length]} waiting for the model…`),
      80,
    );
  }

  private stopSpinner(): void {
    if (!this.spinner) return;
    clearInterval(this.spinner);
    this.spinner = undefined;
    this.writeStep("\r\x1b[K");
  }
}

/** The one-line summary of a turn: the path it took and what it cost. */
export function formatTurn(result: TurnResult): string {
  const end =
    { end_turn: "answer", max_tokens: "answer cut (max_tokens)", step_cap: "step cap" }[result.stopReason] ??
    result.stopReason;
  const path = [...result.toolCalls, end].join(" → ");
  const calls = `${result.modelCalls} model call${result.modelCalls === 1 ? "" : "s"}`;
  return `turn: ${path} · ${calls} · ${formatCount(result.usage.input_tokens)} input tokens · ${formatCount(result.usage.output_tokens)} output tokens`;
}

function formatUsage(usage: Usage): string {
  const cache = [
    usage.cache_read_input_tokens ? `cache read ${formatCount(usage.cache_read_input_tokens)}` : "",
    usage.cache_creation_input_tokens ? `cache write ${formatCount(usage.cache_creation_input_tokens)}` : "",
  ].filter(Boolean);
  return `${formatCount(usage.input_tokens)} in / ${formatCount(usage.output_tokens)} out tokens${cache.length ? ` (${cache.join(", ")})` : ""}`;
}

/** A tool result's size: what it adds to the context on every later request. */
export function formatSize(content: string): string {
  return `${formatCount(content.length)} chars · ~${formatCount(estimateTokens(content))} tokens`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** --trace FILE: every event as one JSON line, written at once so a crash loses nothing already done. */
export function traceWriter(file: string): (event: StepEvent) => void {
  const fd = fs.openSync(file, "a");
  return (event) => {
    if (event.type === "model_start") return;
    const record =
      event.type === "tool"
        ? {
            ...event,
            result: {
              content: event.result.content,
              is_error: event.result.isError,
              chars: event.result.content.length,
              estimated_tokens: estimateTokens(event.result.content),
            },
          }
        : event;
    fs.writeSync(fd, `${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
  };
}
