// The REPL on a terminal: Node's readline edits the line (arrows, Home/End,
// Ctrl-A/E/U/W/K) and recalls earlier questions (Up/Down), kept across
// sessions in a history file; src/repl/keyboard.ts handles Ctrl-C, paste
// and type-ahead; src/repl/step.ts the step-through pauses.
import readline from "node:readline";
import { escapeControl } from "../guards/escape.js";
import { attachFiles } from "./attach.js";
import { runCommand } from "./commands.js";
import { completer } from "./complete.js";
import { HISTORY_SIZE, History, historyFile } from "./history.js";
import { Keyboard, PASTED_NEWLINE } from "./keyboard.js";
import { SessionStore, sessionsFolder } from "./saved-sessions.js";
import { type Session, say } from "./session.js";
import { stepper } from "./step.js";
import { suspend } from "./suspend.js";

const PROMPT = "you > ";

export interface TerminalOptions {
  banner: string;
  /** --no-history: remember no questions (else ~/.scout_history, or $SCOUT_HISTORY). */
  noHistory?: boolean;
  /** --step: start in step-through mode. */
  step?: boolean;
  /** --continue: the newest session of this workspace; --resume: one picked from a list. */
  resume?: "continue" | "pick";
}

/** The interactive loop: `you > ` prompts until /exit, Ctrl-D, or Ctrl-C twice at an empty prompt. */
export async function runTerminal(session: Session, options: TerminalOptions): Promise<number> {
  console.log(escapeControl(options.banner));
  const history = new History(options.noHistory ? undefined : historyFile()); // before raw mode: none of this may hang it
  const sessions = new SessionStore(sessionsFolder(), session.options.workspace.root);
  if (options.resume) await resumeSession(session, sessions, options.resume);
  const keyboard = new Keyboard();
  const rl = readline.createInterface({
    input: keyboard.stream,
    output: process.stdout,
    terminal: true,
    prompt: PROMPT,
    history: history.entries,
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: completer(session.options.workspace),
  });
  rl.on("history", (entries: string[]) => history.save(entries));
  keyboard.insertText = (text) => rl.write(text); // at the cursor, as one string
  // Backslash-Enter at the end of the line: the backslash becomes a line break, and nothing is sent yet.
  keyboard.onEnter = () => {
    if (rl.cursor !== rl.line.length || !rl.line.endsWith("\\")) return false;
    rl.write(null, { name: "backspace" });
    rl.write(PASTED_NEWLINE);
    return true;
  };
  let atPrompt = true;
  keyboard.onSuspend = () => {
    const resume = () => {
      keyboard.restore();
      if (atPrompt) rl.prompt(true); // the prompt and the line as they were, cursor included
    };
    if (!suspend(() => keyboard.release(), resume))
      say("\n(Ctrl-Z: no shell with job control to return to here, so Scout stays; /exit or Ctrl-D quits)");
  };
  keepWrappedLineOnResize(rl);

  const steps = stepper(
    () => session.options.log.step + 1,
    (sawEscape) => keyboard.afterKeyIn(sawEscape),
  );
  const setStepping = (on: boolean) => {
    session.stepThrough = on ? steps : undefined;
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
  // While the person types, the loop, the tools and marked load (if they cannot, the turn says so in one line).
  session.loadTurnCode().catch(() => {});
  try {
    for await (const line of rl) {
      const question = line.replaceAll(PASTED_NEWLINE, "\n");
      if (question.trim() === "") {
        // nothing to ask
      } else if (question.startsWith("/")) {
        if ((await runCommand(session, question, { setStepping })) === "exit") break;
        if (/^\/(clear|reset)\b/.test(question)) sessions.startNew();
      } else {
        const lines = question.split("\n").length;
        if (lines > 1) say(`(${lines} lines, ${question.length} characters, sent as one question)`);
        keyboard.onCancel = session.cancel;
        atPrompt = false;
        steps.newTurn();
        if (!keyboard.startTurn()) say("(cancelled; the conversation is as it was before this question)");
        else {
          const attached = await attachFiles(question, session.options.workspace);
          if ("refused" in attached) say(attached.refused);
          else {
            for (const note of attached.notes) session.options.log.notice(note);
            if ((await session.ask(attached.question)) === "answered") sessions.save(session.history);
          }
        }
      }
      atPrompt = true;
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

/**
 * When the window narrows, a terminal that reflows (tmux, VTE, iTerm2,
 * kitty) wraps the input line onto more rows than readline drew; readline
 * then moves up by the old count and leaves a stale copy above. Counting
 * the cursor's row at the new width first lets it clear the whole line.
 */
function keepWrappedLineOnResize(rl: readline.Interface): void {
  const line = rl as unknown as { prevRows: number };
  process.stdout.prependListener("resize", () => {
    line.prevRows = rl.getCursorPos().rows;
  });
}

/** --continue and --resume: the history of an earlier session of this workspace, picked in cooked mode. */
async function resumeSession(session: Session, store: SessionStore, how: "continue" | "pick"): Promise<void> {
  const found = store.recent();
  if (found.length === 0) return say("(no earlier session in this workspace to resume; this one starts new)");
  let chosen = found[0];
  if (how === "pick") {
    found.forEach((saved, i) => {
      const when = saved.updated.slice(0, 16).replace("T", " ");
      console.log(escapeControl(`  ${i + 1}  ${when}  ${saved.questions} question(s)  ${saved.first.slice(0, 60)}`));
    });
    const { createInterface } = await import("node:readline/promises");
    const ask = createInterface({ input: process.stdin, output: process.stdout });
    const answer = (await ask.question(`resume which? [1-${found.length}, Enter: 1] `)).trim();
    ask.close();
    const n = answer === "" ? 1 : Number(answer);
    if (!Number.isInteger(n) || n < 1 || n > found.length) return say("(none picked; this session starts new)");
    chosen = found[n - 1];
  }
  session.history = chosen.history;
  store.resume(chosen);
  say(`(resumed: ${chosen.questions} question(s), last saved ${chosen.updated}; /clear starts a new session)`);
}
