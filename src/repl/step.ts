// Step-through mode (--step, /step on): the loop pauses before each decision and waits for one key.
//
// The pause is one synchronous call, readline-sync's keyIn, so the loop in
// src/agent.ts stays a straight line: `pause(decision)` returns, then the
// loop goes on. keyIn reads the terminal itself (/dev/tty) and puts it back
// in cooked mode, with stdin paused; `afterKey` lets the caller undo that.
import { createRequire } from "node:module";
import type ReadlineSync from "readline-sync";
import type { Decision, Verdict } from "../agent.js";
import { escapeControl } from "../escape.js";
import { formatInput } from "../steplog.js";
import { formatCount } from "../tokens/count.js";

export const STEP_KEYS = "space runs it · s skips the tool · c continues to the end of the turn · q ends the turn";

/**
 * A pause for runTurn. `nextStep()` is the [n] the step log will give the
 * step. "c" stops pausing until `newTurn()`.
 */
export function stepper(nextStep: () => number, afterKey: () => void = () => {}) {
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
      const keys = decision.type === "tool" ? "[space/s/c/q]" : "[space/c/q]";
      // Required on first use, not imported: see CommonJS packages in src/workspace/ignore-rules.ts.
      const readlineSync = createRequire(import.meta.url)("readline-sync") as typeof ReadlineSync;
      const key = readlineSync.keyIn(`⏸ [${nextStep()}] next: ${literal(escapeControl(what))} ${keys} `, {
        limit: decision.type === "tool" ? " scq" : " cq",
        hideEchoBack: true,
        mask: "",
      });
      process.stderr.write(`${describeKey(key)}\n`); // with the step log: stdout carries only answers
      afterKey();
      if (key === "c") continuing = true;
      if (key === "q") return "quit";
      if (key === "s") return "skip";
      return "run";
    },
  };
}

/**
 * The text as readline-sync prints it: it expands placeholders such as $<cwd> (the host's folder)
 * and ${cwd} in a prompt, and the model's input may hold them. A "$" before one disables it.
 */
function literal(text: string): string {
  return text.replace(/\$(?=[<{])/g, "$$$$");
}

function describeKey(key: string): string {
  return { " ": "run", s: "skip", c: "continue", q: "quit" }[key] ?? key;
}
