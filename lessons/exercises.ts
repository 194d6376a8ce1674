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
import type { Outline } from "./cases/outline.js";
import type { DenyTools } from "./cases/permissions.js";
import type { MakeEditFile } from "./cases/edit_file.js";
import type { Question } from "./graded/answers.js";

export { REPO_ROOT } from "./graded/repo.js";
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
  caseCount(): Promise<number>;
  /**
   * Runs every case against the module at `file` (an absolute path); calls `starting` before each and `report` after.
   * The cases (and Scout's code they import) load only here and in caseCount: the board, a usage message and the
   * check's own process, which only supervises, load none of them. `ownCodeLoaded` is called once they have
   * loaded, and awaited before the learner's file is imported: the check times the learner's import on its own.
   */
  check(
    file: string,
    report: Report,
    starting?: (name: string) => void,
    ownCodeLoaded?: () => Promise<void>,
  ): Promise<CaseResult[]>;
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

/**
 * A code exercise: its `cases` run against the module at the learner's file, as `subject` makes it of that module.
 * `cases` is an import, so it loads only when the exercise is checked.
 */
function codeExercise<S>(
  about: Omit<Exercise, "kind" | "caseCount" | "check">,
  cases: () => Promise<Case<S>[]>,
  subject: (file: string) => Promise<S>,
): Exercise {
  return {
    ...about,
    kind: "code",
    caseCount: async () => (await cases()).length,
    check: async (file, report, starting, ownCodeLoaded) => {
      const loaded = await cases();
      await ownCodeLoaded?.();
      return runCases(loaded, await subject(file), report, starting);
    },
  };
}

export const exercises: Exercise[] = [
  ...answerExercises(),
  codeExercise(
    {
      name: "outline",
      lesson: 14,
      task: "a fifth tool: outline, the definitions in one file, a plain tool as the core's are",
      ...files("outline.ts"),
    },
    async () => (await import("./cases/outline.js")).outlineCases,
    (file) => load<Outline>(file, "outline"),
  ),
  codeExercise(
    { name: "loop", lesson: 2, task: "the agent loop: runTurn, as in src/core/loop.ts", ...files("loop.ts") },
    async () => (await import("./cases/loop.js")).loopCases,
    (file) => load(file, "runTurn"),
  ),
  codeExercise(
    {
      name: "list_files",
      lesson: 7,
      task: "a tool: list_files, as in src/core/list_files.ts",
      ...files("list_files.ts"),
    },
    async () => (await import("./cases/list_files.js")).listFilesCases,
    (file) => load(file, "listFiles"),
  ),
  {
    name: "model",
    kind: "code",
    lesson: 7,
    task: "a model adapter: the Messages API over fetch, as src/core/claude.ts does with the SDK",
    ...files("model.ts"),
    caseCount: async () => (await import("./cases/model.js")).modelCases.length,
    check: async (file, report, starting, ownCodeLoaded) => {
      const [{ modelCases }, { startApiServer }] = await Promise.all([
        import("./cases/model.js"),
        import("./cases/api-server.js"),
      ]);
      await ownCodeLoaded?.();
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
  codeExercise(
    {
      name: "permissions",
      lesson: 12,
      task: "a permission rule: denyTools, a deny list enforced in code",
      ...files("permissions.ts"),
    },
    async () => (await import("./cases/permissions.js")).permissionCases,
    (file) => load<DenyTools>(file, "denyTools"),
  ),
  codeExercise(
    {
      name: "edit_file",
      lesson: 13,
      task: "a tool that writes: edit_file, an exact string replacement with its diff shown and a confirmation",
      ...files("edit_file.ts"),
    },
    async () => (await import("./cases/edit_file.js")).editFileCases,
    (file) => load<MakeEditFile>(file, "makeEditFile"),
  ),
  codeExercise(
    {
      name: "first-case",
      lesson: 15,
      task: "a test before the code: the outline tool's first case, failing on wrong tools, passing on a finished one",
      ...files("first-case.ts"),
    },
    async () => (await import("./graded/first-case.js")).firstCaseCases,
    (file) => load<Case<Outline>>(file, "firstCase"),
  ),
];

/** The answers lessons (0, 1, 3-6, 8-12 and 14): one answers file each, judged question by question. */
function answerExercises(): Exercise[] {
  // Imports, so a lesson's questions (and the Scout code their judges run) load only when its check runs.
  const byLesson: [number, () => Promise<Question[]>][] = [
    [0, async () => (await import("./graded/lesson-00.js")).lesson00],
    [1, async () => (await import("./graded/lesson-01.js")).lesson01],
    [3, async () => (await import("./graded/lesson-03.js")).lesson03],
    [4, async () => (await import("./graded/lesson-04.js")).lesson04],
    [5, async () => (await import("./graded/lesson-05.js")).lesson05],
    [6, async () => (await import("./graded/lesson-06.js")).lesson06],
    [9, async () => (await import("./graded/lesson-09.js")).lesson09],
    [8, async () => (await import("./graded/lesson-08.js")).lesson08],
    [14, async () => (await import("./graded/lesson-14.js")).lesson14],
    [10, async () => (await import("./graded/lesson-10.js")).lesson10],
    [11, async () => (await import("./graded/lesson-11.js")).lesson11],
    [12, async () => (await import("./graded/lesson-12.js")).lesson12],
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
        caseCount: async () => (await questions()).length,
        check: async (file, report, starting, ownCodeLoaded) => {
          const { checkAnswers } = await import("./graded/answers.js");
          const loaded = await questions();
          await ownCodeLoaded?.();
          return checkAnswers(loaded, file, report, starting);
        },
      };
    });
}
