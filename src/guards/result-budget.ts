// A tool result held to the character budget: long lines, errors and results cut where a reader sees the cut.
//
// runTool applies it to every result, so no tool can flood the model's context.
import { formatCount } from "./format.js";

/**
 * No result is longer than this many characters (about 8,000 tokens): a hundred lines
 * of long paths came to 95 KB. A longer result is cut at a line, and says so.
 */
export const MAX_RESULT_CHARS = 30_000;
/** Each line of an error is clipped in the middle to this many characters, so an input it quotes stays short. */
export const MAX_ERROR_LINE_CHARS = 400;
/** An input a result quotes back (the pattern of "No matches for /…/") is clipped in the middle to this many characters. */
export const MAX_ECHO_CHARS = 200;
/** The sentence that states the budget in every tool's description. */
export const BUDGET_NOTE = `A result is at most ${formatCount(MAX_RESULT_CHARS)} characters.`;

/** A result as the budget sees it: its text and whether it is an error. */
interface Budgeted {
  content: string;
  isError: boolean;
}

/**
 * Clips one line to `max` characters, with a visible marker, so one line can't flood the context. `cut` says
 * the line was already cut while reading (it was longer than what the caller kept): it gets the marker too.
 */
export function clipLine(line: string, max: number, cut = false): string {
  if (!cut && line.length <= max) return line;
  // Cut before a surrogate pair, not inside it: half an emoji is not valid text for the API.
  const end = isHighSurrogate(line.charCodeAt(max - 1)) ? max - 1 : max;
  return `${line.slice(0, end)} … [line clipped at ${max} characters]`;
}

/** An input as a result quotes it back ("No matches for /…/"): clipped in the middle to MAX_ECHO_CHARS. */
export function clipEcho(input: string): string {
  return clipMiddle(input, MAX_ECHO_CHARS);
}

/** Clips text in the middle to about `max` characters, keeping both ends: the start of an input and the words after it. */
export function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.floor(max / 2);
  let tail = text.length - Math.floor(max / 2);
  if (isHighSurrogate(text.charCodeAt(head - 1))) head--; // never half an emoji
  if (isHighSurrogate(text.charCodeAt(tail - 1))) tail++;
  return `${text.slice(0, head)} … [${formatCount(tail - head)} characters cut] … ${text.slice(tail)}`;
}

/**
 * A result within the budget: an error's lines clipped in the middle
 * (errors quote inputs, which may be of any length), and any result over
 * MAX_RESULT_CHARS cut after its last whole line that fits, with a last
 * line saying so.
 */
export function withinBudget<R extends Budgeted>(result: R, askForLess = "a narrower request"): R {
  let content = result.content;
  if (result.isError)
    content = content
      .split("\n")
      .map((line) => clipMiddle(line, MAX_ERROR_LINE_CHARS))
      .join("\n");
  if (content.length > MAX_RESULT_CHARS) {
    const total = content.split("\n").length;
    const room = MAX_RESULT_CHARS - 200; // for the note
    const cut = content.lastIndexOf("\n", room);
    const kept = cut > 0 ? content.slice(0, cut) : clipLine(content.slice(0, room + 1), room);
    const shown = kept.split("\n").length;
    content = `${kept}\n(result cut at the ${formatCount(MAX_RESULT_CHARS)}-character budget after ${shown} of ${total} lines; ask for less: ${askForLess})`;
  }
  return content === result.content ? result : { ...result, content };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
