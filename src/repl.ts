// The REPL: reads questions (from a terminal, a pipe or -p), runs one turn
// each, and keeps the conversation.
//
// A failed or cancelled turn prints one
// line and the next question works.
import readlineSync from "readline-sync";
import readline from "node:readline";
import { runTurn, type MessageParam, type Model, type StepEvent } from "./agent.js";
import type { StepLog } from "./steplog.js";
import type { Counter } from "./tokens/count.js";
import { formatSchemaCosts, measureSchemaCosts } from "./tokens/schema-costs.js";
import { SessionUsage } from "./tokens/session-usage.js";
import { tools } from "./tools/index.js";
import type { Workspace } from "./workspace/workspace.js";

const HELP = `Ask a question about the code in the workspace, e.g. "where is main defined?"
  /tools   the tools the model can call
  /tokens  what the tool schemas cost, and what this session has used
  /reset   forget the conversation
  /help    this help
  /exit    quit (or Ctrl-D); Ctrl-C cancels a running turn`;

export interface SessionOptions {
  model: Model;
  workspace: Workspace;
  maxSteps: number;
  log: StepLog;
  trace?: (event: StepEvent) => void;
  /** True for the offline model, whose usage figures are its own estimates. */
  offline: boolean;
  /** Counts tokens for /tokens: exactly through the API, or by local estimate offline. */
  counter: Counter;
  /** One line saying what went wrong with a model call. */
  describeError: (error: unknown) => Promise<string>;
}

/** One conversation: its history, and how a question becomes a turn. */
export class Session {
  history: MessageParam[] = [];
  usage = new SessionUsage();
  private running?: AbortController;
  constructor(private readonly options: SessionOptions) {}

  /** Cancels the turn that is running, if any (Ctrl-C). */
  readonly cancel = (): void => this.running?.abort();

  /** Runs one turn. Returns false when the model call failed (the history is unchanged then). */
  async ask(question: string): Promise<boolean> {
    const { model, workspace, maxSteps, log, trace } = this.options;
    const controller = (this.running = new AbortController());
    process.on("SIGINT", this.cancel); // Ctrl-C in a pipe, or `kill -INT`: cancels this turn, not Scout
    try {
      const onStep = (event: StepEvent) => {
        trace?.(event);
        this.usage.record(event);
        log.onStep(event);
      };
      const result = await runTurn(question, this.history, {
        model,
        workspace,
        maxSteps,
        signal: controller.signal,
        onStep,
        onText: log.onText,
      });
      if (result.stopReason === "max_tokens")
        console.error("(the answer was cut: the model reached its output token limit)");
      else if (result.stopReason === "step_cap") console.error(result.text);
      else if (result.stopReason !== "end_turn")
        console.error(`(the turn ended with stop reason "${result.stopReason}")`);
      return true;
    } catch (error) {
      log.interrupted();
      if (controller.signal.aborted) {
        console.error("(cancelled; the conversation is as it was before this question)");
        return true;
      }
      console.error(`scout: ${await this.options.describeError(error)}`);
      return false;
    } finally {
      process.off("SIGINT", this.cancel);
      this.running = undefined;
    }
  }

  /** Handles a /command. Returns "exit" for /exit. */
  async command(line: string): Promise<"exit" | void> {
    const [name] = line.trim().split(/\s+/);
    if (name === "/exit" || name === "/quit") return "exit";
    if (name === "/help") console.log(HELP);
    else if (name === "/tools")
      for (const tool of tools) console.log(`${tool.name.padEnd(11)} ${firstSentence(tool.description)}`);
    else if (name === "/tokens") await this.printTokens();
    else if (name === "/reset") {
      this.history = [];
      console.log("(conversation cleared)");
    } else console.log(`unknown command ${name}; try /help`);
  }

  /** /tokens: the schema costs (exact with Claude, estimated offline) and this session's usage. */
  private async printTokens(): Promise<void> {
    const { model, offline, counter } = this.options;
    try {
      const costs = await measureSchemaCosts(counter, offline ? "estimate" : "exact", model.name);
      console.log(formatSchemaCosts(costs));
    } catch (error) {
      console.log(`(could not count the schemas: ${await this.options.describeError(error)})`);
    }
    console.log(`\n${this.usage.format(offline)}`);
  }
}

/** A description's first sentence: up to the first period and space that do not end "e.g.". */
function firstSentence(text: string): string {
  return /^.*?(?<!e\.g)\.(?=\s)/.exec(text)?.[0] ?? text;
}

/** The interactive loop on a terminal: `you > ` prompts until /exit or Ctrl-D. */
export async function runTerminal(session: Session, banner: string): Promise<number> {
  console.log(banner);
  for (;;) {
    const line = readlineSync.question("you > ");
    if (readlineSync.getRawInput().includes("\0")) {
      console.log(); // Ctrl-D: end the prompt's line, so the shell's prompt starts on its own
      return 0;
    }
    if (line.trim() === "") continue;
    if (line.startsWith("/")) {
      if ((await session.command(line)) === "exit") return 0;
      continue;
    }
    await askWithCtrlCAsKey(session, line);
  }
}

/**
 * Runs a turn with the terminal in raw mode, so that Ctrl-C arrives as the
 * byte \x03 instead of a SIGINT. The terminal sends its SIGINT to every
 * process in the foreground group: under `npm start` or `npx scout` that
 * includes npm and its shell, and the shell would exit with status 130 when
 * Scout ends, however the session went. At the prompt, Ctrl-C is a signal
 * again and quits.
 */
async function askWithCtrlCAsKey(session: Session, question: string): Promise<boolean> {
  const onKeys = (keys: Buffer) => {
    if (keys.includes(0x03)) session.cancel();
  };
  process.stdin.setRawMode(true).on("data", onKeys).resume(); // readline-sync left it paused
  try {
    return await session.ask(question);
  } finally {
    process.stdin.off("data", onKeys).setRawMode(false).pause(); // the prompt reads the terminal itself
  }
}

/** Not a terminal: one question per line of stdin; exit status 1 if any model call failed. */
export async function runPiped(session: Session): Promise<number> {
  let failed = false;
  for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === "") continue;
    if (line.startsWith("/")) {
      if ((await session.command(line)) === "exit") break;
      continue;
    }
    if (!(await session.ask(line))) failed = true;
  }
  process.stdin.destroy(); // after /exit: an open stdin would keep Scout running
  return failed ? 1 : 0;
}
