// Answer exercises: a learner writes one answer per line in lessons/build/answers/NN.txt, and each is judged against a truth computed live from Scout's code.
//
// The file is plain text: `3: src/shortly/slugs.py:12`, one answer after
// each number; lines starting with # are the questions, for reading. A
// judge never prints the right answer (that is the solution's job): it says
// what is wrong, and the check prints the question's hint under it.
import { readPersonFile } from "../../src/person-file.js";
import type { CaseResult } from "../exercises.js";

/** One graded question of a lesson. */
export interface Question {
  /** Its number in the answers file (`2: …`). */
  n: number;
  /** The task in one line: what to find, run or predict, and what to write. */
  ask: string;
  hint: string;
  /** Why `answer` is wrong, or null when it is right. Computes the truth from Scout's real code every time. */
  judge(answer: string): Promise<string | null>;
}

// A learner's regular expression is stopped after REGEX_TIMEOUT_MS: one that backtracks can run for hours.
export { REGEX_TIMEOUT_MS, stoppable } from "../../src/guards/regex-deadline.js";
/** A judge slower than this fails: a truth that hangs must not hang the check. */
export const JUDGE_TIMEOUT_MS = 20_000;
/** An answer longer than this is not read: every answer here fits on one line. */
export const MAX_ANSWER_CHARS = 2_000;
/** A bigger answers file is refused unread: ten one-line answers and their questions take about 3 KB. */
export const MAX_ANSWERS_FILE_BYTES = 100_000;

/** The answers in a file, by number: `N: text` or `N. text`; # lines, blank lines and anything else are skipped. */
export function parseAnswers(text: string): Map<number, string> {
  const answers = new Map<number, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s*[:.)]\s?(.*)$/.exec(line);
    if (match && !answers.has(Number(match[1]))) answers.set(Number(match[1]), match[2].trim());
  }
  return answers;
}

/** Judges every question against the answers in `file`, in order, calling `report` after each. */
export async function checkAnswers(
  questions: Question[],
  file: string,
  report: (result: CaseResult) => void,
  starting: (name: string) => void = () => {},
): Promise<CaseResult[]> {
  const answers = parseAnswers(readAnswersFile(file));
  const results: CaseResult[] = [];
  for (const question of questions) {
    starting(`${question.n}. ${question.ask}`);
    const answer = answers.get(question.n) ?? "";
    let failure: string | null;
    if (answer === "") failure = `no answer yet: write it after "${question.n}:"`;
    else if (answer.length > MAX_ANSWER_CHARS) failure = `the answer is ${answer.length} characters; one line will do`;
    else failure = await judged(question, answer);
    const result = { name: `${question.n}. ${question.ask}`, hint: question.hint, failure };
    results.push(result);
    report(result);
  }
  return results;
}

/**
 * The text of an answers file, read as every file a person names is (src/person-file.ts): opened without
 * blocking (a FIFO with no writer would wait forever), only if it is a regular file (a link to /dev/zero is
 * a device), and never read past MAX_ANSWERS_FILE_BYTES.
 */
export function readAnswersFile(file: string): string {
  return readPersonFile(file, { option: "", maxBytes: MAX_ANSWERS_FILE_BYTES });
}

async function judged(question: Question, answer: string): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no verdict after ${JUDGE_TIMEOUT_MS / 1000} s`), JUDGE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([question.judge(answer), timeout]);
  } catch (error) {
    return `the check itself failed: ${(error as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- judges

/** Text as compared: no surrounding quotes, backticks or final full stop, one space, any case. */
export function normal(text: string): string {
  return text
    .trim()
    .replace(/^[`'"]+|[`'".]+$/g, "")
    .replace(/\s+/g, " ")
    .toLowerCase();
}

/** The answer is this text (after `normal`). */
export function isText(truth: () => Promise<string>) {
  return async (answer: string) => (normal(answer) === normal(await truth()) ? null : `"${answer}" is not it`);
}

/** The answer is this number, written once ("1,200" is 1200); an answer that hedges between two numbers ("3 (or 2)") is not one. */
export function isNumber(truth: () => Promise<number>) {
  return async (answer: string) => {
    const written = [...answer.matchAll(/-?\d[\d,]*(\.\d+)?/g)].map((m) => m[0]);
    if (written.length === 0) return `"${answer}" holds no number`;
    const values = new Set(written.map((n) => Number(n.replace(/,/g, ""))));
    if (values.size > 1) return `"${answer}" holds ${values.size} numbers: write one`;
    return values.has(await truth()) ? null : `${written[0]} is not it`;
  };
}

/** The words of an answer, split at spaces, commas and semicolons, each `normal`. */
export function wordsOf(answer: string): string[] {
  return answer
    .split(/[\s,;]+/)
    .map(normal)
    .filter((word) => word !== "" && word !== "and");
}

/** The answer names exactly these items, in this order when `ordered`, else in any. */
export function isList(truth: () => Promise<string[]>, ordered = false) {
  return async (answer: string) => {
    const want = (await truth()).map(normal);
    const got = wordsOf(answer);
    const [a, b] = ordered ? [got, want] : [[...got].sort(), [...want].sort()];
    if (JSON.stringify(a) === JSON.stringify(b)) return null;
    if (!ordered || got.length !== want.length || [...got].sort().join() !== [...want].sort().join())
      return `${got.length} item${got.length === 1 ? "" : "s"} (${got.join(", ")}): not the right set`;
    return "the right items, in the wrong order";
  };
}

/** The answer is a JSON object: parsed, or a failure saying why not. */
export function jsonInput(answer: string): Record<string, unknown> | string {
  try {
    const input = JSON.parse(answer);
    return input !== null && typeof input === "object" && !Array.isArray(input) ? input : "not a JSON object";
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
}
