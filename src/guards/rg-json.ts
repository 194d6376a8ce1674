// Cuts rg's --json output into messages, however long a line or odd a file name, keeping little of any one.

/**
 * Most bytes kept of one JSON message. A line of megabytes comes as one
 * message (with an object for each match in it); past this, only the line
 * number is read from the rest, and the line's text is cut.
 */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** rg's JSON for a path or a line: text when it is valid UTF-8, base64 bytes when not. */
export type RgData = { text?: string; bytes?: string };
export interface RgJson {
  type: string;
  data?: { path?: RgData; lines?: RgData; line_number?: number; binary_offset?: number | null };
  /** Scout's mark, not rg's: only the start of the line came through (see LongMessage). */
  cut?: boolean;
}

/**
 * Cuts rg's output into JSON messages. JSON writes every newline inside a
 * string as "\n", so a raw newline byte always ends a message, whatever a
 * file name or a line holds. A message over MAX_MESSAGE_BYTES is not kept
 * whole (see LongMessage).
 */
export async function* jsonMessages(stdout: AsyncIterable<Buffer>): AsyncGenerator<RgJson> {
  let pieces: Buffer[] = []; // the start of a message that began in an earlier chunk
  let kept = 0;
  let long: LongMessage | undefined;
  try {
    for await (const chunk of stdout) {
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, start);
        const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
        if (long) long.scan(piece);
        else if (kept + piece.length > MAX_MESSAGE_BYTES) {
          long = new LongMessage(Buffer.concat([...pieces, piece]));
          pieces = [];
          kept = 0;
        } else if (newline === -1 ? piece.length > 0 : pieces.length > 0) {
          pieces.push(piece);
          kept += piece.length;
        }
        if (newline === -1) break;
        const whole = long ? undefined : pieces.length > 0 ? Buffer.concat(pieces) : piece;
        const json = long ? long.message() : parse(whole as Buffer);
        long = undefined;
        pieces = [];
        kept = 0;
        if (json) yield json;
        start = newline + 1;
      }
    }
  } catch {
    // rg could not start or was killed: its stream ends here, and the outcome says why
  }
}

function parse(line: Buffer): RgJson | undefined {
  try {
    return JSON.parse(line.toString("utf8"));
  } catch {
    return undefined; // not rg's JSON: nothing to show
  }
}

/**
 * A message too long to keep: a match or context line of megabytes. rg
 * writes its fields in a fixed order (path, lines, line_number, …), so the
 * kept head holds the path and the start of the line. The line number comes
 * after the line, and is searched for as the rest streams past: the bytes
 * `,"line_number":` cannot occur inside a JSON string, where every quote is
 * escaped.
 */
class LongMessage {
  private lineNumber: number | undefined;
  private carry = ""; // the last bytes scanned, in case the field is split between chunks
  constructor(private readonly head: Buffer) {
    this.scan(head);
  }

  scan(piece: Buffer): void {
    if (this.lineNumber !== undefined) return;
    const text = this.carry + piece.toString("latin1"); // one character per byte: cheap, and enough to find ASCII
    const found = /,"line_number":(\d+)[,}]/.exec(text);
    if (found) this.lineNumber = Number(found[1]);
    else this.carry = text.slice(-32);
  }

  message(): RgJson | undefined {
    const head = this.head.subarray(0, MAX_MESSAGE_BYTES).toString("utf8");
    const start =
      /^\{"type":"(match|context)","data":\{"path":(\{"(?:text|bytes)":"(?:[^"\\]|\\.)*"\}),"lines":\{"(text|bytes)":"((?:[^"\\]|\\.)*)/s.exec(
        head,
      );
    if (!start || this.lineNumber === undefined) return undefined;
    const [, type, path, kind, partial] = start;
    let lines: RgData;
    try {
      // The head ends inside the line's string, perhaps inside an escape: that is dropped.
      lines =
        kind === "text"
          ? { text: JSON.parse(`"${partial.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "")}"`) }
          : { bytes: partial.slice(0, partial.length - (partial.length % 4)) };
    } catch {
      lines = { text: "" };
    }
    return { type, data: { path: JSON.parse(path), lines, line_number: this.lineNumber }, cut: true };
  }
}
