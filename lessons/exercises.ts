// The self-graded exercises: for each, the file a learner edits, its solution, and the shared
// cases it must pass; lessons/check.ts runs them, test/exercises.test.ts proves each solvable.
//
// Two kinds. A code exercise's cases are the very ones Scout's own code
// passes in npm test (test/cases/), so "PASS" means "as good as Scout's own,
// by Scout's tests". An answers exercise (lessons 0-9, 12, 13) judges a text file of
// answers against truths computed live from Scout's code (lessons/graded/),
// so a change that makes a lesson false makes its solution fail in npm test.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Case } from "../test/cases/case.js";
import { listFilesCases } from "../test/cases/list_files.js";
import { loopCases } from "../test/cases/loop.js";
import { modelCases } from "../test/cases/model.js";
import { type MakeOutline, outlineCases } from "../test/cases/outline.js";
import { type DenyTools, permissionCases } from "../test/cases/permissions.js";
import { startApiServer } from "../test/api-server.js";
import { checkAnswers, type Question } from "./graded/answers.js";
import { firstCaseCases } from "./graded/first-case.js";
import { lesson00 } from "./graded/lesson-00.js";
import { lesson01 } from "./graded/lesson-01.js";
import { lesson02 } from "./graded/lesson-02.js";
import { lesson03 } from "./graded/lesson-03.js";
import { lesson04 } from "./graded/lesson-04.js";
import { lesson05 } from "./graded/lesson-05.js";
import { lesson06 } from "./graded/lesson-06.js";
import { lesson07 } from "./graded/lesson-07.js";
import { lesson08 } from "./graded/lesson-08.js";
import { lesson09 } from "./graded/lesson-09.js";
import { lesson12 } from "./graded/lesson-12.js";
import { lesson13 } from "./graded/lesson-13.js";

export { REPO_ROOT } from "./graded/live.js";
/** Where tsc put this file's compiled twin when it runs compiled (lessons/run.mjs), or null when it runs as .ts. */
export const COMPILED_ROOT = (() => {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith(".js") ? path.dirname(path.dirname(here)) : null;
})(); /** A case that takes longer than this fails: a loop that never ends must not hang the check. */
export const CASE_TIMEOUT_MS = 10_000;

export interface Exercise {
  name: string;
  /** "code": a module, compiled and run against cases; "answers": a text file, one answer per question. */
  kind: "code" | "answers";
  /** The lesson that sets it. */
  lesson: number;
  /** What the learner writes, in one line. */
  task: string;
  /** The file the learner edits, and one solution (paths relative to the repository root). */
  file: string;
  solution: string;
  /** Runs every case against the module at `file` (an absolute path); calls `report` after each. */
  check(file: string, report: (result: CaseResult) => void): Promise<CaseResult[]>;
}

export interface CaseResult {
  name: string;
  hint: string;
  /** Why it failed, or null when it passed. */
  failure: string | null;
}

/** Runs cases in order against one subject; a case that throws or takes too long fails. */
async function runCases<S>(cases: Case<S>[], subject: S, report: (r: CaseResult) => void): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const testCase of cases) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result after ${CASE_TIMEOUT_MS / 1000} s`)), CASE_TIMEOUT_MS);
    });
    let failure: string | null = null;
    try {
      await Promise.race([testCase.run(subject), timeout]);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timer);
    }
    const result = { name: testCase.name, hint: testCase.hint, failure };
    results.push(result);
    report(result);
  }
  return results;
}

/** Imports a learner's module and takes the named export, or says plainly what is missing. */
async function load<T>(file: string, exportName: string): Promise<T> {
  const module = await import(pathToFileURL(file).href);
  if (!(exportName in module)) throw new Error(`it does not export ${exportName}`);
  return module[exportName] as T;
}

export const exercises: Exercise[] = [
  ...answerExercises(),
  {
    name: "outline",
    kind: "code",
    lesson: 8,
    task: "a fifth tool: outline, the definitions in one file, made from a design",
    file: "lessons/build/outline.ts",
    solution: "lessons/solutions/outline.ts",
    check: async (file, report) => runCases(outlineCases, await load<MakeOutline>(file, "makeOutline"), report),
  },
  {
    name: "loop",
    kind: "code",
    lesson: 10,
    task: "the agent loop: runTurn, as in src/agent.ts",
    file: "lessons/build/loop.ts",
    solution: "lessons/solutions/loop.ts",
    check: async (file, report) => runCases(loopCases, await load(file, "runTurn"), report),
  },
  {
    name: "list_files",
    kind: "code",
    lesson: 11,
    task: "a tool: list_files, as in src/tools/list_files.ts",
    file: "lessons/build/list_files.ts",
    solution: "lessons/solutions/list_files.ts",
    check: async (file, report) => runCases(listFilesCases, await load(file, "listFiles"), report),
  },
  {
    name: "model",
    kind: "code",
    lesson: 11,
    task: "a model adapter: the Messages API over fetch, as src/models/claude.ts does with the SDK",
    file: "lessons/build/model.ts",
    solution: "lessons/solutions/model.ts",
    check: async (file, report) => {
      const makeModel = await load<typeof import("./build/model.js").makeModel>(file, "makeModel");
      const server = await startApiServer();
      try {
        const model = makeModel({ baseURL: server.url, apiKey: "test-key", name: "claude-test" });
        return await runCases(modelCases, { model, server }, report);
      } finally {
        await server.close();
      }
    },
  },
  {
    name: "permissions",
    kind: "code",
    lesson: 13,
    task: "a permission rule: denyTools, a deny list enforced in code",
    file: "lessons/build/permissions.ts",
    solution: "lessons/solutions/permissions.ts",
    check: async (file, report) => runCases(permissionCases, await load<DenyTools>(file, "denyTools"), report),
  },
  {
    name: "first-case",
    kind: "code",
    lesson: 14,
    task: "a test before the code: the outline tool's first case, failing on wrong tools, passing on a finished one",
    file: "lessons/build/first-case.ts",
    solution: "lessons/solutions/first-case.ts",
    check: async (file, report) => runCases(firstCaseCases, await load<Case<MakeOutline>>(file, "firstCase"), report),
  },
];

/** Lessons 0-9, 12 and 13: one answers file each, judged question by question. */
function answerExercises(): Exercise[] {
  const lessons = [lesson00, lesson01, lesson02, lesson03, lesson04, lesson05, lesson06, lesson07, lesson08, lesson09];
  const byLesson: [number, Question[]][] = [...lessons.entries(), [12, lesson12], [13, lesson13]];
  return byLesson.map(([lesson, questions]) => {
    const nn = String(lesson).padStart(2, "0");
    return {
      name: `answers-${nn}`,
      kind: "answers",
      lesson,
      task: `answers to lesson ${lesson}'s questions, one per line`,
      file: `lessons/build/answers/${nn}.txt`,
      solution: `lessons/solutions/answers/${nn}.txt`,
      check: (file, report) => checkAnswers(questions, file, report),
    };
  });
}
