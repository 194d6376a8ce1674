// Lesson 14's test-first exercise, graded: a learner's first case for the outline tool must fail on a tool not written yet and pass on a finished one.
//
// A test is worth writing first when it can tell the two apart: this is the
// whole check. The finished tool is lessons/solutions/outline.ts; the one
// not written yet answers every call with an empty result.
import { makeOutline as finishedOutline } from "../solutions/outline.js";
import type { Case } from "../../test/cases/case.js";
import type { MakeOutline } from "../../test/cases/outline.js";
import { ok } from "../../src/tools/tool.js";

/** The outline tool before its code is written: the right name and schema, an empty answer. */
const unwrittenOutline: MakeOutline = (design) => ({ ...finishedOutline(design), run: async () => ok("") });

/** Runs the learner's case on one outline tool: null when it passes, else why it failed. */
async function outcome(testCase: Case<MakeOutline>, make: MakeOutline): Promise<string | null> {
  try {
    await testCase.run(make);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const firstCaseCases: Case<Case<MakeOutline>>[] = [
  {
    name: "has a name and a hint, as every shared case does",
    hint: "name says what it checks, in one line; hint says where to look when it fails (see test/cases/outline.ts).",
    run: async (testCase) => {
      if (!testCase.name?.trim() || testCase.name === "TODO") throw new Error("the case has no name yet");
      if (!testCase.hint?.trim() || testCase.hint === "TODO") throw new Error("the case has no hint yet");
    },
  },
  {
    name: "fails against an outline tool whose code is not written yet (it answers with nothing)",
    hint: "Run the tool on a real file (withTree, runTool) and assert on what it must show: a test that passes on an empty answer tests nothing.",
    run: async (testCase) => {
      if ((await outcome(testCase, unwrittenOutline)) === null)
        throw new Error("it passes: it cannot catch a missing tool");
    },
  },
  {
    name: "passes against a finished outline tool (lessons/solutions/outline.ts)",
    hint: "Definitions are listed as LINE: TEXT, the line as it is; read a case in test/cases/outline.ts for the exact format.",
    run: async (testCase) => {
      const failure = await outcome(testCase, finishedOutline);
      if (failure !== null) throw new Error(`it fails on a right tool: ${failure}`);
    },
  },
];
