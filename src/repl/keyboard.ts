// The keyboard, between the terminal and the line editor: raw bytes in, a stream for readline out.
//
// The terminal stays in raw mode for the whole session, so Ctrl-C is the
// byte \x03, never a SIGINT: under `npm start` the terminal's SIGINT would
// also reach npm and its shell, which would then exit with status 130
// however Scout ended. At the prompt, the bytes go on to readline, up to the
// first Enter. From Enter on, and during the turn it starts, \x03 (or a lone
// Esc) cancels the turn and every other byte is kept (type-ahead) and handed
// to the next prompt. Ctrl-Z (\x1a) suspends Scout as the terminal would
// (src/repl/suspend.ts). Bracketed paste (the terminal wraps a paste in
// ESC[200~ … ESC[201~) turns the paste's line breaks into ⏎, so a pasted
// traceback is one question, shown as such, instead of one per line.
import { PassThrough } from "node:stream";

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
/** What a pasted line break (or Alt-Enter, or backslash-Enter) shows as on the prompt line; the question gets "\n" back. */
export const PASTED_NEWLINE = "⏎";
/** Alt-Enter (Esc, then Enter): a line break in the question, as in Claude Code. */
const ALT_ENTER = "\x1b\r";
/** How long an Esc waits for the rest of a paste marker before it counts as the Esc key. */
const LONE_ESCAPE_MS = 50;
/**
 * One key each: an escape sequence, a control key, or a run of plain text.
 * readline takes several keys that arrive together for a paste and scrambles
 * them when the cursor is not at the end: Ctrl-A then "XYZ" in one chunk
 * gives "heZllo worldXY". So control keys go to readline one by one, and a
 * run of plain text (a paste, an IME commit) is inserted at the cursor as
 * one string (`insertText`), which is also fast for a long line.
 */
const KEYS = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1bO[\s\S]|\x1b[\s\S]?|[\x00-\x1f\x7f]|[^\x00-\x1f\x7f\x1b]+/g;

export class Keyboard {
  /** What readline reads. */
  readonly stream = new PassThrough();
  private inTurn = false;
  private typeAhead = "";
  private pasting = false;
  /** The end of a chunk that may be the start of a paste marker cut in two. */
  private partial = "";
  /** A Ctrl-C or Esc that came after Enter, before its turn began: the turn is cancelled before it starts. */
  private cancelled = false;
  /** The step pause read an Esc: the rest of an arrow key's sequence ("[D") may follow, and is not a key. */
  private dropEscapeTail = false;
  private partialTimer?: NodeJS.Timeout;
  /** Called for Ctrl-C or Esc during a turn. */
  onCancel = () => {};
  /** Called for every chunk of keys at the prompt (Ctrl-C handling needs to know "pressed twice"). */
  onKeys = (_keys: string) => {};
  /** Inserts a run of plain text at the cursor as one string (the terminal sets it to readline's write). */
  insertText = (text: string) => {
    this.stream.write(text);
  };
  /** Ctrl-Z. */
  onSuspend = () => {};
  /** Enter at the prompt: true when the terminal took it as a line break (after a backslash), not as "send". */
  onEnter = () => false;

  constructor(private readonly input: NodeJS.ReadStream = process.stdin) {
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.on("data", this.onData);
    input.resume();
    process.stdout.write("\x1b[?2004h"); // ask the terminal for bracketed paste
  }

  /**
   * Turn mode (already on since the Enter that sent the question): Ctrl-C
   * cancels, other keys wait for the next prompt. False when a Ctrl-C or Esc
   * typed after that Enter has cancelled the turn before it began.
   */
  startTurn(): boolean {
    this.inTurn = true;
    const cancelled = this.cancelled;
    this.cancelled = false;
    return !cancelled;
  }

  /** Prompt mode again: what was typed during the turn (or after Enter) goes to readline now. */
  endTurn(): void {
    this.inTurn = false;
    this.cancelled = false;
    const kept = this.typeAhead;
    this.typeAhead = "";
    if (kept) this.write(kept);
  }

