// Lesson 0's graded questions: which tool a question gets, where the step log goes, what an answer cites.
import { isNumber, isText, type Question } from "./answers.js";
import { ask, cli, firstCitation } from "./live.js";

export const lesson00: Question[] = [
  {
    n: 1,
    ask: 'ask "which python files are there?" in the sample project: which tool does the offline model call? (its name)',
    hint: "The step log's [2] line names the tool. parseQuestion in src/models/offline/question.ts sorts questions into kinds.",
    judge: isText(async () => (await ask("which python files are there?")).calls[0].name),
  },
  {
    n: 2,
    ask: 'and for "what is in the web folder?": which tool? (its name)',
    hint: "A question about a folder is its own kind in parseQuestion (folderAskedAbout).",
    judge: isText(async () => (await ask("what is in the web folder?")).calls[0].name),
  },
  {
    n: 3,
    ask: 'run `npx scout -p "where is make_slug defined?"` with 2>/dev/null, then >/dev/null: which stream carries the step log? (stdout or stderr)',
    hint: "Whatever 2>/dev/null hides went to stderr (stream 2); what >/dev/null hides went to stdout.",
    judge: isText(async () => {
      const run = await cli(["-p", "where is make_slug defined?"]);
      return run.stderr.includes("[1] model") ? "stderr" : run.stdout.includes("[1] model") ? "stdout" : "neither";
    }),
  },
  {
    n: 4,
    ask: 'from the repository root, `npx scout -p "where is LinkStore defined?" --cwd lessons/sample-project`: which path:line does the answer cite?',
    hint: "Copy it from the answer's first line. Paths in answers are relative to the workspace root, which --cwd sets.",
    judge: async (answer) => {
      if (/sample-project\//.test(answer)) return "that path starts outside the workspace root: --cwd moved the root";
      return isText(async () => firstCitation((await ask("where is LinkStore defined?")).result.text))(answer);
    },
  },
  {
    n: 5,
    ask: 'ask "where is frobnicate defined?": how many tool calls does the offline model make before it gives up? (a number)',
    hint: "Count the tool lines in the step log ([2], [4], …), or read the turn line at the end.",
    judge: isNumber(async () => (await ask("where is frobnicate defined?")).calls.length),
  },
];
