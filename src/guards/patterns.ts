// Checks a glob pattern before any folder is walked: no way out of the workspace, no unbounded brace
// expansion, and no pattern whose match could backtrack for minutes.
import { createRequire } from "node:module";
import path from "node:path";
import type FastGlob from "fast-glob";
import { formatCount } from "./format.js";

// CommonJS packages are required where first used, not imported (see workspace/ignore-rules.ts).
const require = createRequire(import.meta.url);

/** fast-glob, loaded on first use: loading it takes ~25 ms, which read_file, list_files and grep never need. */
export function fastGlob(): typeof FastGlob {
  return require("fast-glob");
}

/** Said when a pattern with "\" matches nothing: it escapes, it does not separate. */
export const BACKSLASH_RULE =
  'In patterns "/" is the separator and "\\" escapes the next character ("sub\\*.md" is the one name "sub*.md").';

/**
 * Longest pattern (glob's pattern, grep's pattern and include), in characters. The braces library refuses
 * longer input to expand (its own limit is the same), and one argument to rg may hold at most 128 KiB
 * (Linux's MAX_ARG_STRLEN; a 200,000-character pattern failed with "spawn E2BIG").
 */
export const MAX_PATTERN_CHARS = 10_000;
/** MAX_PATTERN_CHARS as the descriptions state it. */
export const PATTERN_LENGTH_LIMIT = `${formatCount(MAX_PATTERN_CHARS)} characters`;

/** Patterns whose braces would expand to more alternatives than this are refused. */
export const MAX_BRACE_EXPANSION = 1000;
/**
 * How many wildcards ("*", "*(…)", "+(…)", "!(…)") one path segment may hold. Each one past the first
 * multiplies the ways a name can match, and the regular expression tries every way before it fails:
 * on a 250-character name, 2 wildcards cost 0.1 ms, 3 cost 20 ms, 4 cost a second, 6 cost minutes.
 */
export const MAX_WILDCARDS_PER_SEGMENT = 2;
/** How many "**" one pattern may hold: on a 1,000-folder path, 2 cost 3 ms, 3 cost 0.4 s. */
export const MAX_GLOBSTARS = 2;

/** A ".." segment: plain, after a Windows separator, or inside braces {..,x} or extglobs @(..). */
const DOT_DOT_SEGMENT = /(^|[/\\{},(|])\.\.($|[/\\{},)|])/;

/** Refuses patterns that could reach outside the workspace or expand without bound. */
export function checkPattern(pattern: string, argName = "pattern"): string | null {
  if (pattern === "") return `${argName} must not be empty`;
  if (pattern.includes("\0")) return `${argName} must not contain a NUL byte`;
  const tooLong = patternLengthProblem(pattern, argName);
  if (tooLong) return tooLong;
  // An absolute pattern is not echoed back: tool output never shows host paths.
  if (path.isAbsolute(pattern) || /^[a-zA-Z]:[\\/]|^\\\\/.test(pattern))
    return `${argName} must be relative to the workspace, not an absolute path`;
  if (pattern.startsWith("~")) return `${argName} "${pattern}": "~" is not expanded; use a relative pattern`;
  if (braceExpansionSize(pattern) > MAX_BRACE_EXPANSION) {
    return `${argName} "${pattern}" expands to more than ${MAX_BRACE_EXPANSION} alternatives; use a simpler pattern`;
  }
  // Checked again after fast-glob expands the braces: "{.,.}./x" becomes "../x".
  if ([pattern, ...expandedPatterns(pattern)].some((p) => DOT_DOT_SEGMENT.test(p)))
    return `${argName} "${pattern}" must not contain a ".." segment`;
  return null;
}

/** Why a pattern is too long to use, or null (checked before anything that grows with its length). */
export function patternLengthProblem(pattern: string, argName = "pattern"): string | null {
  if (pattern.length <= MAX_PATTERN_CHARS) return null;
  return `${argName} is ${formatCount(pattern.length)} characters long, over the ${formatCount(MAX_PATTERN_CHARS)}-character limit; use a shorter pattern`;
}

/** The patterns fast-glob will match, its braces expanded ("{a,b}/*.ts" is "a/*.ts" and "b/*.ts"). */
function expandedPatterns(pattern: string): string[] {
  return fastGlob()
    .generateTasks(pattern)
    .flatMap((task) => task.patterns);
}

/** One node of the tree the braces library parses a pattern into (the fields counted here). */
interface BraceNode {
  type: string;
  value?: string;
  nodes?: BraceNode[];
  ranges?: number;
  invalid?: boolean;
  dollar?: boolean;
}
const parseBraces = (input: string, options: object): BraceNode =>
  (require("braces") as { parse(input: string, options: object): BraceNode }).parse(input, options);

/**
 * How many patterns the braces expand to, counted on the tree of the braces
 * library that fast-glob (through micromatch) expands them with, so that
 * spaces, quotes, escapes and exponents ("{ 1..1e3}") count exactly as they
 * will expand: groups multiply, alternatives add. Nothing is expanded.
 */
export function braceExpansionSize(pattern: string): number {
  try {
    // The options fast-glob's expandBraceExpansion passes.
    return expansionSize(parseBraces(pattern, { expand: true, nodupes: true, keepEscaping: true }));
  } catch {
    return Number.POSITIVE_INFINITY; // a pattern the library cannot parse is one fast-glob cannot expand
  }
}

