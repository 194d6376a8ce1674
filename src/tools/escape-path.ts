// Escapes control characters in a path a tool prints, so that one entry is always one line.
//
// A file name may hold any byte but "/" and NUL: a newline in one
// ("a\nfake.txt:1:API_KEY=spoofed") would otherwise print as a second,
// forged line of output, and a CR, an escape sequence or a line separator
// could hide or rewrite what is around it. Backslashes are left as they are.
// Unlike escapeControl (src/escape.ts, text for a person), newline and tab
// are escaped too: in a path they are never layout. read_file's lines use
// the same escapes, tab kept (escapeControlCharacters, text-decoding.ts).

/** C0 controls (tab, newline and CR included), DEL, C1 controls, and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The text with each control character written out: "\n", "\r", "\t", else "\x1b" or "\u2028". */
export function escapePath(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return NAMED[char] ?? (code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
  });
}

function hex(code: number, digits: number): string {
  return code.toString(16).padStart(digits, "0");
}
