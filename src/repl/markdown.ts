// An answer's Markdown drawn for a terminal, line by line as it streams: inline styles by marked's lexer, wrapped at words.
//
// Only on a terminal with colour (cli.ts decides; piped or NO_COLOR the text
// stays plain). The answer streams in, so nothing waits for a paragraph to
// end: each line is drawn as it grows, and redrawn from the first screen row
// that changed (a word moved to the next row, a `**` closed). A line's kind —
// heading, list item, quote, fenced or indented code — is seen from the line
// itself and whether a ``` fence is open; inline styles (bold, italic, code,
// links) come from marked's inline lexer. The text arrives already escaped
// (escapeControl), so only Scout's own styles reach the terminal.
//
// marked is not loaded with the REPL (~10 ms of its start-up, before the
// prompt) but behind its prompt, or with the first turn of -p: the session
// awaits loadMarked() before every turn, so every answer is drawn with it.
import type { marked as Marked, Token } from "marked";

let lexer: (typeof Marked)["Lexer"] | undefined;
/** Loads marked's lexer, once; MarkdownStream needs it before its first line. */
export async function loadMarked(): Promise<void> {
  lexer ??= (await import("marked")).marked.Lexer;
}

type Style = readonly [on: string, off: string];
const PLAIN: Style = ["", ""];
const BOLD: Style = ["\x1b[1m", "\x1b[22m"];
const ITALIC: Style = ["\x1b[3m", "\x1b[23m"];
const CODE: Style = ["\x1b[36m", "\x1b[39m"];
const DIM: Style = ["\x1b[2m", "\x1b[22m"];
const HEADING: Style = ["\x1b[1;4m", "\x1b[22;24m"];
const CODE_INDENT = "    ";

/** A piece of text in one style; a word is one or more pieces ("`x`'s" is two). */
interface Piece {
  text: string;
  style: Style;
}

/** Columns a character takes: East Asian wide characters and emoji take two. */
function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

/** The width a person sees: colour codes take none. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(/\x1b\[[0-9;]*m/g, "")) width += charWidth(char);
  return width;
}

/** Inline Markdown as styled pieces, by marked's inline lexer. */
function inlinePieces(text: string): Piece[] {
  const walk = (tokens: Token[], style: Style): Piece[] =>
    tokens.flatMap((token): Piece[] => {
      if (token.type === "strong") return walk(token.tokens ?? [], BOLD);
      if (token.type === "em") return walk(token.tokens ?? [], ITALIC);
      if (token.type === "codespan") return [{ text: token.text, style: CODE }];
      if (token.type === "link") {
        const label = walk(token.tokens ?? [], style);
        return token.href === token.text ? label : [...label, { text: ` (${token.href})`, style: DIM }];
      }
      if (token.type === "escape") return [{ text: token.text, style }];
      if ("tokens" in token && token.tokens) return walk(token.tokens, style);
      return [{ text: "text" in token ? String(token.text) : token.raw, style }];
    });
  if (!lexer) throw new Error("MarkdownStream drew before loadMarked() resolved");
  return walk(lexer.lexInline(text), PLAIN);
}

const draw = (pieces: Piece[]) => pieces.map(({ text, style }) => `${style[0]}${text}${style[1]}`).join("");

/**
 * Pieces wrapped at spaces into rows of at most `width` columns, the first
 * after `first`, the others after `rest`; a word wider than a row is cut.
 * Each row opens and closes its own styles, so any row can be redrawn alone.
 */
export function wrapPieces(pieces: Piece[], width: number, first: string, rest: string): string[] {
  const words: Piece[][] = [[]];
  for (const piece of pieces)
    piece.text.split(" ").forEach((part, i) => {
      if (i > 0) words.push([]);
      if (part) words[words.length - 1].push({ text: part, style: piece.style });
    });
  const rows: string[] = [];
  let row = first;
  let used = visibleWidth(first);
  let empty = true;
  const breakRow = () => {
    rows.push(row);
    row = rest;
    used = visibleWidth(rest);
    empty = true;
  };
  for (const word of words.filter((w) => w.length)) {
    const wordWidth = word.reduce((sum, piece) => sum + visibleWidth(piece.text), 0);
    if (!empty && used + 1 + wordWidth > width) breakRow();
    if (!empty) {
      row += " ";
      used += 1;
    }
    for (const piece of word) {
      let text = "";
      for (const char of piece.text) {
        if (used + charWidth(char) > width && used > visibleWidth(rest)) {
          row += draw([{ text, style: piece.style }]);
          text = "";
          breakRow();
        }
        text += char;
        used += charWidth(char);
      }
      row += draw([{ text, style: piece.style }]);
    }
    empty = false;
  }
  rows.push(row);
  return rows;
}

