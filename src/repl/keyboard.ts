// The keyboard, between the terminal and the line editor: raw bytes in, a stream for readline out.
//
// The terminal stays in raw mode for the whole session, so Ctrl-C is the
// byte \x03, never a SIGINT: under `npm start` the terminal's SIGINT would
// also reach npm and its shell, which would then exit with status 130
// however Scout ended. At the prompt, the bytes go on to readline. During a
// turn, \x03 cancels the turn and every other byte is kept (type-ahead) and
// handed to the next prompt. Bracketed paste (the terminal wraps a paste in
// ESC[200~ … ESC[201~) turns the paste's line breaks into ⏎, so a pasted
// traceback is one question, shown as such, instead of one per line.
import { PassThrough } from "node:stream";

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
/** What a pasted line break shows as on the prompt line; the question gets "\n" back. */
export const PASTED_NEWLINE = "⏎";
/**
 * One key each: an escape sequence, a control key, or a run of plain text.
 * readline takes several keys that arrive together for a paste and appends
 * them at the end of the line, whatever the cursor: Ctrl-A then "w" in one
 * chunk would put the "w" last. A run of plain text stays whole, which is
 * fast for a long line.
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
  /** Called for Ctrl-C during a turn. */
  onCancel = () => {};
  /** Called for every chunk of keys at the prompt (Ctrl-C handling needs to know "pressed twice"). */
  onKeys = (_keys: string) => {};

  constructor(private readonly input: NodeJS.ReadStream = process.stdin) {
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.on("data", this.onData);
    input.resume();
    process.stdout.write("\x1b[?2004h"); // ask the terminal for bracketed paste
  }

  /** Turn mode: Ctrl-C cancels, other keys wait for the next prompt. */
  startTurn(): void {
    this.inTurn = true;
  }

  /** Prompt mode again: what was typed during the turn goes to readline now. */
  endTurn(): void {
    this.inTurn = false;
    const kept = this.typeAhead;
    this.typeAhead = "";
    if (kept) this.write(kept);
  }

  /**
   * readline-sync's keyIn pauses stdin and leaves the terminal in cooked
   * mode when it is done: raw again, and reading again, or Node would see
   * nothing left to wait for and exit.
   */
  afterKeyIn(): void {
    this.input.setRawMode(true);
    this.input.resume();
  }

  close(): void {
    process.stdout.write("\x1b[?2004l");
    this.input.off("data", this.onData);
    this.input.setRawMode(false);
    this.input.pause();
    this.stream.end();
  }

  /** To readline, key by key. */
  private write(keys: string): void {
    for (const key of keys.match(KEYS) ?? []) this.stream.write(key);
  }

  private readonly onData = (chunk: string): void => {
    const keys = this.unpaste(this.partial + chunk);
    if (!keys) return;
    if (!this.inTurn) {
      this.onKeys(keys);
      this.write(keys);
      return;
    }
    if (keys.includes("\x03")) this.onCancel();
    this.typeAhead += keys.replaceAll("\x03", "");
  };

  /** Drops the paste markers and turns line breaks inside a paste into ⏎. */
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
