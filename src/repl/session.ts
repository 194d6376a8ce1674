// One conversation: its history, and how a question becomes a turn.
//
// Every mode (the terminal, piped stdin, -p) asks through a Session. It knows
// no model by name: the CLI picks the model and hands in what is model-specific.
import type { Decision, MessageParam, runTurn as RunTurnFn, StepEvent, Usage, Verdict } from "../agent.js";
import { escapeControl } from "../escape.js";
import type { StepLog } from "../steplog.js";
import type { Pricing } from "../tokens/cost.js";
import { SessionUsage } from "../tokens/session-usage.js";
import type { Trace } from "../trace.js";
import type { Tool } from "../tools/tool.js";
import type { Workspace } from "../workspace/workspace.js";
import type { Model, ModelRequest } from "../agent.js";

/** A model, as the CLI chose it, with what the REPL may say about it. */
export interface ModelChoice {
  model: Model;
  /** How the banner and /model name it, e.g. "Claude (claude-haiku-4-5)". */
  label: string;
  /** True when its token figures are estimates (the offline model). */
  estimated: boolean;
  /** Whose prices turn its tokens into dollars (offline: the Claude model a key would use). */
  pricing: Pricing;
}

export interface SessionOptions {
  choice: ModelChoice;
  /** /model NAME: the model of that name, or a sentence saying why not. */
  chooseModel: (name: string) => ModelChoice | string;
  /** One line saying what went wrong with a model call. */
  describeError: (error: unknown) => Promise<string>;
  /** /tokens: the schema-cost table for this model, formatted. */
  schemaCosts: (choice: ModelChoice) => Promise<string>;
  /** /request: a request as sent, block by block, with its tokens (src/tokens/request-view.ts). */
  describeRequest: (choice: ModelChoice, request: ModelRequest | undefined) => Promise<string>;
  workspace: Workspace;
  /** Claude requests carry cache breakpoints (on unless --no-cache): /request --json shows them as sent. */
  cache?: boolean;
  /** Most model calls per question; undefined: the agent's DEFAULT_MAX_STEPS. */
  maxSteps?: number;
  log: StepLog;
  trace?: Trace;
  /** A learner's loop and tools instead of Scout's (`scout --loop FILE`, `--tool FILE`: src/learner-code.ts). */
  runTurn?: typeof RunTurnFn;
  tools?: Tool[];
}

/** How a turn ended, for exit statuses: 0 answered, 1 failed, 130 cancelled. */
export type Outcome = "answered" | "failed" | "cancelled";

/** A step as --json reports it. */
export type JsonStep =
  | { n: number; type: "model"; model: string; stop_reason: string | null; usage: Usage; ms: number }
  | {
      n: number;
      type: "tool";
      name: string;
      input: unknown;
      is_error: boolean;
      skipped: boolean;
      result_chars: number;
      ms: number;
    };

export class Session {
  history: MessageParam[] = [];
  usage = new SessionUsage();
  choice: ModelChoice;
  /** Step-through mode's pause (src/repl/step.ts), or undefined to run straight through. */
  pause?: (decision: Decision) => Verdict;
  /** The last turn, for --json. */
  last = newLast();
  /** -p: one question and no conversation, so a cancel does not speak of one. */
  oneQuestion = false;
  private running?: AbortController;

  constructor(readonly options: SessionOptions) {
    this.choice = options.choice;
  }

  /** Cancels the turn that is running, if any (Ctrl-C). */
  readonly cancel = (): void => this.running?.abort();

  /** Runs one turn; the history is unchanged when it fails or is cancelled. */
  async ask(question: string, pipedChars?: number): Promise<Outcome> {
    const { workspace, maxSteps, log, trace } = this.options;
    const controller = (this.running = new AbortController());
    const last = (this.last = newLast());
    trace?.question(question, pipedChars);
    const onStep = (event: StepEvent) => {
      this.usage.record(event, this.choice.pricing);
      log.onStep(event);
      trace?.step(log.step, event);
      if (event.type === "model") {
        last.usage.input_tokens += event.usage.input_tokens;
        last.usage.output_tokens += event.usage.output_tokens;
        last.steps.push({
          n: log.step,
          type: "model",
          model: event.model,
          stop_reason: event.stopReason,
          usage: { ...event.usage },
          ms: event.ms,
        });
      }
      if (event.type === "tool") {
        const { name, input, result, ms } = event;
        last.steps.push({
          n: log.step,
          type: "tool",
          name,
          input,
          is_error: result.isError,
          skipped: !!event.skipped,
          result_chars: result.content.length,
          ms,
        });
      }
    };
    // The loop, and every tool with it, loads with the first question: the prompt does not wait for them.
    const { runTurn, TurnQuit } = await import("../agent.js");
    try {
      const result = await (this.options.runTurn ?? runTurn)(question, this.history, {
        model: this.choice.model,
        workspace,
        tools: this.options.tools,
        maxSteps,
        signal: controller.signal,
        onStep,
        onText: log.onText,
        pause: this.pause,
      });
      last.text = result.text;
      last.stopReason = result.stopReason;
      if (result.stopReason === "max_tokens") say("(the answer was cut: the model reached its output token limit)");
      else if (result.stopReason === "step_cap") {
        say(result.text);
        trace?.failure("step_cap", result.text);
        return "failed";
      } else if (result.stopReason !== "end_turn") say(`(the turn ended with stop reason "${result.stopReason}")`);
      return "answered";
    } catch (error) {
      log.interrupted();
      if (error instanceof TurnQuit || controller.signal.aborted) {
        const how = error instanceof TurnQuit ? "stopped" : "cancelled";
        say(this.oneQuestion ? `(${how}: no answer)` : `(${how}; the conversation is as it was before this question)`);
        trace?.failure(how, how === "stopped" ? "q pressed in step-through mode" : "Ctrl-C or SIGINT");
        last.error = how;
        return "cancelled";
      }
      const message = await this.options.describeError(error);
      say(`scout: ${message}`);
      trace?.failure("api_error", message);
      last.error = message;
      return "failed";
    } finally {
      this.running = undefined;
    }
  }

  /** /request and --show-request: the last request sent, or why it cannot be shown. */
  async describeLastRequest(): Promise<string> {
    try {
      return await this.options.describeRequest(this.choice, this.usage.lastRequest);
    } catch (error) {
      return `(could not count the request: ${await this.options.describeError(error)})`;
    }
  }

  /** The exit line: what the whole session cost (on stderr, with the step log). */
  sayGoodbye(): void {
    const line = this.usage.exitLine();
    if (line) this.options.log.notice(line);
  }

  /** Forgets the conversation and what it used: /clear. */
  clear(): void {
    this.history = [];
    this.usage = new SessionUsage();
  }
}

/** What --json reports about the last turn. */
function newLast() {
  return {
    steps: [] as JsonStep[],
    text: "",
    stopReason: "",
    usage: { input_tokens: 0, output_tokens: 0 },
    error: undefined as string | undefined,
  };
}

/** A line for the person at the terminal (stderr, with the step log), control characters escaped. */
export function say(text: string): void {
  process.stderr.write(`${escapeControl(text)}\n`);
}
