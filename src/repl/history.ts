// The question history file (~/.scout_history): read once at start, rewritten after each question.
//
// It is a person's file, so it is opened as one: never through a symbolic
// link (a linked history would rewrite the file it points at), only if it is
// a regular file (a FIFO would block, /dev/zero never ends), without blocking,
// and read up to a bound. It is written to a new file beside it, mode 0600,
// then renamed over it: questions can hold secrets, and an old 0644 file does
// not stay 0644.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
      this.entries = readTail(file).split("\n").filter(Boolean).reverse().slice(0, HISTORY_SIZE);
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

/** Why `file` is no file to keep questions in, or undefined when it is a regular file. */
function notRegular(file: string, stat: fs.Stats): Error | undefined {
  if (stat.isFile()) return undefined;
  const what = stat.isSymbolicLink() ? "a symbolic link" : stat.isDirectory() ? "a folder" : "not a regular file";
  return new Error(`${file} is ${what}`);
}

/** The file's last HISTORY_MAX_BYTES, from the first whole line. */
function readTail(file: string): string {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${file} is a symbolic link`);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    const refused = notRegular(file, stat);
    if (refused) throw refused;
    const length = Math.min(stat.size, HISTORY_MAX_BYTES);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, stat.size - length);
    const text = buffer.toString("utf8", 0, read);
    return length < stat.size ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a new file beside `file` and renames it over: a link or a FIFO found there is refused, not followed. */
function writeReplacing(file: string, text: string): void {
  const existing = fs.lstatSync(file, { throwIfNoEntry: false });
  const refused = existing && notRegular(file, existing);
  if (refused) throw refused;
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      fs.writeSync(fd, text);
      fs.fchmodSync(fd, 0o600); // whatever the umask
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
