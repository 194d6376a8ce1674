// The self-graded exercises: for each, the file a learner edits, its solution, and the shared
// cases it must pass; lessons/check.ts runs them, test/exercises.test.ts proves each solvable.
//
// Two kinds. A code exercise's cases are the very ones Scout's own code
// passes in npm test (lessons/cases/), so "PASS" means "as good as Scout's own,
// by Scout's tests". An answers exercise (the answers lessons: 0, 1, 3-6, 8-12 and 14) judges a text file of
// answers against truths computed live from Scout's code (lessons/graded/),
// so a change that makes a lesson false makes its solution fail in npm test.
import { pathToFileURL } from "node:url";
import type { Case } from "./cases/case.js";
import { listFilesCases } from "./cases/list_files.js";
import { loopCases } from "./cases/loop.js";
import { modelCases } from "./cases/model.js";
import { type Outline, outlineCases } from "./cases/outline.js";
import { type DenyTools, permissionCases } from "./cases/permissions.js";
import { editFileCases, type MakeEditFile } from "./cases/edit_file.js";
import { startApiServer } from "./cases/api-server.js";
import { checkAnswers, type Question } from "./graded/answers.js";
import { firstCaseCases } from "./graded/first-case.js";
import { lesson00 } from "./graded/lesson-00.js";
import { lesson01 } from "./graded/lesson-01.js";
import { lesson03 } from "./graded/lesson-03.js";
import { lesson04 } from "./graded/lesson-04.js";
import { lesson05 } from "./graded/lesson-05.js";
import { lesson06 } from "./graded/lesson-06.js";
import { lesson09 } from "./graded/lesson-09.js";
import { lesson08 } from "./graded/lesson-08.js";
import { lesson14 } from "./graded/lesson-14.js";
import { lesson10 } from "./graded/lesson-10.js";
import { lesson11 } from "./graded/lesson-11.js";
import { lesson12 } from "./graded/lesson-12.js";

export { REPO_ROOT } from "./graded/live.js";
/** A case that takes longer than this fails: a loop that never ends must not hang the check. */
export const CASE_TIMEOUT_MS = 10_000;
/** The lessons in the order the course takes them (lessons/README.md, "The path"): the board lists them so. */
export const COURSE_ORDER = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

export interface Exercise {
  name: string;
  /** "code": a module, compiled and run against cases; "answers": a text file, one answer per question. */
  kind: "code" | "answers";
  /** The lesson that sets it. */
  lesson: number;
  /** What the learner writes, in one line. */
  task: string;
  /** The file the learner edits (their working copy), the file it started as, and one solution (paths relative to the repository root). */
  file: string;
  starter: string;
  solution: string;
  /** How many cases `check` runs. */
  cases: number;
  /** Runs every case against the module at `file` (an absolute path); calls `starting` before each and `report` after. */
  check(file: string, report: Report, starting?: (name: string) => void): Promise<CaseResult[]>;
}

export type Report = (result: CaseResult) => void;

export interface CaseResult {
  name: string;
  hint: string;
  /** Why it failed, or null when it passed. */
  failure: string | null;
}

/** Runs cases in order against one subject; a case that throws or takes too long fails. */
async function runCases<S>(
  cases: Case<S>[],
  subject: S,
  report: Report,
  starting: (name: string) => void = () => {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const testCase of cases) {
    starting(testCase.name);
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

/** An exercise's three files: the learner's working copy in lessons/build/, its starter, its solution. */
function files(name: string): Pick<Exercise, "file" | "starter" | "solution"> {
  return { file: `lessons/build/${name}`, starter: `lessons/starters/${name}`, solution: `lessons/solutions/${name}` };
}

export const exercises: Exercise[] = [
  ...answerExercises(),
  {
    name: "outline",
    kind: "code",
    lesson: 14,
    task: "a fifth tool: outline, the definitions in one file, a plain tool as the core's are",
    ...files("outline.ts"),
    cases: outlineCases.length,
    check: async (file, report, starting) =>
      runCases(outlineCases, await load<Outline>(file, "outline"), report, starting),
  },
  {
    name: "loop",
    kind: "code",
    lesson: 2,
    task: "the agent loop: runTurn, as in src/core/loop.ts",
    ...files("loop.ts"),
    cases: loopCases.length,
    check: async (file, report, starting) => runCases(loopCases, await load(file, "runTurn"), report, starting),
  },
  {
    name: "list_files",
    kind: "code",
    lesson: 7,
    task: "a tool: list_files, as in src/core/list_files.ts",
    ...files("list_files.ts"),
    cases: listFilesCases.length,
    check: async (file, report, starting) => runCases(listFilesCases, await load(file, "listFiles"), report, starting),
  },
  {
    name: "model",
    kind: "code",
    lesson: 7,
    task: "a model adapter: the Messages API over fetch, as src/core/claude.ts does with the SDK",
    ...files("model.ts"),
    cases: modelCases.length,
    check: async (file, report, starting) => {
      const makeModel = await load<typeof import("./solutions/model.js").makeModel>(file, "makeModel");
      const server = await startApiServer();
      try {
        const model = makeModel({ baseURL: server.url, apiKey: "test-key", name: "claude-test" });
        return await runCases(modelCases, { model, server }, report, starting);
      } finally {
        await server.close();
      }
    },
  },
  {
    name: "permissions",
    kind: "code",
    lesson: 12,
    task: "a permission rule: denyTools, a deny list enforced in code",
    ...files("permissions.ts"),
    cases: permissionCases.length,
    check: async (file, report, starting) =>
      runCases(permissionCases, await load<DenyTools>(file, "denyTools"), report, starting),
  },
  {
    name: "edit_file",
    kind: "code",
    lesson: 13,
    task: "a tool that writes: edit_file, an exact string replacement with its diff shown and a confirmation",
    ...files("edit_file.ts"),
    cases: editFileCases.length,
    check: async (file, report, starting) =>
      runCases(editFileCases, await load<MakeEditFile>(file, "makeEditFile"), report, starting),
  },
  {
    name: "first-case",
    kind: "code",
    lesson: 15,
    task: "a test before the code: the outline tool's first case, failing on wrong tools, passing on a finished one",
    ...files("first-case.ts"),
    cases: firstCaseCases.length,
    check: async (file, report, starting) =>
      runCases(firstCaseCases, await load<Case<Outline>>(file, "firstCase"), report, starting),
  },
];

/** The answers lessons (0, 1, 3-6, 8-12 and 14): one answers file each, judged question by question. */
function answerExercises(): Exercise[] {
  const byLesson: [number, Question[]][] = [
    [0, lesson00],
    [1, lesson01],
    [3, lesson03],
    [4, lesson04],
    [5, lesson05],
    [6, lesson06],
    [9, lesson09],
    [8, lesson08],
    [14, lesson14],
    [10, lesson10],
    [11, lesson11],
    [12, lesson12],
  ];
  return byLesson
    .sort(([a], [b]) => a - b)
    .map(([lesson, questions]) => {
      const nn = String(lesson).padStart(2, "0");
      return {
        name: `answers-${nn}`,
        kind: "answers",
        lesson,
        task: `answers to lesson ${lesson}'s questions, one per line`,
        ...files(`answers/${nn}.txt`),
        cases: questions.length,
        check: (file, report, starting) => checkAnswers(questions, file, report, starting),
      };
    });
}