function expansionSize(node: BraceNode): number {
  const children = node.nodes ?? [];
  if (node.type !== "brace") return children.reduce((size, child) => size * expansionSize(child), 1);
  // Kept as written: an unbalanced or ${…} brace, and "{}".
  if (node.invalid || node.dollar || children.length === 2) return 1;
  if ((node.ranges ?? 0) > 0) {
    const [from, to, step] = children.filter((child) => child.type === "text").map((child) => child.value ?? "");
    return rangeSize(from, to, step);
  }
  // Alternatives between commas add up; the parts of one alternative multiply.
  let total = 0;
  let alternative = 1;
  for (const child of children) {
    if (child.type === "comma") {
      total += alternative;
      alternative = 1;
    } else alternative *= expansionSize(child);
  }
  return total + alternative;
}

/** How many values fill-range makes of {from..to..step}: integers as braces reads them (" 1", "1e3"), or single letters. */
function rangeSize(from = "", to = "", step = "1"): number {
  const asNumber = (end: string) => (end.trim() !== "" && Number.isInteger(Number(end)) ? Number(end) : Number.NaN);
  let [a, b] = [asNumber(from), asNumber(to)];
  if (Number.isNaN(a) || Number.isNaN(b)) {
    if (from.length !== 1 || to.length !== 1) return 1; // not a range fill-range can make: kept as written
    [a, b] = [from.charCodeAt(0), to.charCodeAt(0)];
  }
  const by = Math.abs(Number(step)) >= 1 ? Math.floor(Math.abs(Number(step))) : 1;
  return Math.floor(Math.abs(b - a) / by) + 1;
}

/**
 * How many ways the groups of one pattern ("@(a|b)", "?(x)", "(a|b)") may give a name to try: each group's
 * alternatives (one more when it is optional) multiply. The regular expression tries every way before it
 * fails, and a wildcard multiplies them again: on a 250-character name, "*a*" after a "**" took 0.9 ms
 * with groups of 9 ways, 20 ms with 81; "?(a|aa)" 18 times (3^18, 387 million ways) took 12 s on a
 * 60-character name.
 */
export const MAX_GROUP_WAYS = 16;

/**
 * Refuses a glob pattern whose regular expression could backtrack for long on
 * a hostile name: fast-glob matches with JavaScript regular expressions, which
 * try every way a pattern can match before they fail, and a match in progress
 * cannot be stopped (the event loop, and with it Ctrl-C, waits). Each
 * wildcard past the first in a segment, and each "**" past the first,
 * multiplies that work, so a pattern may have one such pair, not two; and the
 * alternatives of its groups multiply it too (MAX_GROUP_WAYS).
 * Checked on each pattern the braces expand to.
 */
export function checkPatternComplexity(pattern: string, argName = "pattern"): string | null {
  for (const expanded of expandedPatterns(pattern)) {
    const segments = expanded.split("/");
    const isGlobstar = (segment: string) => /^\*{2,}$/.test(segment);
    const globstars = segments.filter(isGlobstar).length;
    let extra = Math.max(0, globstars - 1);
    let tooMany = globstars > MAX_GLOBSTARS;
    let ways = 1;
    for (const segment of segments.filter((segment) => !isGlobstar(segment))) {
      const cost = segmentCost(segment);
      if (cost === "nested") {
        return `${argName} "${pattern}" repeats a wildcard inside "*(…)", "+(…)" or "!(…)", which can take minutes to match; use a simpler pattern`;
      }
      if (cost === "group in group") {
        return `${argName} "${pattern}" has a group inside a group ("@(a|?(b))"), whose ways to match multiply; use braces instead ("{a,b}"), which are expanded before matching`;
      }
      extra += Math.max(0, cost.wildcards - 1);
      tooMany ||= cost.wildcards > MAX_WILDCARDS_PER_SEGMENT;
      ways *= cost.ways;
    }
    if (tooMany || extra > 1) {
      return (
        `${argName} "${pattern}" has too many wildcards to match in bounded time: a path segment may hold ${MAX_WILDCARDS_PER_SEGMENT} "*" ` +
        `and the pattern ${MAX_GLOBSTARS} "**", but only one such pair in all; use fewer "*" (narrow with path, or search contents with grep)`
      );
    }
    if (ways > MAX_GROUP_WAYS) {
      return (
        `${argName} "${pattern}" has groups ("@(…)", "?(…)", "(…|…)") that can match a name in more than ${MAX_GROUP_WAYS} ways, ` +
        `and trying them all can take minutes; use braces instead ("{a,b}"), which are expanded before matching, or fewer groups`
      );
    }
  }
  return null;
}

/**
 * The repeating wildcards in one segment and the ways its other groups can match, or why it is refused:
 * "nested" for a wildcard inside a repeating group, "group in group" for any other group inside a group.
 */
function segmentCost(segment: string): { wildcards: number; ways: number } | "nested" | "group in group" {
  let wildcards = 0;
  let ways = 1;
  const groups: { repeats: boolean; optional: boolean; alternatives: number }[] = []; // the open "(" groups
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i];
    if (char === "\\") {
      i++; // an escaped character is literal
    } else if (char === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close !== -1) i = close; // a character class matches one character
    } else if (char === "(") {
      const before = i > 0 ? segment[i - 1] : "";
      const repeats = before !== "" && "*+!".includes(before);
      if (repeats && groups.some((group) => group.repeats)) return "nested";
      if (groups.length > 0) return "group in group";
      groups.push({ repeats, optional: before === "?", alternatives: 1 });
      if (before === "+" || before === "!") wildcards++; // "*(" was counted at its "*"
    } else if (char === "|" && groups.length > 0) {
      groups[groups.length - 1].alternatives++;
    } else if (char === ")") {
      const group = groups.pop();
      if (group && !group.repeats) ways *= group.alternatives + (group.optional ? 1 : 0);
    } else if (char === "*") {
      while (segment[i + 1] === "*") i++; // "a**b" is one wildcard
      if (groups.some((group) => group.repeats)) return "nested";
      wildcards++;
    }
  }
  return { wildcards, ways };
}
