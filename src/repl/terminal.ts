// The REPL on a terminal: Node's readline edits the line (arrows, Home/End,
// Ctrl-A/E/U/W/K) and recalls earlier questions (Up/Down), kept across
// sessions in a history file; src/repl/keyboard.ts handles Ctrl-C, paste
// and type-ahead; src/repl/step.ts the step-through pauses.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { escapeControl } from "../escape.js";
import { warmTokenizer } from "../tokens/count.js";
import { runCommand } from "./commands.js";
import { Keyboard, PASTED_NEWLINE } from "./keyboard.js";
import { type Session, say } from "./session.js";
import { stepper } from "./step.js";

/** Questions kept in the history file (the oldest are dropped). */
export const HISTORY_SIZE = 1000;
const PROMPT = "you > ";

/** The history file: $SCOUT_HISTORY, or ~/.scout_history; SCOUT_HISTORY set to "" turns it off. */
export function historyFile(env = process.env): string | undefined {
  if (env.SCOUT_HISTORY !== undefined) return env.SCOUT_HISTORY || undefined;
  return path.join(os.homedir(), ".scout_history");
}

export interface TerminalOptions {
  banner: string;
  /** Where questions are remembered; undefined: nowhere. */
  historyFile?: string;
  /** --step: start in step-through mode. */
  step?: boolean;
}

/** The interactive loop: `you > ` prompts until /exit, Ctrl-D, or Ctrl-C twice at an empty prompt. */
export async function runTerminal(session: Session, options: TerminalOptions): Promise<number> {
  console.log(escapeControl(options.banner));
  warmTokenizer(); // on another thread, while the person types: the first answer need not wait ~1.2 s for it
  const keyboard = new Keyboard();
  const rl = readline.createInterface({
    input: keyboard.stream,
    output: process.stdout,
    terminal: true,
    prompt: PROMPT,
    history: loadHistory(options.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  rl.on("history", (entries: string[]) => saveHistory(options.historyFile, entries));

  const steps = stepper(
    () => session.options.log.step + 1,
    () => keyboard.afterKeyIn(),
  );
  const setStepping = (on: boolean) => {
    session.pause = on ? steps.pause : undefined;
  };
  setStepping(Boolean(options.step));

  // Ctrl-C at the prompt: with text, clears the line; on an empty line, says how to leave; twice, leaves.
  let ctrlCBefore = false;
  keyboard.onKeys = (keys) => {
    if (keys !== "\x03") ctrlCBefore = false;
  };
  rl.on("SIGINT", () => {
    if (rl.line.length > 0) {
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      ctrlCBefore = false;
      return;
    }
    if (ctrlCBefore) return rl.close();
    ctrlCBefore = true;
    process.stdout.write("\n(to leave, press Ctrl-C again or Ctrl-D; /help lists the commands)\n");
    rl.prompt();
  });

  rl.prompt();
  try {
    for await (const line of rl) {
      const question = line.replaceAll(PASTED_NEWLINE, "\n");
      if (question.trim() === "") {
        // nothing to ask
      } else if (question.startsWith("/")) {
        if ((await runCommand(session, question, { setStepping })) === "exit") break;
      } else {
        const lines = question.split("\n").length;
        if (lines > 1) say(`(pasted: ${lines} lines, ${question.length} characters, sent as one question)`);
        keyboard.onCancel = session.cancel;
        keyboard.startTurn();
        steps.newTurn();
        await session.ask(question);
      }
      rl.prompt();
      keyboard.endTurn(); // after the prompt: the keys typed during the turn appear on its line
    }
  } finally {
    process.stdout.write("\n"); // the shell's prompt starts on its own line
    rl.close();
    keyboard.close();
  }
  session.sayGoodbye();
  return 0;
}

function loadHistory(file: string | undefined): string[] {
  if (!file) return [];
  try {
    return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).reverse().slice(0, HISTORY_SIZE);
  } catch {
    return []; // no history yet
  }
}

let historyWarned = false;
/** One question per line, oldest first; readonly to others, since questions can hold secrets. */
function saveHistory(file: string | undefined, entries: string[]): void {
  if (!file) return;
  try {
    fs.writeFileSync(file, `${[...entries].reverse().join("\n")}\n`, { mode: 0o600 });
  } catch (error) {
    if (!historyWarned) say(`(the history is not saved: ${(error as Error).message}; SCOUT_HISTORY= turns it off)`);
    historyWarned = true;
  }
}
