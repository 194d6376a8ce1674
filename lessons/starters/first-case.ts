// YOUR first test for the outline tool (lesson 15, project 1), written before the tool's code.
//
// `npm run check -- first-case` runs it against outline tools that are wrong
// in the ways a first version is (no answer, every line, no line numbers or
// wrong ones, an error for everything), where it must FAIL, and against a finished one,
// where it must PASS. Write it as the cases in lessons/cases/outline.ts are
// written. Stuck? lessons/solutions/first-case.ts is one answer.
import type { Case } from "../cases/case.js";
import type { Outline } from "../cases/outline.js";

export const firstCase: Case<Outline> = {
  name: "TODO",
  hint: "TODO",
  run: async (tool) => {
    // TODO: run the tool on a real file in a real folder, and assert on what it shows.
    void tool;
  },
};
