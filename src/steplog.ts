// The step log: turns the loop's events into what a learner watches.
//
// One line each on stderr (stdout carries only answers); everything it
// prints has its control characters escaped (src/guards/escape.ts).
import type { StepEvent, TurnResult, Usage } from "./core/loop.js";
import { escapeControl } from "./guards/escape.js";
import { estimateTokens } from "./tokens/count.js";
import { formatCount } from "./guards/format.js";
import { describeUsage, type Pricing } from "./tokens/cost.js";

/** Tool inputs longer than this are clipped in the step line and the pause line (the trace keeps them whole). */
const MAX_INPUT_CHARS = 200;
const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface StepLogOptions {
  /** Hide the step lines (answers still print). */
  quiet?: boolean;
  /** Also print every tool result. */
  verbose?: boolean;
  /** Dim the step lines (only on a terminal, never with NO_COLOR). */
  color?: boolean;
  /** Show a waiting indicator with the elapsed time until output starts (only on a terminal). */
  spinner?: boolean;
  /**
   * Hold each model call's text until its stop reason is known (when stdout
   * is not a terminal, it must carry answers only): an answer goes to stdout,
   * talk before tool calls ("Let me search…") to stderr with the steps.
   */
  holdText?: boolean;
  /** Whose prices turn the turn line's tokens into dollars, asked at each turn (none: tokens only). */
  pricing?: () => Pricing | undefined;
  /** Where step lines go (default: stderr). */
  writeStep?: (text: string) => void;
  /** Where answer text goes (default: stdout). */
  writeAnswer?: (text: string) => void;
  /** Draws streamed answer text instead of writing it as is (a terminal's Markdown, src/repl/markdown.ts). */
  answerDrawer?: (write: (text: string) => void) => AnswerDrawer;
}

/** What draws a streamed answer: text as it arrives (already escaped), then the answer's end. */
export interface AnswerDrawer {
  push(text: string): void;
  end(): void;
}

/** The default printer: pass `log.onStep` and `log.onText` to runTurn. */
export class StepLog {
  private number = 0;
  private spinner: NodeJS.Timeout | undefined;
  private spinnerShown = false;
  private answerOpen = false;
  private held = "";
  private readonly writeStep: (text: string) => void;
  private readonly writeAnswer: (text: string) => void;
  private readonly drawer: AnswerDrawer | undefined;

  constructor(private readonly options: StepLogOptions = {}) {
    this.writeStep = options.writeStep ?? ((text) => process.stderr.write(text));
    this.writeAnswer = options.writeAnswer ?? ((text) => process.stdout.write(text));
    this.drawer = options.answerDrawer?.(this.writeAnswer);
  }

  /** The [n] of the last step line: the trace numbers its records the same way. */
  get step(): number {
    return this.number;
  }

  onStep = (event: StepEvent): void => {
    this.stopSpinner();
    if (event.type === "model_request" || event.type === "tool_call") {
      this.startSpinner(event.type === "model_request" ? "waiting for the model" : `running ${event.name}`);
      return;
    }
    if (event.type === "turn_end") {
      this.endAnswer();
      this.number = 0;
      this.line(formatTurn(event.result, this.options.pricing?.()));
      return;
    }
    this.endAnswer();
    this.number++;
    if (event.type === "model_response") {
      if (this.held && event.stopReason === "tool_use") this.line(this.held);
      else if (this.held) this.writeAnswer(`${escapeControl(this.held)}\n`);
      this.held = "";
      this.line(
        `[${this.number}] model ${event.model} → ${event.stopReason} · ${formatUsage(event.usage)} · ${event.ms} ms`,
      );
      return;
    }
    const input = formatInput(event.input);
    const outcome = event.result.facts?.skipped
      ? "skipped by the user"
      : event.result.isError
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
    if (this.drawer) this.drawer.push(escapeControl(text));
    else this.writeAnswer(escapeControl(text));
  };

  /** A line that is not a step (a retry, a pause): printed now, unless quiet. */
  notice(text: string): void {
    const spinning = this.spinner !== undefined;
    this.stopSpinner();
    this.endAnswer();
    this.line(text);
    if (spinning) this.startSpinner(this.spinnerLabel);
  }

  /** A turn ended by an error or Ctrl-C: finish its lines, and number the next turn from 1. */
  interrupted(): void {
    this.stopSpinner();
    this.held = "";
    this.endAnswer();
    this.number = 0;
  }

  /** Ends a streamed answer with a newline, so step lines start on their own line. */
  private endAnswer(): void {
    if (this.answerOpen) {
      this.drawer?.end();
      this.writeAnswer("\n");
    }
    this.answerOpen = false;
  }

  private line(text: string): void {
    if (this.options.quiet) return;
    const safe = escapeControl(text); // before the colour codes: Scout's own escapes stay
    this.writeStep(this.options.color ? `\x1b[2m${safe}\x1b[0m\n` : `${safe}\n`);
  }

  private spinnerLabel = "";
  /** A spinner, "waiting for the model", an ellipsis and the seconds ("3 s"), redrawn in place until output starts. */
  private startSpinner(label: string): void {
    this.spinnerLabel = label;
    if (!this.options.spinner || this.options.quiet) return;
    const started = Date.now();
    let frame = 0;
    this.spinner = setInterval(() => {
      const seconds = Math.floor((Date.now() - started) / 1000);
      const frameChar = SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length];
      this.writeStep(`\r${frameChar} ${escapeControl(label)}… ${seconds} s\x1b[K`);
      this.spinnerShown = true;
    }, 80);
  }

  private stopSpinner(): void {
    if (!this.spinner) return;
    clearInterval(this.spinner);
    this.spinner = undefined;
    if (this.spinnerShown) this.writeStep("\r\x1b[K");
    this.spinnerShown = false;
  }
}

/** The one-line summary of a turn: the path it took and what it cost, in tokens and (with `pricing`) dollars. */
export function formatTurn(result: TurnResult, pricing?: Pricing): string {
  const end =
    { end_turn: "answer", max_tokens: "answer cut (max_tokens)", step_cap: "step cap" }[result.stopReason] ??
    result.stopReason;
  const path = [...result.toolCalls, end].join(" → ");
  const calls = `${result.modelCalls} model call${result.modelCalls === 1 ? "" : "s"}`;
  return `turn: ${path} · ${calls} · ${describeUsage(result.usage, pricing)}`;
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

/** A tool's input as a person reads it: its JSON, clipped (the step line, and --step's pause line). */
export function formatInput(input: unknown): string {
  return clip(JSON.stringify(input), MAX_INPUT_CHARS);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
