// Lesson 12's graded questions: a question the offline model gets wrong, an answer the grader wrongly passes, a pattern that grades a list.
import fs from "node:fs";
import path from "node:path";
import { type LabQuestion, grade } from "../../src/lab/questions.js";
import { loadQuestionSet, QuestionSetError } from "../../src/lab/question-set.js";
import { definitionTier } from "../../src/models/offline/definitions.js";
import { jsonInput, type Question } from "./answers.js";
import { ask, inScratch, REPO_ROOT } from "./live.js";

/** The SDK's sources, as lessons/questions/sdk-source.json asks about them. */
const SDK_SET = path.join(REPO_ROOT, "lessons", "questions", "sdk-source.json");

/** The questions of a set file holding just `question`, loaded as `scout lab` loads a set, in the SDK's sources. */
async function loadOne(question: Record<string, unknown>): Promise<LabQuestion[] | string> {
  const sdk = loadQuestionSet(SDK_SET).workspace;
  return inScratch(async (scratch) => {
    const file = path.join(scratch, "one.json");
    fs.writeFileSync(file, JSON.stringify({ workspace: sdk, questions: [question] }));
    try {
      return loadQuestionSet(file).questions;
    } catch (error) {
      if (error instanceof QuestionSetError) return `scout lab refuses it: ${error.message.replace(`${file}: `, "")}`;
      throw error;
    }
  });
}

/** Why an expected location is not a fair one (it must define a name the question names), or null. */
function unfairLocation(location: string, question: string, root: string): string | null {
  const [file, line] = [location.slice(0, location.lastIndexOf(":")), Number(location.split(":").pop())];
  const text = fs.readFileSync(path.join(root, file), "utf8").split("\n")[line - 1] ?? "";
  const names = question.match(/[A-Za-z_$][\w$]+/g) ?? [];
  if (names.some((name) => definitionTier(text, name) !== null)) return null;
  return `${location} ("${text.trim().slice(0, 60)}") does not define a name your question asks about: a wrong expectation makes any answer wrong`;
}

/** The offline model's answer to the sample project's "Which test files are there?", and the files it lists. */
async function testFilesAnswer(): Promise<{ answer: string; files: string[] }> {
  const answer = (await ask("Which test files are there?")).result.text;
  return { answer, files: answer.split("\n").filter((line) => line.startsWith("- ")) };
}

export const lesson12: Question[] = [
  {
    n: 1,
    ask: 'write a question about the SDK\'s sources that the offline model answers wrongly, as one line of a set\'s JSON ({"id": …, "question": …, "expect": {"locations": [the right line]}})',
    hint: "Try questions with npx scout -p in node_modules/@anthropic-ai/sdk/src first. The expected location must be the line that really defines the name: path:line, or path:/regex/ as in lessons/questions/sdk-source.json.",
    judge: async (answer) => {
      const input = jsonInput(answer);
      if (typeof input === "string") return input;
      const loaded = await loadOne(input);
      if (typeof loaded === "string") return loaded;
      const [question] = loaded;
      if (!question.expect.locations)
        return 'give "expect": {"locations": […]}: a question graded by a pattern alone is wrong whenever the pattern is';
      const root = loadQuestionSet(SDK_SET).workspace;
      // One right line is enough: a right answer cites any one of them, so more lines only make failing harder.
      const unfair = question.expect.locations.map((location) => unfairLocation(location, question.question, root));
      if (unfair.every((why) => why !== null)) return unfair[0];
      const turn = await ask(question.question, { root });
      const verdict = grade(turn.result.text, question.expect);
      return verdict.right ? `the offline model answers it right (it cites ${verdict.cited[0] ?? "nothing"})` : null;
    },
  },
  {
    n: 2,
    ask: "write an answer that says APIError is NOT defined in the SDK, yet grade() marks right against the apierror-defined question",
    hint: "grade in src/lab/questions.ts looks for a cited path:line among the expected ones; it does not read the words around it. The expected line is the export class APIError line of core/error.ts.",
    judge: async (answer) => {
      if (!/\bnot\b|n't\b|\bno\b|\bnever\b/i.test(answer))
        return "the answer must say APIError is not defined (with not, no or never)";
      const question = loadQuestionSet(SDK_SET).questions.find((q) => q.id === "apierror-defined");
      if (!question) return "the check itself failed: apierror-defined is not in lessons/questions/sdk-source.json";
      const verdict = grade(answer, question.expect);
      return verdict.right ? null : `grade marks it wrong: it ${verdict.why}`;
    },
  },
  {
    n: 3,
    ask: 'for the sample project\'s "Which test files are there?", write a "pattern" (a JavaScript regex, as in a set\'s JSON but unquoted) that passes the offline model\'s answer and fails any answer listing only one test file',
    hint: "Ask npx scout -p 'Which test files are there?' in lessons/sample-project. A pattern has to hold for every file at once: lookaheads, ^(?=[\\s\\S]*name), each check anywhere in the answer.",
    judge: async (answer) => {
      try {
        new RegExp(answer);
      } catch (error) {
        return `not a regular expression (${(error as Error).message})`;
      }
      const { answer: offline, files } = await testFilesAnswer();
      if (!grade(offline, { pattern: answer }).right) return "it fails the offline model's own (right) answer";
      const heading = offline.split("\n")[0];
      for (const file of files)
        if (grade(`${heading}\n${file}`, { pattern: answer }).right)
          return `it passes an answer that lists only ${file.slice(2)}`;
      return null;
    },
  },
];
