// The question history file (~/.scout_history): read once at start, rewritten after each question.
//
// It is a person's file, so it is opened as one (src/repl/person-file.ts):
// never through a symbolic link (a linked history would rewrite the file it
// points at), only if it is a regular file (a FIFO would block, /dev/zero
// never ends), without blocking, its last HISTORY_MAX_BYTES only, and
// written 0600 through a rename: questions can hold secrets.
import os from "node:os";
import path from "node:path";
import { readTail, writeReplacing } from "./person-file.js";
import { say } from "./session.js";

/** Questions kept in the history file (the oldest are dropped). */
export const HISTORY_SIZE = 1000;
/** Most bytes read from the history file: its end, where the newest questions are. */
export const HISTORY_MAX_BYTES = 1024 * 1024;

/** The history file: $SCOUT_HISTORY, or ~/.scout_history; SCOUT_HISTORY set to "" turns it off. */
export function historyFile(env = process.env): string | undefined {
  if (env.SCOUT_HISTORY !== undefined) return env.SCOUT_HISTORY || undefined;
  return path.join(os.homedir(), ".scout_history");
}

/** The history of one session: what the file held, and a save that warns once. */
export class History {
  readonly entries: string[] = [];
  private file: string | undefined;
  private warned = false;

  constructor(file: string | undefined) {
    this.file = file;
    if (!file) return;
    try {
      this.entries = readTail(file, HISTORY_MAX_BYTES).split("\n").filter(Boolean).reverse().slice(0, HISTORY_SIZE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // no history yet
      this.file = undefined; // what cannot be read safely is not written either
      this.warn(error);
    }
  }

  /** One question per line, oldest first. */
  save(entries: string[]): void {
    if (!this.file) return;
    try {
      writeReplacing(this.file, `${[...entries].reverse().join("\n")}\n`);
    } catch (error) {
      this.warn(error);
    }
  }

  private warn(error: unknown): void {
    if (!this.warned) say(`(the history is not saved: ${(error as Error).message}; SCOUT_HISTORY= turns it off)`);
    this.warned = true;
  }
}
