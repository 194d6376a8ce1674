// What rg says when it cannot search, rewritten into what the model can do: rg's advice names options
// (--pcre2, --multiline) that grep's arguments cannot pass.

/** rg's paragraph that advises --pcre2: grep already lets rg pick PCRE2 (--engine=auto) where it is needed. */
const PCRE2_ADVICE = /\n*Consider enabling PCRE2 with the --pcre2 flag[\s\S]*?look-around\.\n?/;
/** rg's paragraph that advises --multiline, an option grep does not offer. */
const MULTILINE_ADVICE = /\n*Consider enabling multiline mode with the --multiline flag[\s\S]*?can be matched\.\n?/;
/** With --engine=auto, rg reports both engines' errors; the default engine's is the one with a caret. */
const BOTH_ENGINES =
  /regex could not be compiled with either the default regex engine or with PCRE2[\s\S]*?~{10,}\n([\s\S]*?)\n~{10,}/;

/** rg's stderr when it could not search, as the model gets it (after the caller redacted host paths). */
export function explainRgError(stderr: string): string {
  const both = BOTH_ENGINES.exec(stderr);
  let text = both ? `rg: ${both[1]}` : stderr;
  text = text.replace(PCRE2_ADVICE, "\n").replace(MULTILINE_ADVICE, `\n${ONE_LINE_NOTE}`);
  if (/error: (unclosed|unopened) group/.test(text))
    text += '\nTo match "(" or ")" literally, escape it with "\\" ("\\(").';
  return text.trim();
}

/** Why a pattern ending in a lone "\" cannot be searched, or null: rg would call it an "unclosed group". */
export function trailingBackslashProblem(pattern: string): string | null {
  const trailing = /\\+$/.exec(pattern)?.[0].length ?? 0;
  if (trailing % 2 === 0) return null;
  return `pattern ends with a lone "\\", which escapes nothing; to match a backslash write it twice ("\\\\")`;
}

/** Said when a pattern that can only match across a line break found nothing. */
export const ONE_LINE_NOTE =
  "grep matches one line at a time, so a pattern holding a line break (\\n) never matches; search for one of the lines (context shows its neighbours).";

/** Whether a pattern asks for a line break (a newline, or \n outside a [class]): rg, one line at a time, never finds one. */
export function spansLines(pattern: string): boolean {
  const outsideClasses = pattern.replace(/\[(?:\\.|[^\]\\])*\]/g, "");
  return pattern.includes("\n") || /(^|[^\\])(\\\\)*\\n/.test(outsideClasses);
}
