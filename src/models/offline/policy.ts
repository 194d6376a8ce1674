// The offline model's policy: given the question and the tool calls made so far in this turn, the next move — a thought and one or more tool calls, or the answer.
import { definitionAnswer, honestFailure, mentionAnswer, usageAnswer } from "./answers.js";
import {
  type Definition,
  definitionPattern,
  definitionRank,
  matchesInclude,
  sortBySource,
  narrowingInclude,
  parseHits,
  rankDefinitions,
  topLevelPattern,
  wholeWord,
} from "./definitions.js";
import { isCapped } from "./exchange.js";
import { type Exchange, call, filesMove, folderMove, type Move, namedMove, overviewMove, textMove } from "./listing.js";
import type { Question } from "./question.js";

/** Lines read around a definition, and where the definition sits in that window. */
export const READ_WINDOW = 15;
export const LINES_BEFORE_HIT = 4;
/** At most this many definitions are read at once (in one message: parallel tool calls). */
const MAX_PARALLEL_READS = 2;

export type { Call, Exchange, Move } from "./listing.js";

export function nextMove(question: Question, done: Exchange[]): Move {
  const last = done.filter((exchange) => exchange.batch === done.at(-1)?.batch);
  const failed = last.find((exchange) => exchange.isError && exchange.name !== "read_file");
  if (failed) return { answer: honestFailure(failed.name, failed.result) };
  switch (question.kind) {
    case "definition":
      return definitionMove(question.name, question.owner, done, last);
    case "usage":
      return usageMove(question.name, question.callsOnly, done, last);
    case "text":
      return textMove(question.words, done, last);
    case "named":
      return namedMove(question.name, last);
    case "files":
      return filesMove(question.pattern, question.tests === true, last);
    case "overview":
      return overviewMove(question.text, done, last);
    case "folder":
      return folderMove(question.path, last);
    default:
      return { answer: "Ask me about a name in the code, for example: where is main defined?" };
  }
}

/** Definitions first; narrow when capped; the bare name only when no line defines it. */
function definitionMove(name: string, owner: string | undefined, done: Exchange[], last: Exchange[]): Move {
  const pattern = definitionPattern(name);
  if (!last.length) {
    const calls = [call("grep", { pattern })];
    if (owner) calls.push(call("grep", { pattern: definitionPattern(owner) }));
    const thought = owner
      ? `Searching for definitions of \`${name}\` and of \`${owner}\` at once, to pick the \`${name}\` inside \`${owner}\`.`
      : `Searching for a line that defines \`${name}\` (class, def, function, const, \`${name} = …\`), not every mention.`;
    return { thought, calls };
  }
  const searches = done.filter(
    (e) => e.name === "grep" && (e.input.pattern === pattern || e.input.pattern === topLevelPattern(name)),
  );
  const first = searches[0];
  if (last[0].name === "read_file") {
    const definitions = bestDefinitions(name, owner, done);
    const read = last.flatMap((exchange) => {
      const definition = definitions.find(
        (d) => d.path === exchange.input.path && windowStart(d) === exchange.input.offset,
      );
      return definition ? [{ definition, window: { ...exchange, offset: windowStart(definition) } }] : [];
    });
    return {
      answer: definitionAnswer(
        name,
        read,
        definitions.filter((d) => !read.some((r) => r.definition === d)),
        searches.some((search) => isCapped(search)),
      ),
    };
  }
  if (last[0].input.pattern === pattern && searches.length === 1 && isCapped(first)) {
    // Narrow instead of picking from an arbitrary first 100: to the owner's file for Class.method,
    // else to top-level definitions in the language most hits are in.
    const ownerFile = owner ? ownerDefinitions(owner, done)[0]?.path : undefined;
    if (ownerFile)
      return {
        thought: `grep stopped at its cap; narrowing to ${ownerFile}, where \`${owner}\` is defined.`,
        calls: [call("grep", { pattern, path: ownerFile })],
      };
    const include = narrowingInclude(parseHits(first.result));
    return {
      thought: `grep stopped at its cap, so these are not all the definitions; narrowing to top-level ones in ${include} files.`,
      calls: [call("grep", { pattern: topLevelPattern(name), include })],
    };
  }
  const definitions = bestDefinitions(name, owner, done);
  if (definitions.length) {
    const [best, second] = definitions;
    const alike = second && second.path !== best.path && definitionRank(second) === definitionRank(best);
    const reads = (alike ? definitions.slice(0, MAX_PARALLEL_READS) : [best]).map((d) =>
      call("read_file", { path: d.path, offset: windowStart(d), limit: READ_WINDOW }),
    );
    const thought = alike
      ? `\`${name}\` is defined in ${best.path} and in ${second.path}; reading both at once.`
      : `${best.path}:${best.line} defines \`${name}\`; reading the lines around it.`;
    return { thought, calls: reads };
  }
  return mentionMove(name, done, last, `No line defines \`${name}\` in a form I know; searching for the name itself.`);
}