  /** Raw mode and bracketed paste again, after a suspend or readline-sync's pause. */
  restore(): void {
    this.input.setRawMode(true);
    this.input.resume();
    process.stdout.write("\x1b[?2004h");
  }

  /** The terminal as the shell wants it: cooked mode, no bracketed paste (before a suspend or exit). */
  release(): void {
    process.stdout.write("\x1b[?2004l");
    this.input.setRawMode(false);
  }

  /**
   * readline-sync's keyIn pauses stdin and leaves the terminal in cooked
   * mode when it is done: raw again, and reading again, or Node would see
   * nothing left to wait for and exit.
   */
  afterKeyIn(sawEscape = false): void {
    this.dropEscapeTail = sawEscape;
    this.restore();
  }

  close(): void {
    clearTimeout(this.partialTimer);
    this.release();
    this.input.off("data", this.onData);
    this.input.pause();
    this.stream.end();
  }

  /**
   * To readline, key by key, up to an Enter; the keys after it are held
   * as type-ahead, so they are not echoed into the turn's step log.
   */
  private write(keys: string): void {
    const all = keys.match(KEYS) ?? [];
    for (const [i, key] of all.entries()) {
      if (this.inTurn) {
        this.hold(all.slice(i).join(""));
        return;
      }
      if (key === "\x1a") this.onSuspend();
      else if (key === ALT_ENTER) this.insertText(PASTED_NEWLINE);
      else if (/^[^\x00-\x1f\x7f\x1b]/.test(key)) this.insertText(key);
      else if ((key === "\r" || key === "\n") && this.onEnter()) continue;
      else this.stream.write(key);
      if (key === "\r" || key === "\n") this.inTurn = true; // until endTurn(), after the line is handled
    }
  }

  /** During a turn (or after Enter): Ctrl-C or a lone Esc cancels, Ctrl-Z suspends, the rest waits. */
  private hold(keys: string): void {
    if (keys.includes("\x03") || keys === "\x1b") {
      this.cancelled = true;
      this.onCancel();
    }
    if (keys.includes("\x1a")) this.onSuspend();
    this.typeAhead += keys === "\x1b" ? "" : keys.replace(/[\x03\x1a]/g, "");
  }

  private readonly onData = (chunk: string): void => {
    clearTimeout(this.partialTimer);
    if (this.dropEscapeTail) chunk = chunk.replace(/^(\[[0-9;?]*[ -/]*[@-~]|O.)/, "");
    this.dropEscapeTail = false;
    const keys = this.unpaste(this.partial + chunk);
    // A lone Esc looks like the start of a paste marker: if nothing follows soon, it was the Esc key.
    if (this.partial) this.partialTimer = setTimeout(() => this.flushPartial(), LONE_ESCAPE_MS);
    this.handle(keys);
  };

  private flushPartial(): void {
    const keys = this.partial;
    this.partial = "";
    this.handle(keys);
  }

  private handle(keys: string): void {
    if (!keys) return;
    if (this.inTurn) this.hold(keys);
    else {
      this.onKeys(keys);
      this.write(keys);
    }
  }

  /** Drops the paste markers and turns line breaks inside a paste into the return symbol (U+23CE). */
  private unpaste(text: string): string {
    this.partial = "";
    let out = "";
    for (let i = 0; i < text.length; ) {
      const marker = this.pasting ? PASTE_END : PASTE_START;
      if (text.startsWith(marker, i)) {
        this.pasting = !this.pasting;
        i += marker.length;
        continue;
      }
      if (text[i] === "\x1b" && marker.startsWith(text.slice(i))) {
        this.partial = text.slice(i); // the rest of the marker comes with the next chunk
        break;
      }
      if (this.pasting && (text[i] === "\r" || text[i] === "\n")) {
        if (text[i] === "\r" && text[i + 1] === "\n") i++;
        out += PASTED_NEWLINE;
      } else out += text[i];
      i++;
    }
    return out;
  }
}
