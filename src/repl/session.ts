// One conversation: its history, and how a question becomes a turn.
//
// Every mode (the terminal, piped stdin, -p) asks through a Session. It knows
// no model by name: the CLI picks the model and hands in what is model-specific.
import type { MessageParam, runTurn as RunTurnFn, StepEvent, TurnResult } from "../core/loop.js";
import type { Conversation } from "../core/session.js";
import { escapeControl } from "../guards/escape.js";
import type { StepLog } from "../steplog.js";
import type { Pricing } from "../tokens/cost.js";
import { SessionUsage } from "../tokens/session-usage.js";
import type { Trace } from "../trace.js";
import type { Tool } from "../core/tool.js";
import type { Workspace } from "../core/workspace.js";
import type { Model, ModelRequest } from "../core/loop.js";
import { listens } from "../models/listening.js";
import { JsonTurn } from "./json-turn.js";
import { type StepThrough, TurnQuit } from "./step.js";

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
  /** What a turn needs loaded that the prompt need not wait for (marked, to draw the answer); awaited before each. */
  loadForTurn?: () => Promise<void>;
  /** A learner's loop and tools instead of Scout's (`scout --loop FILE`, `--tool FILE`: src/learner-code.ts). */
  runTurn?: typeof RunTurnFn;
  tools?: Tool[];
}

/** How a turn ended, for exit statuses: 0 answered, 1 failed, 130 cancelled. */
export type Outcome = "answered" | "failed" | "cancelled";

export class Session {
  usage = new SessionUsage();
  choice: ModelChoice;
  /** Step-through mode (src/repl/step.ts), or undefined to run straight through. */
  stepThrough?: StepThrough;
  /** The last turn, for --json. */
  last = new JsonTurn();
  /** -p: one question and no conversation, so a cancel does not speak of one. */
  oneQuestion = false;
  /** The history before the first question loads the core (a resumed session's). */
  private before: MessageParam[] = [];
  private conversation?: Conversation;
  private running?: AbortController;
  private turnCode?: Promise<[typeof import("../core/session.js"), typeof import("../core/scout.js"), void]>;

  constructor(readonly options: SessionOptions) {
    this.choice = options.choice;
  }

  /** The conversation so far; a new history (a resumed session) replaces it. */
  get history(): MessageParam[] {
    return this.conversation?.history ?? this.before;
  }
  set history(history: MessageParam[]) {
    if (this.conversation) this.conversation.history = history;
    else this.before = history;
  }

  /** Cancels the turn that is running, if any (Ctrl-C). */
  readonly cancel = (): void => this.running?.abort();

  /** Runs one turn; the history is unchanged when it fails or is cancelled. */
  async ask(question: string, pipedChars?: number): Promise<Outcome> {
    const { log, trace } = this.options;
    const controller = (this.running = new AbortController());
    const last = (this.last = new JsonTurn());
    const model = this.choice.model;
    this.stepThrough?.newTurn();
    trace?.question(question, pipedChars);
    // Every listener keeps its own account; the step-through pause goes first, so nothing starts before the key.
    const onStep = (event: StepEvent) => {
      this.stepThrough?.onStep(event);
      if (listens(model)) model.onStep(event); // the offline model reads the tools' facts
      this.usage.record(event, this.choice.pricing);
      log.onStep(event);
      trace?.step(log.step, event);
      last.record(event, log.step);
    };
    try {
      const conversation = await this.conversationFor(model); // loading the loop or a tool can fail too
      const result = await conversation.ask(question, { signal: controller.signal, onStep, onText: log.onText });
      return this.ended(result);
    } catch (error) {
      log.interrupted();
      const how = error instanceof TurnQuit ? "stopped" : controller.signal.aborted ? "cancelled" : undefined;
      last.error = how ?? (await this.options.describeError(error));
      if (how)
        say(this.oneQuestion ? `(${how}: no answer)` : `(${how}; the conversation is as it was before this question)`);
      else say(`scout: ${last.error}`);
      const why = how === "stopped" ? "q pressed in step-through mode" : how ? "Ctrl-C or SIGINT" : last.error;
      trace?.failure(how ?? "api_error", why);
      return how ? "cancelled" : "failed";
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Loads what a turn runs: the loop, the tools and `loadForTurn`'s, once. A turn awaits it; the REPL starts it
   * as soon as its prompt is up, so a typed first question finds it loaded and the prompt did not wait for it.
   */
  loadTurnCode() {
    this.turnCode ??= Promise.all([
      import("../core/session.js"),
      import("../core/scout.js"),
      this.options.loadForTurn?.(),
    ]).catch((error) => {
      this.turnCode = undefined; // the next turn tries again
      throw error;
    });
    return this.turnCode;
  }

  /** The core's Conversation, made on the first question, set up for this one: the model, the tools (stepped or not). */
  private async conversationFor(model: Model): Promise<Conversation> {
    const [{ Conversation }, { tools: scoutTools }] = await this.loadTurnCode();
    const { workspace, maxSteps, runTurn: loop, tools = scoutTools } = this.options;
    this.conversation ??= new Conversation({ model, workspace }, this.before);
    const stepped = this.stepThrough ? this.stepThrough.tools(tools) : tools;
    Object.assign(this.conversation.setup, { model, tools: stepped, maxSteps, loop });
    return this.conversation;
  }

  /** What a finished turn's stop reason tells the person, and the outcome it makes. */
  private ended(result: TurnResult): Outcome {
    if (result.stopReason === "max_tokens") say("(the answer was cut: the model reached its output token limit)");
    else if (result.stopReason === "step_cap") {
      say(result.text);
      this.options.trace?.failure("step_cap", result.text);
      return "failed";
    } else if (result.stopReason !== "end_turn") say(`(the turn ended with stop reason "${result.stopReason}")`);
    return "answered";
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

/** A line for the person at the terminal (stderr, with the step log), control characters escaped. */
export function say(text: string): void {
  process.stderr.write(`${escapeControl(text)}\n`);
}