/** Where a line is: inside a ``` fence, in an indented code block, after a blank line. */
interface LineState {
  fence: string;
  indentedCode: boolean;
  afterBlank: boolean;
}

/** One source line drawn as screen rows (none for a fence line), and the state after it. */
function drawLine(line: string, state: LineState, width: number): { rows: string[]; next: LineState } {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
  const blank = line.trim() === "";
  const next = { fence: state.fence, indentedCode: false, afterBlank: blank };
  if (state.fence) {
    if (fence?.startsWith(state.fence[0]) && fence.length >= state.fence.length && !line.trim().slice(fence.length))
      return { rows: [], next: { ...next, fence: "" } };
    return { rows: [`${CODE_INDENT}${CODE[0]}${line}${CODE[1]}`], next };
  }
  if (fence) return { rows: [], next: { ...next, fence } };
  if (blank) return { rows: [""], next };
  const code = /^( {4}|\t)(.*)$/.exec(line);
  if (code && (state.afterBlank || state.indentedCode))
    return { rows: [`${CODE_INDENT}${CODE[0]}${code[2]}${CODE[1]}`], next: { ...next, indentedCode: true } };
  const heading = /^ {0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line);
  if (heading) {
    const pieces = inlinePieces(heading[1]).map((piece) => ({ ...piece, style: HEADING }));
    return { rows: wrapPieces(pieces, width, "", ""), next };
  }
  if (/^ {0,3}([-*_])( *\1){2,} *$/.test(line))
    return { rows: [`${DIM[0]}${"─".repeat(Math.min(width, 40))}${DIM[1]}`], next };
  const quote = /^ {0,3}> ?(.*)$/.exec(line);
  if (quote) {
    const bar = `${DIM[0]}│${DIM[1]} `;
    return { rows: wrapPieces(inlinePieces(quote[1]), width, bar, bar), next };
  }
  const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
  if (item) {
    const bullet = /\d/.test(item[2]) ? `${item[2]} ` : "• ";
    const indent = item[1].replace(/\t/g, "    ");
    const hang = " ".repeat(indent.length + visibleWidth(bullet));
    return { rows: wrapPieces(inlinePieces(item[3]), width, `${indent}${bullet}`, hang), next };
  }
  const indent = /^\s*/.exec(line)?.[0].replace(/\t/g, "    ") ?? "";
  return { rows: wrapPieces(inlinePieces(line.trim()), width, indent, indent), next };
}

/** Streamed answer text in, drawn rows out: each line drawn as it grows, redrawn where it changed. */
export class MarkdownStream {
  private line = "";
  private shown: string[] = [];
  private state: LineState = { fence: "", indentedCode: false, afterBlank: true };

  constructor(
    private readonly write: (text: string) => void,
    private readonly width: () => number,
  ) {}

  /** More of the answer (already escaped). */
  push(text: string): void {
    this.line += text;
    for (let end = this.line.indexOf("\n"); end !== -1; end = this.line.indexOf("\n")) {
      const { rows, next } = drawLine(this.line.slice(0, end), this.state, this.width());
      this.show(rows);
      if (rows.length) this.write("\n");
      this.state = next;
      this.line = this.line.slice(end + 1);
      this.shown = [];
    }
    if (this.line) this.show(drawLine(this.line, this.state, this.width()).rows);
  }

  /** The answer ended (or was cancelled): its last line stays as drawn; the next answer starts fresh. */
  end(): void {
    this.line = "";
    this.shown = [];
    this.state = { fence: "", indentedCode: false, afterBlank: true };
  }

  /** Draws the current line's rows over what is shown of it: only from the first row that differs. */
  private show(rows: string[]): void {
    const shown = this.shown;
    let same = 0;
    while (same < shown.length && same < rows.length && shown[same] === rows[same]) same++;
    const last = shown.length - 1;
    if (same === shown.length && same === rows.length) return;
    if (same === last && same < rows.length && rows[same].startsWith(shown[same])) {
      // The last row only grew: write what it gained, then any new rows.
      this.write(
        rows[same].slice(shown[same].length) +
          rows
            .slice(same + 1)
            .map((row) => `\n${row}`)
            .join(""),
      );
    } else if (same === shown.length) {
      this.write(
        rows
          .slice(same)
          .map((row, i) => (i === 0 && same === 0 ? row : `\n${row}`))
          .join(""),
      );
    } else {
      // Back to the start of the first changed row (a row wider than the window took more than one), clear below, redraw.
      const columns = this.width();
      const up =
        shown.slice(same).reduce((sum, row) => sum + Math.max(1, Math.ceil(visibleWidth(row) / columns)), 0) - 1;
      this.write(`\r${up > 0 ? `\x1b[${up}A` : ""}\x1b[J${rows.slice(same).join("\n")}`);
    }
    this.shown = rows;
  }
}
