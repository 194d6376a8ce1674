// Step-through mode (--step, /step on): the loop pauses before each decision and waits for one key.
//
// The pause is one synchronous call, readline-sync's keyIn, so the loop in
// src/agent.ts stays a straight line: `pause(decision)` returns, then the
// loop goes on. keyIn reads the terminal itself (/dev/tty) and puts it back
// in cooked mode, with stdin paused; `afterKey` lets the caller undo that.
//
// keyIn drops control characters (Esc, Ctrl-C) and skips Enter, so it is
// asked for the key's byte in hex (its `encoding` option, passed to
// Buffer#toString): Esc is "1b", Ctrl-C "03", Enter "0d", and none is
// dropped. The pause line is written here, not given to keyIn as its query,
// which would expand readline-sync's placeholders ("$<cwd>") in model input.
import { createRequire } from "node:module";
import type ReadlineSync from "readline-sync";
import type { Decision, Verdict } from "../agent.js";
import { escapeControl } from "../escape.js";
import { formatInput } from "../steplog.js";
import { formatCount } from "../tokens/count.js";

export const STEP_KEYS =
  "space or Enter runs it · s skips the tool · c continues to the end of the turn · q, Esc or Ctrl-C ends the turn";

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

/**
 * A pause for runTurn. `nextStep()` is the [n] the step log will give the
 * step. "c" stops pausing until `newTurn()`.
 */
export function stepper(nextStep: () => number, afterKey: (sawEscape: boolean) => void = () => {}) {
  let continuing = false;
  return {
    newTurn(): void {
      continuing = false;
    },
    pause(decision: Decision): Verdict {
      if (continuing) return "run";
      const what =
        decision.type === "model"
          ? `model call with ${decision.messages} message${decision.messages === 1 ? "" : "s"}, ${formatCount(decision.inputTokensSoFar)} input tokens so far this turn`
          : `${decision.name} ${formatInput(decision.input)}`;
      const keys =
        decision.type === "tool"
          ? "[space/Enter run · s skip · c continue · q/Esc/Ctrl-C quit]"
          : "[space/Enter run · c continue · q/Esc/Ctrl-C quit]";
      // with the step log: stdout carries only answers
      process.stderr.write(`⏸ [${nextStep()}] next: ${escapeControl(what)} ${keys} `);
      // Required on first use, not imported: see CommonJS packages in src/workspace/ignore-rules.ts.
      const readlineSync = createRequire(import.meta.url)("readline-sync") as typeof ReadlineSync;
      const readKey = () => readlineSync.keyIn("", { hideEchoBack: true, mask: "", encoding: "hex" as BufferEncoding });
      let byte = readKey();
      // Other keys are ignored, as are a model call's "s"; a key of several bytes is read byte by byte.
      while (!KEY_VERDICTS[byte] || (KEY_VERDICTS[byte] === "skip" && decision.type !== "tool")) byte = readKey();
      const verdict = KEY_VERDICTS[byte];
      process.stderr.write(`${verdict}\n`);
      afterKey(byte === "1b"); // an arrow key's "[D" may follow its Esc
      if (verdict === "continue") continuing = true;
      return verdict === "continue" ? "run" : verdict;
    },
  };
}
