// Checks a glob pattern before any folder is walked: no way out of the workspace, no unbounded brace expansion.
import path from "node:path";
import fg from "fast-glob";

/** Said when a pattern with "\" matches nothing: it escapes, it does not separate. */
export const BACKSLASH_RULE =
  'In patterns "/" is the separator and "\\" escapes the next character ("sub\\*.md" is the one name "sub*.md").';

/** Patterns whose braces would expand to more alternatives than this are refused. */
export const MAX_BRACE_EXPANSION = 1000;

/** A ".." segment: plain, after a Windows separator, or inside braces {..,x} or extglobs @(..). */
const DOT_DOT_SEGMENT = /(^|[/\\{},(|])\.\.($|[/\\{},)|])/;

/** Refuses patterns that could reach outside the workspace or expand without bound. */
export function checkPattern(pattern: string, argName = "pattern"): string | null {
  if (pattern === "") return `${argName} must not be empty`;
  if (pattern.includes("\0")) return `${argName} must not contain a NUL byte`;
  // An absolute pattern is not echoed back: tool output never shows host paths.
  if (path.isAbsolute(pattern) || /^[a-zA-Z]:[\\/]|^\\\\/.test(pattern))
    return `${argName} must be relative to the workspace, not an absolute path`;
  if (pattern.startsWith("~")) return `${argName} "${pattern}": "~" is not expanded; use a relative pattern`;
  if (braceExpansionSize(pattern) > MAX_BRACE_EXPANSION) {
    return `${argName} "${pattern}" expands to more than ${MAX_BRACE_EXPANSION} alternatives; use a simpler pattern`;
  }
  // Checked again after fast-glob expands the braces: "{.,.}./x" becomes "../x".
  const expanded = fg.generateTasks(pattern).flatMap((task) => task.patterns);
  if ([pattern, ...expanded].some((p) => DOT_DOT_SEGMENT.test(p)))
    return `${argName} "${pattern}" must not contain a ".." segment`;
  return null;
}

/**
 * An upper bound on how many patterns the braces expand to: the product of
 * every group's size ({a,b,c} is 3, {1..9} is 9, {a..z} is 26), nested
 * groups included. Counted before anything is expanded.
 */
function braceExpansionSize(pattern: string): number {
  let size = 1;
  const open: { start: number; commas: number }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\")
      i++; // an escaped character is literal
    else if (char === "{") open.push({ start: i + 1, commas: 0 });
    else if (char === "," && open.length > 0) open[open.length - 1].commas++;
    else if (char === "}" && open.length > 0) {
      const group = open.pop()!;
      size *= group.commas > 0 ? group.commas + 1 : rangeSize(pattern.slice(group.start, i));
    }
  }
  return size;
}

/** The length of a {1..100} or {a..z} range (with an optional ..step); 1 for anything else. */
function rangeSize(body: string): number {
  const range = /^([^.]+)\.\.([^.]+)(?:\.\.(-?\d+))?$/.exec(body);
  if (!range) return 1;
  const [from, to] = [range[1], range[2]].map((end) =>
    /^-?\d+$/.test(end) ? Number(end) : end.length === 1 ? end.charCodeAt(0) : NaN,
  );
  if (Number.isNaN(from) || Number.isNaN(to)) return 1;
  const step = Math.abs(Number(range[3] ?? 1)) || 1;
  return Math.floor(Math.abs(to - from) / step) + 1;
}
