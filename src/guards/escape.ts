// Makes text safe to print: control characters become visible escapes (escapeControl for a person, escapePath for one line, escapeFileLine for a file's line).
//
// A file name, a file's content, the model's text or an API error can hold
// terminal control sequences: ESC [2J clears the screen, ESC ] 52 writes the
// clipboard, ESC ] 0 sets the window title, ESC ] 8 hides a link behind text.
// Printed raw, they act; escaped, they are just characters to read. Newline
// and tab are kept, since they are how text is laid out. Every character is
// escaped on its own, so text streamed in chunks can be escaped chunk by
// chunk: no escape is ever split between two chunks.

/** C0 controls except tab and newline, DEL, and the C1 controls (0x9b is a one-byte CSI to some terminals). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `\x1b[2J` printed as the seven characters `\x1b[2J`; everything else unchanged. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${hex(c.charCodeAt(0), 2)}`);
}

// escapePath is the stricter form for text that must stay on one line: a
// path a tool prints, or a name from outside in a table. A file name may hold
// any byte but "/" and NUL, so a newline in one ("a\nfake.txt:1:API_KEY=x")
// would print as a second, forged line; newline, CR and tab are escaped too,
// and so are the Unicode line and paragraph separators. A backslash that
// would read as the start of such an escape is doubled ("\\n" is a name
// holding a backslash and an "n", "\n" one holding a newline); any other
// is left as it is.

/** C0 controls (tab, newline and CR included), DEL, C1 controls, and the Unicode line and paragraph separators. */
const CONTROL_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/** A backslash that starts what reads as one of escapePath's escapes ("\n", "\x1b", "\u2028"), or a "\\". */
const BACKSLASH_LIKE_AN_ESCAPE = /\\(?=[nrt\\]|x[0-9a-f]{2}|u[0-9a-f]{4})/g;

/** The text with each control character written out: "\n", "\r", "\t", else "\x1b" or "\u2028". */
export function escapePath(text: string): string {
  return text.replace(BACKSLASH_LIKE_AN_ESCAPE, "\\\\").replace(CONTROL_IN_A_LINE, (char) => {
    const code = char.charCodeAt(0);
    return NAMED[char] ?? (code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
  });
}

function hex(code: number, digits: number): string {
  return code.toString(16).padStart(digits, "0");
}

/**
 * A name or path that glob or list_files lists alone on its line: escapePath, and the two marks those
 * lines use written out, so that no name passes for one: a "(" that starts a name ending in ")" (a footer
 * note, "(showing the 100 newest of 5000 files; …)") becomes "\x28", and a last "@" (list_files' mark of a
 * symlink: "link@" must not read as the link "link") becomes "\x40".
 */
export function escapeListed(name: string): string {
  const escaped = escapePath(name);
  const asNote = /^\(.*\)$/s.test(escaped) ? `\\x28${escaped.slice(1)}` : escaped;
  return asNote.endsWith("@") ? `${asNote.slice(0, -1)}\\x40` : asNote;
}

// JSON.stringify escapes C0 controls but leaves DEL and the C1 controls raw (JSON allows them), and a
// terminal acts on 0x9b as on ESC [. Written as \u escapes they mean the same to a JSON reader.
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/** JSON text with DEL, the C1 controls and the line separators as \u escapes: the same value, safe to print. */
export function escapeJson(json: string): string {
  return json.replace(RAW_IN_JSON, (char) => `\\u${hex(char.charCodeAt(0), 4)}`);
}

/**
 * A line of a file as read_file and grep show it: control characters (other than tab) as visible escapes like "\x1b",
 * so a file cannot clear the screen, set a window title or write the clipboard
 * of whoever reads a result, nor hide text from the model. The escapes are
 * escapePath's, so a line and a path look alike; only tab is kept, as in a
 * line it is indentation.
 */
export function escapeFileLine(line: string): string {
  // Backslashes are kept as written, too: a line of code is full of them, and escapePath doubles some.
  return line
    .split("\t")
    .map((part) => part.split("\\").map(escapePath).join("\\"))
    .join("\t");
}
