// Step-through mode (--step, /step on): Scout pauses before each model call and each tool call for one key.
//
// The loop knows nothing of it: the pause listens to the loop's step events (model_request, tool_call),
// which come before each call, and the tools are wrapped so a skipped one is not run.
//
// The pause is one synchronous call, readline-sync's keyIn, so the loop waits
// inside its onStep call and then goes on. keyIn reads the terminal itself
// (/dev/tty) and puts it back in cooked mode, with stdin paused; `afterKey`
// lets the caller undo that.
//
// keyIn drops control characters (Esc, Ctrl-C) and skips Enter, so it is
// asked for the key's byte in hex (its `encoding` option, passed to
// Buffer#toString): Esc is "1b", Ctrl-C "03", Enter "0d", and none is
// dropped. The pause line is written here, not given to keyIn as its query,
// which would expand readline-sync's placeholders ("$<cwd>") in model input.
import { createRequire } from "node:module";
import type ReadlineSync from "readline-sync";
import type { StepEvent } from "../core/loop.js";
import type { Tool, ToolResult } from "../core/tool.js";
import { escapeControl } from "../guards/escape.js";
import { formatCount } from "../guards/format.js";
import { formatInput } from "../steplog.js";

/** What Scout is about to do, as a pause shows it. */
export type Pending =
  | { kind: "model_call"; messages: number; inputTokensSoFar: number }
  | { kind: "tool_call"; name: string; input: unknown };
/** run: go ahead; skip: do not run this tool (the model is told); quit: end the turn, rolled back like a cancel. */
export type Verdict = "run" | "skip" | "quit";

/** Thrown when a pause answers "quit": the turn is rolled back, as for Ctrl-C. */
export class TurnQuit extends Error {
  constructor() {
    super("stopped by the user");
  }
}

/** The result the model gets for a tool call the user skipped. */
export const SKIPPED: ToolResult = {
  content: "Not run: skipped by the user (step-through mode).",
  isError: true,
  facts: { skipped: true },
};

/** What each key's byte (in hex, as keyIn reads it) does; any other key runs the step. */
const KEY_VERDICTS: Record<string, "run" | "skip" | "continue" | "quit"> = {
  "20": "run", // space
  "0d": "run", // Enter
  "0a": "run",
  "73": "skip", // s
  "53": "skip",
  "63": "continue", // c
  "43": "continue",
  "71": "quit", // q
  "51": "quit",
  "1b": "quit", // Esc
  "03": "quit", // Ctrl-C
};

/** A key read for a pending step: its verdict ("c" answers "run", and stops pausing until the next turn). */
export type AskKey = (pending: Pending) => Verdict | "continue";

/**
 * Step-through for one session: `onStep` goes first among the loop's listeners (it pauses, and throws TurnQuit
 * to quit), `tools` wraps the tools so a skipped call is not run. `newTurn` pauses again after a "c".
 */
export class StepThrough {
  private continuing = false;
  private skipNext = false;
  private inputTokens = 0;

  constructor(private readonly askKey: AskKey) {}

  newTurn(): void {
    this.continuing = false;
    this.inputTokens = 0;
  }

  readonly onStep = (event: StepEvent): void => {
    if (event.type === "model_response") this.inputTokens += event.usage.input_tokens;
    if (event.type === "tool_result") this.skipNext = false;
    if (event.type !== "model_request" && event.type !== "tool_call") return;
    const pending: Pending =
      event.type === "model_request"
        ? { kind: "model_call", messages: event.request.messages.length, inputTokensSoFar: this.inputTokens }
        : { kind: "tool_call", name: event.name, input: event.input };
    const verdict = this.continuing ? "run" : this.askKey(pending);
    if (verdict === "quit") throw new TurnQuit();
    if (verdict === "continue") this.continuing = true;
    this.skipNext = verdict === "skip";
  };

  tools(tools: Tool[]): Tool[] {
    return tools.map((tool) => ({
      ...tool,
      run: async (args, context) => (this.skipNext ? SKIPPED : tool.run(args, context)),
    }));
  }
}

/** Step-through at the terminal: each pause a line on stderr and one key. `nextStep()` is the [n] the step gets. */
export function stepper(nextStep: () => number, afterKey: (sawEscape: boolean) => void = () => {}): StepThrough {
  return new StepThrough((pending) => {
    const what =
      pending.kind === "model_call"
        ? `model call with ${pending.messages} message${pending.messages === 1 ? "" : "s"}, ${formatCount(pending.inputTokensSoFar)} input tokens so far this turn`
        : `${pending.name} ${formatInput(pending.input)}`;
    const keys =
      pending.kind === "tool_call"
        ? "[space/Enter run · s skip · c continue · q/Esc/Ctrl-C quit]"
        : "[space/Enter run · c continue · q/Esc/Ctrl-C quit]";
    // with the step log: stdout carries only answers
    process.stderr.write(`⏸ [${nextStep()}] next: ${escapeControl(what)} ${keys} `);
    // Required on first use, not imported: see CommonJS packages in src/guards/ignore-rules.ts.
    const readlineSync = createRequire(import.meta.url)("readline-sync") as typeof ReadlineSync;
    const readKey = () => readlineSync.keyIn("", { hideEchoBack: true, mask: "", encoding: "hex" as BufferEncoding });
    let byte = readKey();
    // Other keys are ignored, as are a model call's "s"; a key of several bytes is read byte by byte.
    while (!KEY_VERDICTS[byte] || (KEY_VERDICTS[byte] === "skip" && pending.kind !== "tool_call")) byte = readKey();
    const verdict = KEY_VERDICTS[byte];
    process.stderr.write(`${verdict}\n`);
    afterKey(byte === "1b"); // an arrow key's "[D" may follow its Esc
    return verdict;
  });
}
