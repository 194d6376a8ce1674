// Lesson 15's test-first exercise, graded: a learner's first case for the outline tool must fail on wrong tools and pass on a finished one.
//
// A test is worth writing first when it can tell a right tool from the wrong
// ones a first version is: this is the whole check. The finished tool is
// lessons/solutions/outline.ts.
import fs from "node:fs";
import { outline as finishedOutline } from "../solutions/outline.js";
import type { Case } from "../cases/case.js";
import type { Outline } from "../cases/outline.js";
import { fail, ok } from "../../src/core/tool.js";

/** The finished tool, its result changed by `change`. */
function withRun(change: (content: string, file: string) => string): Outline {
  return {
    ...finishedOutline,
    run: async (args: { path: string }, context) => {
      const result = await finishedOutline.run(args, context);
      if (result.isError) return result;
      const resolved = context.workspace.resolveInWorkspace(args.path);
      return ok(change(result.content, resolved.ok ? fs.readFileSync(resolved.abs, "utf8") : ""));
    },
  };
}
const numberedLines = (_: string, file: string) =>
  file
    .split("\n")
    .map((line, i) => `${i + 1}: ${line}`)
    .join("\n");
const withoutNumbers = (content: string) => content.replace(/^\d+: /gm, "");
/** The finished tool's lines with each LINE replaced by `number(line, index)`: right format, wrong numbers. */
const renumber = (number: (line: number, index: number) => number) => (content: string) => {
  let index = 0;
  return content.replace(/^(\d+): /gm, (_, line: string) => `${number(Number(line), index++)}: `);
};

/**
 * Outline tools that are wrong in the ways a first version is: not written yet (an empty answer), the whole
 * file with line numbers, the definitions without their numbers or with wrong ones, an error for every file. Each keeps the
 * finished tool's name and schema, so only a case that looks at what the tool shows can tell them apart.
 */
const wrongOutlines: [string, Outline][] = [
  ["answers with nothing", { ...finishedOutline, run: async () => ok("") }],
  ["shows every line of the file, numbered", withRun(numberedLines)],
  ["shows the definitions without their line numbers", withRun(withoutNumbers)],
  ["numbers each definition one line too low (counting from 0)", withRun(renumber((n) => n - 1))],
  ["numbers the definitions 1, 2, 3 in order, not by their line", withRun(renumber((_, i) => i + 1))],
  ["refuses every file", { ...finishedOutline, run: async () => fail("not written yet") }],
];

/** Runs the learner's case on one outline tool: null when it passes, else why it failed. */
async function outcome(testCase: Case<Outline>, tool: Outline): Promise<string | null> {
  try {
    await testCase.run(tool);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const firstCaseCases: Case<Case<Outline>>[] = [
  {
    name: "has a name and a hint, as every shared case does",
    hint: "name says what it checks, in one line; hint says where to look when it fails (see lessons/cases/outline.ts).",
    run: async (testCase) => {
      for (const field of ["name", "hint"] as const) {
        const value: unknown = testCase[field];
        if (typeof value !== "string" || value.trim() === "" || value === "TODO")
          throw new Error(`the case has no ${field} yet (a string)`);
      }
      if (typeof testCase.run !== "function") throw new Error("the case has no run function");
    },
  },
  ...wrongOutlines.map(([wrong, tool]) => ({
    name: `fails against an outline tool that ${wrong}`,
    hint: "Run the tool on a real file (withTree, runTool) and assert on exactly what it must show: the definitions, each as LINE: TEXT, and nothing else.",
    run: async (testCase: Case<Outline>) => {
      if ((await outcome(testCase, tool)) === null) throw new Error(`it passes: it cannot catch a tool that ${wrong}`);
    },
  })),
  {
    name: "passes against a finished outline tool (lessons/solutions/outline.ts)",
    hint: "Definitions are listed as LINE: TEXT, the line as it is; read a case in lessons/cases/outline.ts for the exact format.",
    run: async (testCase) => {
      const failure = await outcome(testCase, finishedOutline);
      if (failure !== null) throw new Error(`it fails on a right tool: ${failure}`);
    },
  },
];
