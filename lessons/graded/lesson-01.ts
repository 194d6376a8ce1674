// Lesson 1's graded questions: the history a turn leaves, the step cap, and when the loop runs tools.
import { runTurn } from "../../src/core/loop.js";
import { scriptedModel } from "../../src/models/scripted.js";
import { Workspace } from "../../src/core/workspace.js";
import { isList, isNumber, isText, type Question } from "./answers.js";
import { ask, SAMPLE_PROJECT } from "./live.js";

export const lesson01: Question[] = [
  {
    n: 1,
    ask: 'with --max-steps 1, "where is make_slug defined?": the roles of the messages in the history after the turn, in order (e.g. user, assistant)',
    hint: "One message for the question, one per model reply, one per batch of tool results; the step cap adds a message too. Read the step-cap code at the top of runTurn's loop.",
    judge: isList(
      async () => (await ask("where is make_slug defined?", { maxSteps: 1 })).history.map((m) => m.role),
      true,
    ),
  },
  {
    n: 2,
    ask: 'predict, then try: the smallest --max-steps with which "where is make_slug defined?" still gets its answer (a number)',
    hint: "--max-steps counts model calls, not tool calls. The turn line says how many calls the answer took.",
    judge: isNumber(async () => (await ask("where is make_slug defined?")).result.modelCalls),
  },
  {
    n: 3,
    ask: 'a model replies with stop_reason "tool_use" but no tool_use block: what stopReason does runTurn report for the turn?',
    hint: "Read steps 2 and 3 of runTurn in src/core/loop.ts: when does it run tools, and what does it report otherwise?",
    judge: isText(async () => {
      const model = scriptedModel([{ content: [{ type: "text", text: "I will look." }], stop_reason: "tool_use" }]);
      return (await runTurn("hi", [], { model, workspace: new Workspace(SAMPLE_PROJECT) })).stopReason;
    }),
  },
  {
    n: 4,
    ask: "`printf 'where is main defined?\\nwhich test files are there?\\n' | npx scout`: how many messages does the history hold after the second answer?",
    hint: "The second turn starts from the whole first one. Count per turn: the question, each model reply, each batch of tool results.",
    judge: isNumber(async () => {
      const first = await ask("where is main defined?");
      return (await ask("which test files are there?", { history: first.history })).history.length;
    }),
  },
];
