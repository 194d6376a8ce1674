// Lesson 11's graded questions: a question the offline model gets wrong, an answer the grader wrongly passes, a pattern that grades a list.
import fs from "node:fs";
import path from "node:path";
import { grade, type LabQuestion } from "../../src/lab/questions.js";
import { loadQuestionSet, QuestionSetError } from "../../src/lab/question-set.js";
import { definitionTier } from "../../src/models/offline/definitions.js";
import { jsonInput, type Question, stoppable } from "./answers.js";
import { ask, firstCitation, inScratch, REPO_ROOT } from "./live.js";

/** The SDK's sources, as lessons/questions/sdk-source.json asks about them. */
const SDK_SET = path.join(REPO_ROOT, "lessons", "questions", "sdk-source.json");
/** The one kind of question exercise 1 takes: its expected line can then be checked against the name asked about. */
const WHERE_DEFINED = /^where is (.+?) defined\??$/i;
/** Words around a name in "Where is the create method of Messages defined?" that are not names. */
const NOT_NAMES = new Set(["the", "a", "an", "of", "in", "on", "method", "function", "class", "type", "interface"]);

/**
 * The learner's question as `scout lab` loads it from a set of its own, in the SDK's sources (`sdk`), or why it
 * is refused. The load is stopped after a second: a "path:/regex/" location is the learner's regex.
 */
async function loadOne(question: Record<string, unknown>, sdk: string): Promise<LabQuestion | string> {
  return inScratch(async (scratch) => {
    const file = path.join(scratch, "one.json");
    fs.writeFileSync(file, JSON.stringify({ workspace: sdk, questions: [question] }));
    try {
      const loaded = stoppable(() => loadQuestionSet(file).questions[0]);
      return "tooSlow" in loaded ? loaded.tooSlow : loaded;
    } catch (error) {
      if (error instanceof QuestionSetError) return `scout lab refuses it: ${error.message.replace(`${file}: `, "")}`;
      throw error;
    }
  });
}

/** Why an expected location is not a fair one (its line must define a name the question asks about), or null. */
function unfairLocation(location: string, names: string[], root: string): string | null {
  const [file, line] = [location.slice(0, location.lastIndexOf(":")), Number(location.split(":").pop())];
  const text = fs.readFileSync(path.join(root, file), "utf8").split("\n")[line - 1] ?? "";
  if (names.some((name) => definitionTier(text, name) !== null)) return null;
  return `${location} ("${text.trim().slice(0, 60)}") does not define ${names.join(" or ")}: a wrong expectation makes any answer wrong`;
}

/** The offline model's answer to the sample project's "Which test files are there?": its heading, and one line per file. */
async function testFilesAnswer(): Promise<{ answer: string; heading: string; files: string[] }> {
  const answer = (await ask("Which test files are there?")).result.text;
  const [heading, ...rest] = answer.split("\n");
  return { answer, heading, files: rest.filter((line) => line.startsWith("- ")) };
}

/** Answers that leave at least one test file out: each file alone, in the model's list and in a sentence, and each left out. */
function incompleteAnswers(heading: string, files: string[]): string[] {
  const alone = files.flatMap((file) => [`${heading}\n${file}`, `The only test file is ${file.slice(2)}.`]);
  const leftOut = files.map((_, i) => [heading, ...files.filter((_, j) => j !== i)].join("\n"));
  return [...alone, ...leftOut];
}

export const lesson11: Question[] = [
  {
    n: 1,
    ask: 'write a "Where is … defined?" question about the SDK\'s sources that the offline model answers wrongly, as one line of a set\'s JSON ({"id": …, "question": …, "expect": {"locations": [the right line]}})',
    hint: "Try questions first, from the repository root: npx scout -p \"…\" --cwd node_modules/@anthropic-ai/sdk/src (inside node_modules, npx finds the SDK's package.json, not Scout's). The expected location must be the line that really defines the name: path:line, or path:/regex/ as in lessons/questions/sdk-source.json.",
    judge: async (answer) => {
      const input = jsonInput(answer);
      if (typeof input === "string") return input;
      const root = loadQuestionSet(SDK_SET).workspace;
      const question = await loadOne(input, root);
      if (typeof question === "string") return question;
      const asked = WHERE_DEFINED.exec(question.question.trim())?.[1];
      if (!asked) return 'the question must be "Where is NAME defined?": its expected line is checked against NAME';
      if (!question.expect.locations || question.expect.pattern !== undefined)
        return 'give "expect": {"locations": […]} and no pattern: a pattern no answer matches would make any answer wrong';
      const names = (asked.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((word) => !NOT_NAMES.has(word.toLowerCase()));
      // One right line is enough: a right answer cites any one of them, so more lines only make failing harder.
      const unfair = question.expect.locations.map((location) => unfairLocation(location, names, root));
      if (unfair.every((why) => why !== null)) return unfair[0];
      // The answer's claim is the line it cites first: a wrong one stays wrong when a list after it holds the right one.
      const claim = firstCitation((await ask(question.question, { root })).result.text);
      return grade(claim, question.expect).right
        ? `the offline model answers it right (it cites ${claim} first)`
        : null;
    },
  },
  {
    n: 2,
    ask: 'write an answer that says "APIError is not defined" (or never, nowhere), yet grade() marks right against the apierror-defined question',
    hint: "grade in src/lab/questions.ts looks for a cited path:line among the expected ones; it does not read the words around it. The expected location is in lessons/questions/sdk-source.json.",
    judge: async (answer) => {
      const said = answer.replace(/\bisn't\b/gi, "is not");
      if (!/\bAPIError is (not|never|nowhere) defined\b/i.test(said))
        return 'the answer must say "APIError is not defined"';
      if (/\bis defined\b/i.test(said)) return 'the answer also says "is defined": it must only deny it';
      const question = loadQuestionSet(SDK_SET).questions.find((q) => q.id === "apierror-defined");
      if (!question) return "the check itself failed: apierror-defined is not in lessons/questions/sdk-source.json";
      return grade(answer, question.expect).right
        ? null
        : "grade marks it wrong: it cites no location the question expects";
    },
  },
  {
    n: 3,
    ask: "for the sample project's \"Which test files are there?\", write a pattern (the regex itself: single backslashes, no quotes or slashes) that passes the offline model's answer and fails every answer that leaves a test file out",
    hint: "Ask npx scout -p 'Which test files are there?' in lessons/sample-project. A pattern has to hold for every file at once: a lookahead, (?=[\\s\\S]*name), checks one name anywhere in the answer.",
    judge: async (answer) => {
      if (/^(["'/]).*\1$/.test(answer)) return "write the regex itself, without quotes or slashes around it";
      if (answer.includes("\\\\"))
        return "write single backslashes: \\\\ is how JSON writes one, and a regex reads two";
      try {
        new RegExp(answer);
      } catch (error) {
        return `not a regular expression (${(error as Error).message})`;
      }
      const { answer: offline, heading, files } = await testFilesAnswer();
      const passes = (text: string) => stoppable(() => grade(text, { pattern: answer }).right);
      const whole = passes(offline);
      if (typeof whole !== "boolean") return whole.tooSlow;
      if (!whole) return "it fails the offline model's own (right) answer";
      for (const incomplete of incompleteAnswers(heading, files)) {
        const verdict = passes(incomplete);
        if (typeof verdict !== "boolean") return verdict.tooSlow;
        if (verdict) return `it passes an answer that leaves a file out: ${JSON.stringify(incomplete)}`;
      }
      return null;
    },
  },
];
