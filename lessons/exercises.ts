// The self-graded exercises: for each, the file a learner edits, its solution, and the shared
// cases it must pass; lessons/check.ts runs them, test/exercises.test.ts proves each solvable.
//
// An exercise's cases are the very ones Scout's own code passes in npm test
// (test/cases/), so "PASS" means "as good as Scout's own, by Scout's tests".
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Case } from "../test/cases/case.js";
import { listFilesCases } from "../test/cases/list_files.js";
import { loopCases } from "../test/cases/loop.js";
import { modelCases } from "../test/cases/model.js";
import { startApiServer } from "../test/api-server.js";

/** The repository: the nearest folder above this file with a package.json (this file also runs compiled, from node_modules/.cache). */
export const REPO_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();
/** Where tsc put this file's compiled twin when it runs compiled (lessons/run.mjs), or null when it runs as .ts. */
export const COMPILED_ROOT = (() => {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith(".js") ? path.dirname(path.dirname(here)) : null;
})(); /** A case that takes longer than this fails: a loop that never ends must not hang the check. */
export const CASE_TIMEOUT_MS = 10_000;

export interface Exercise {
  name: string;
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
  {
    name: "loop",
    lesson: 10,
    task: "the agent loop: runTurn, as in src/agent.ts",
    file: "lessons/build/loop.ts",
    solution: "lessons/solutions/loop.ts",
    check: async (file, report) => runCases(loopCases, await load(file, "runTurn"), report),
  },
  {
    name: "list_files",
    lesson: 11,
    task: "a tool: list_files, as in src/tools/list_files.ts",
    file: "lessons/build/list_files.ts",
    solution: "lessons/solutions/list_files.ts",
    check: async (file, report) => runCases(listFilesCases, await load(file, "listFiles"), report),
  },
  {
    name: "model",
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
];
