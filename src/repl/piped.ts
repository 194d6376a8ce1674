// Scout without a terminal: one question per line of piped stdin, or one -p question (piped stdin sent along).
//
// SIGINT cancels the turn and ends the whole batch.
import readline from "node:readline";
import { sumUsage } from "../tokens/cost.js";
import { escapeJson } from "../guards/escape.js";
import { formatCount } from "../guards/format.js";
import { dollars, priceOf } from "../tokens/prices.js";
import { runCommand } from "./commands.js";
import { type Outcome, type Session, say } from "./session.js";

/** Most characters of piped stdin sent along with a -p question (1 MiB of ASCII, ~250k tokens). */
export const MAX_PIPED_CHARS = 1024 * 1024;
/** Exit statuses: answered, a model call (or the API) failed, usage error, cancelled by Ctrl-C / SIGINT. */
export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

/** Ctrl-C in a pipe, or `kill -INT`: cancels the running turn and stops the batch. */
function onSigint(session: Session, stop: () => void): () => void {
  const handler = () => {
    session.cancel();
    stop();
  };
  process.on("SIGINT", handler);
  return () => process.off("SIGINT", handler);
}

/** Between two answers of a batch on stdout, so a reader can tell them apart (a Markdown rule). */
export const ANSWER_SEPARATOR = "\n---\n\n";

/** One question per line of stdin; exit status 1 if any model call failed, 130 after SIGINT. */
export async function runPiped(session: Session): Promise<number> {
  let failed = false;
  let answered = false;
  let interrupted = false;
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const off = onSigint(session, () => {
    interrupted = true;
    lines.close();
  });
  try {
    for await (const line of lines) {
      if (interrupted) break;
      if (line.trim() === "") continue;
      if (line.startsWith("/")) {
        if ((await runCommand(session, line)) === "exit") break;
        continue;
      }
      if (answered) process.stdout.write(ANSWER_SEPARATOR); // before the answer streams
      const outcome = await session.ask(line);
      if (outcome === "failed") failed = true;
      if (outcome === "answered") answered = true;
      if (interrupted) break;
    }
  } finally {
    off();
    process.stdin.destroy(); // after /exit or SIGINT: an open stdin would keep Scout running
  }
  session.sayGoodbye();
  return interrupted ? EXIT.cancelled : failed ? EXIT.failed : EXIT.ok;
}

/** `-p "question"`: stdin, when piped, goes along with the question; --json prints one object for scripts. */
export async function runOnce(session: Session, question: string, options: { json?: boolean }): Promise<number> {
  const started = Date.now();
  session.oneQuestion = true;
  let interrupted = false;
  const off = onSigint(session, () => {
    interrupted = true;
  });
  let outcome: Outcome;
  try {
    const piped = process.stdin.isTTY ? "" : await readStdin();
    if (piped.length > MAX_PIPED_CHARS) {
      say(
        `scout: piped stdin is ${formatCount(piped.length)} characters; at most ${formatCount(MAX_PIPED_CHARS)} go with -p`,
      );
      return EXIT.usage;
    }
    if (piped) session.options.log.notice(`(stdin: ${formatCount(piped.length)} characters sent with the question)`);
    const full = piped ? `${question}\n\n<stdin>\n${piped}\n</stdin>` : question;
    outcome = await session.ask(full, piped ? piped.length : undefined);
  } finally {
    off();
  }
  if (options.json) {
    const { text, stopReason, steps, usage, error } = session.last;
    const report = {
      answer: text,
      stop_reason: stopReason || null,
      model: session.choice.model.name,
      steps,
      usage,
      cost: jsonCost(session),
      duration_ms: Date.now() - started,
    };
    console.log(escapeJson(JSON.stringify(error ? { ...report, error } : report))); // C1 controls too
  }
  if (interrupted || outcome === "cancelled") return EXIT.cancelled;
  return outcome === "failed" ? EXIT.failed : EXIT.ok;
}

/** --json's cost: the last turn in dollars (null when the price is unknown), and whether it is an estimate. */
function jsonCost(session: Session) {
  const { pricing } = session.choice;
  const price = priceOf(pricing.model);
  const total = sumUsage(session.last.modelUsages);
  return { dollars: price ? dollars(total, price) : null, estimate: pricing.estimate, priced_as: pricing.model };
}

/** All of piped stdin, read until it ends, stopping just past the cap so memory stays bounded. */
async function readStdin(): Promise<string> {
  let text = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.length > MAX_PIPED_CHARS) break;
  }
  process.stdin.destroy();
  return text;
}