/** The definitions found by every definition search of this turn, best first; inside `owner` first when it is given. */
function bestDefinitions(name: string, owner: string | undefined, done: Exchange[]): Definition[] {
  const patterns = [definitionPattern(name), topLevelPattern(name)];
  const searches = done.filter((e) => e.name === "grep" && patterns.includes(e.input.pattern)).reverse();
  const seen = new Set<string>();
  const hits = searches
    .flatMap((search) => parseHits(search.result))
    .filter((hit) => !seen.has(`${hit.path}:${hit.line}`) && seen.add(`${hit.path}:${hit.line}`));
  // A narrowed search that found definitions answers on its own: that was the point of narrowing.
  const narrowed = searches.length > 1 ? rankDefinitions(parseHits(searches[0].result), name) : [];
  const definitions = narrowed.length ? narrowed : rankDefinitions(hits, name);
  if (!owner) return definitions;
  const classes = ownerDefinitions(owner, done);
  const inside = definitions.filter((d) => classes.some((c) => c.path === d.path && c.line < d.line));
  // Inside the owner, only those: the same method name in an unrelated class is not "also" the answer.
  return inside.length ? inside : definitions;
}

function ownerDefinitions(owner: string, done: Exchange[]): Definition[] {
  const search = done.find((e) => e.name === "grep" && e.input.pattern === definitionPattern(owner));
  return rankDefinitions(parseHits(search?.result ?? ""), owner);
}

/** The bare name (a whole word), once more case-insensitively, then an honest "not found". */
function mentionMove(name: string, done: Exchange[], last: Exchange[], thought: string): Move {
  const exact = wholeWord(name);
  const tried = done.filter(
    (e) => e.name === "grep" && (e.input.pattern === exact || e.input.pattern === `(?i)${exact}`),
  );
  if (!tried.length) return { thought, calls: [call("grep", { pattern: exact })] };
  const hits = sortBySource(parseHits(last[0].result));
  if (hits.length) {
    const capped = isCapped(last[0]) ? " (grep stopped at its cap; there are more)" : "";
    return { answer: mentionAnswer(`\`${name}\`${capped}`, hits, `I found no line that defines \`${name}\`. `) };
  }
  if (tried.length === 1)
    return {
      thought: `No match for /${exact}/; trying once more, ignoring case.`,
      calls: [call("grep", { pattern: `(?i)${exact}` })],
    };
  return {
    answer: `I couldn't find \`${name}\` in the workspace: no line defines it, and grep found no match for /${exact}/, nor ignoring case.`,
  };
}

/** Call sites or uses, grouped by file; narrowed to the main language when grep is capped. */
function usageMove(name: string, callsOnly: boolean, done: Exchange[], last: Exchange[]): Move {
  const pattern = wholeWord(name, callsOnly ? "\\s*\\(" : undefined);
  if (!last.length) {
    const thought = callsOnly
      ? `For "who calls", the call sites are the answer: searching for \`${name}(\`, to set the definition and imports apart.`
      : `For "where is it used", the lines that use \`${name}\` are the answer; the definition and imports are set apart.`;
    return { thought, calls: [call("grep", { pattern })] };
  }
  const search = last[0];
  const hits = parseHits(search.result);
  const include = narrowingInclude(hits);
  if (isCapped(search) && done.length === 1 && !hits.every((hit) => matchesInclude(hit.path, include))) {
    return {
      thought: `grep stopped at its cap, so a count would be wrong; narrowing to ${include} files.`,
      calls: [call("grep", { pattern, include })],
    };
  }
  return { answer: usageAnswer(name, hits, callsOnly, isCapped(search)) };
}

function windowStart(d: Definition): number {
  return Math.max(1, d.line - LINES_BEFORE_HIT);
}
