// A question set's format and its grader, shared by the offline model's evaluation and the experiment runner: a question, what a right answer holds, and a pure check of one answer against it.
import { stoppable } from "../guards/regex-deadline.js";

/** One question of an evaluation, with what a right answer must hold. */
export interface LabQuestion {
  id: string;
  question: string;
  expect: Expectation;
}

export interface Expectation {
  /** A right answer cites at least one of these "path:line" locations. */
  locations?: string[];
  /** A right answer matches this regular expression (JavaScript syntax, case-sensitive). */
  pattern?: string;
}

export interface Grade {
  right: boolean;
  /** What was missing, for a wrong answer ("" when right). */
  why: string;
  /** Every "path:line" the answer cites, in order. */
  cited: string[];
  /** The location the answer says the name "is defined at", if it says so. */
  claimedDefinition: string | null;
}

/**
 * A path (no spaces) followed by ":line", as answers cite them; more lines of the same file may
 * follow as ", line" ("src/a.py:10, 14, 18" cites three lines).
 */
const CITATION = /([\w./@+-]+\.[\w]+|[\w./@+-]+\/[\w.@+-]+):(\d+(?:, \d+)*)\b/g;

/** Grades one answer: every condition given in `expect` must hold. */
export function grade(answer: string, expect: Expectation): Grade {
  const cited = [...answer.matchAll(CITATION)].flatMap((match) =>
    match[2].split(", ").map((line) => `${match[1]}:${line}`),
  );
  const claim = /\bis defined at ([^\s:]+:\d+)/.exec(answer);
  const problems: string[] = [];
  if (expect.locations && !expect.locations.some((location) => cited.includes(location))) {
    problems.push(`cites none of ${expect.locations.slice(0, 3).join(", ")}${expect.locations.length > 3 ? " …" : ""}`);
  }
  if (expect.pattern !== undefined) {
    // The set's pattern against the model's answer: both from outside, so it is stopped after a second.
    const pattern = expect.pattern;
    const matched = stoppable(() => new RegExp(pattern).test(answer));
    if (typeof matched !== "boolean") problems.push(`the pattern was stopped: ${matched.tooSlow}`);
    else if (!matched) problems.push(`does not match /${pattern}/`);
  }
  return { right: problems.length === 0, why: problems.join("; "), cited, claimedDefinition: claim?.[1] ?? null };
}
