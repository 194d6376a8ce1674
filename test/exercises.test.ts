// Every self-graded exercise is solvable and can fail: its solution passes every case, the file
// a learner starts from (lessons/starters/) does not, and Scout's own code passes the same cases.
// The learner's own folder, lessons/build/, is never judged here: it is theirs.
import { execFile, spawn, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exercises } from "../lessons/exercises.js";
import { firstCaseCases } from "../lessons/graded/first-case.js";
import { claudeModel } from "../src/core/claude.js";
import { runTool } from "../src/core/tool.js";
import { listFiles } from "../src/core/list_files.js";
import { fail, type Tool } from "../src/core/tool.js";
import { Workspace } from "../src/core/workspace.js";
import { startApiServer } from "../lessons/cases/api-server.js";
import { type Case, withTree } from "../lessons/cases/case.js";
import { listFilesCases } from "../lessons/cases/list_files.js";
import { modelCases } from "../lessons/cases/model.js";
import type { Outline } from "../lessons/cases/outline.js";
import { type DenyTools, permissionCases } from "../lessons/cases/permissions.js";
import { loopCases, type RunTurn } from "../lessons/cases/loop.js";
import { outlineCases } from "../lessons/cases/outline.js";
import { outline as solutionOutline } from "../lessons/solutions/outline.js";
import { runTurn } from "../src/core/loop.js";
import { atMostAtOnce, makeTree, REPO_ROOT, withEnv } from "./helpers.js";

/** The lesson an exercise belongs to, by its name: the tests name exercises, not lesson numbers. */
const lessonOf = (name: string) => exercises.find((e) => e.name === name)!.lesson;
const failures = async (file: string, exercise: (typeof exercises)[number]) =>
  (await exercise.check(path.join(REPO_ROOT, file), () => {})).filter((r) => r.failure !== null).map((r) => r.name);

// The cases that run in this process, one after another, side by side with the checks below (concurrent suites at
// the top level run at once): the checks' children work while these wait, and the reverse.
describe("in this process", { concurrent: true }, () => {
  describe.sequential("each exercise", { timeout: 60_000 }, () => {
    for (const exercise of exercises) {
      it(`${exercise.name}: the solution passes every case`, async () => {
        expect(await failures(exercise.solution, exercise)).toEqual([]);
      });
      it(`${exercise.name}: the file as shipped fails, so the check can fail`, async () => {
        expect((await failures(exercise.starter, exercise)).length).toBeGreaterThan(0);
      });
    }
  });

  describe.sequential("the course's exercises", () => {
    it("the course imports nothing from test/: the cases and the stand-in API it shares with npm test are in lessons/cases/", () => {
      const lessons = path.join(REPO_ROOT, "lessons");
      const sources = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const abs = path.join(dir, entry.name);
          if (entry.isDirectory()) return ["build", "sample-project"].includes(entry.name) ? [] : sources(abs);
          return /\.(ts|mjs)$/.test(entry.name) ? [abs] : [];
        });
      const fromTest = sources(lessons).flatMap((file) =>
        [...fs.readFileSync(file, "utf8").matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)]
          .filter((m) => path.resolve(path.dirname(file), m[1]).startsWith(path.join(REPO_ROOT, "test") + path.sep))
          .map((m) => `${path.relative(REPO_ROOT, file)}: ${m[1]}`),
      );
      expect(sources(lessons).length).toBeGreaterThan(20);
      expect(fromTest).toEqual([]);
    });

    it("every lesson but the appendix (15) has exercises npm run check grades, and says how to run them", () => {
      const lessons = [...new Set(exercises.map((e) => e.lesson))].sort((a, b) => a - b);
      expect(lessons).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
      const lessonFiles = fs.readdirSync(path.join(REPO_ROOT, "lessons")).filter((f) => /^\d\d-.*\.md$/.test(f));
      for (const lesson of lessons) {
        const file = lessonFiles.find((f) => Number(f.slice(0, 2)) === lesson) ?? "";
        const markdown = fs.readFileSync(path.join(REPO_ROOT, "lessons", file), "utf8").replace(/\s+/g, " ");
        const commands = [
          String(lesson).padStart(2, "0"),
          String(lesson),
          ...exercises.filter((e) => e.lesson === lesson).map((e) => e.name),
        ];
        expect(
          commands.some((name) => markdown.includes(`npm run check -- ${name}`)),
          `${file} names the check of its exercises`,
        ).toBe(true);
      }
    });
  });

  describe.sequential("the answer exercises of the answers lessons (0, 1, 3-6, 8-12 and 14)", {
    timeout: 60_000,
  }, () => {
    const answers = exercises.filter((e) => e.kind === "answers");
    const questionsOf = async (exercise: (typeof exercises)[number]) =>
      (await exercise.check(path.join(REPO_ROOT, exercise.starter), () => {})).map((r) => r.name);

    it("every answers lesson (0, 1, 3-6, 8-12 and 14) has one answers file and 2-5 graded exercises (its questions, plus any code exercise)", async () => {
      expect(answers.map((e) => e.lesson)).toEqual([0, 1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 14]);
      for (const exercise of answers) {
        const code = exercises.filter((e) => e.kind === "code" && e.lesson === exercise.lesson).length;
        const graded = (await questionsOf(exercise)).length + code;
        expect(graded, `lesson ${exercise.lesson}`).toBeGreaterThanOrEqual(2);
        expect(graded, `lesson ${exercise.lesson}`).toBeLessThanOrEqual(5);
      }
    });

    it("the blank file and the solution ask exactly the questions the check judges, in order", async () => {
      for (const exercise of answers) {
        const asked = (await questionsOf(exercise)).map((name) =>
          name.replace(/^(\d+)\. (.)/, (_, n, c) => `${n}. ${c.toUpperCase()}`),
        );
        for (const file of [exercise.starter, exercise.solution]) {
          const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
          expect(
            text.match(/^# \d+\. .*$/gm)?.map((line) => line.slice(2)),
            file,
          ).toEqual(asked);
          // Numbered as the lesson numbers its exercises (lesson 14's exercise 1 is code, so its questions are 2 and 3).
          expect(text.match(/^\d+:/gm), file).toEqual(asked.map((name) => `${name.split(".")[0]}:`));
        }
      }
    });
  });

  describe.sequential("the judges of lessons 11, 12 and 15 reject wrong work, not only missing work", {
    timeout: 60_000,
  }, () => {
    /** The names of the questions that FAIL with `answers` (one per line, "N: text") written in a scratch file. */
    async function failing(name: string, answers: string): Promise<string[]> {
      const exercise = exercises.find((e) => e.name === name);
      const dir = makeTree({ "answers.txt": answers }, "scout-wrong-answers-");
      const results = await exercise!.check(path.join(dir, "answers.txt"), () => {});
      return results.filter((r) => r.failure !== null).map((r) => r.name.split(".")[0]);
    }

    it("lesson 11: a question the offline model gets right, an answer that says it is defined, a pattern that misses a file", async () => {
      const rightQuestion = JSON.stringify({
        id: "apierror",
        question: "Where is APIError defined?",
        expect: { locations: ["core/error.ts:/^export class APIError</"] },
      });
      const wrong = `1: ${rightQuestion}\n2: APIError is defined at core/error.ts:15\n3: test_slugs[\\s\\S]*test_api\n`;
      expect(await failing("answers-11", wrong)).toEqual(["1", "2", "3"]);
    });

    it("lesson 12: one tool call instead of two, a share far from the measured one, a replay's flag misread", async () => {
      const one = JSON.stringify([
        { type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "def make_slug" } },
      ]);
      expect(await failing("answers-12", `1: ${one}\n2: 50\n4: read_file 4\n`)).toEqual(["1", "2", "4"]);
      expect(await failing("answers-12", "4: grep 4\n")).toContain("4"); // the right tool at the wrong step
    });
  });

  describe.sequential("the code exercises of lessons 12 and 15 catch half-done work", () => {
    /** The cases that fail when run against `subject`. */
    async function failingCases<S>(cases: Case<S>[], subject: S): Promise<string[]> {
      const failed: string[] = [];
      for (const testCase of cases) await testCase.run(subject).catch(() => failed.push(testCase.name));
      return failed;
    }
    const refuse = (tool: Tool): Tool => ({ ...tool, run: async () => fail(`${tool.name} is denied`) });

    it("permissions: a deny list matched inside a string, or one that drops the description, fails a case", async () => {
      const bySubstring: DenyTools = (set, denied) =>
        set.map((t) => (denied.join(",").includes(t.name) ? refuse(t) : t));
      expect(await failingCases(permissionCases, bySubstring)).toEqual([
        expect.stringMatching(/^names are matched exactly/),
      ]);
      const blank: DenyTools = (set, denied) =>
        set.map((t) => (denied.includes(t.name) ? { ...refuse(t), description: "" } : t));
      expect(await failingCases(permissionCases, blank)).toEqual([
        expect.stringMatching(/^the model still sees every tool/),
      ]);
    });

    it("first-case: a case that only checks the answer is not empty fails the check", async () => {
      const weak: Case<Outline> = {
        name: "outline says something",
        hint: "look at the result",
        run: async (tool) => {
          const result = await withTree({ "a.py": "def f():\n    pass\n" }, (root) =>
            runTool(tool.name, { path: "a.py" }, { workspace: new Workspace(root) }, [tool]),
          );
          if (result.content === "") throw new Error("empty");
        },
      };
      expect(await failingCases(firstCaseCases, weak)).toEqual([
        "fails against an outline tool that shows every line of the file, numbered",
        "fails against an outline tool that shows the definitions without their line numbers",
        "fails against an outline tool that numbers each definition one line too low (counting from 0)",
        "fails against an outline tool that numbers the definitions 1, 2, 3 in order, not by their line",
        "fails against an outline tool that refuses every file",
      ]);
    });

    it("first-case: a case that checks the LINE: TEXT format but not the line number fails the check", async () => {
      const formatOnly: Case<Outline> = {
        name: "outline shows def main as LINE: TEXT",
        hint: "one definition, numbered",
        run: async (tool) => {
          const result = await withTree({ "a.py": "import os\n\ndef main():\n    pass\n" }, (root) =>
            runTool(tool.name, { path: "a.py" }, { workspace: new Workspace(root) }, [tool]),
          );
          if (!/^\d+: def main\(\):$/.test(result.content)) throw new Error(`not LINE: TEXT: ${result.content}`);
        },
      };
      expect(await failingCases(firstCaseCases, formatOnly)).toEqual([
        "fails against an outline tool that numbers each definition one line too low (counting from 0)",
        "fails against an outline tool that numbers the definitions 1, 2, 3 in order, not by their line",
      ]);
    });

    it("permissions: a rule that denies only the first tool on its list fails a case", async () => {
      const firstOnly: DenyTools = (set, denied) => set.map((t) => (t.name === denied[0] ? refuse(t) : t));
      expect(await failingCases(permissionCases, firstOnly)).toEqual([
        "every tool on the list is denied, wherever it stands on the list",
      ]);
    });

    it("loop: a loop hard-coded to two passes, ignoring maxSteps, fails the step-cap case", async () => {
      const twoPasses: RunTurn = (question, history, options) =>
        runTurn(question, history, { ...options, maxSteps: 2 });
      expect(await failingCases(loopCases, twoPasses)).toEqual([
        "stops at the step cap (1, 2 or 3 calls) with lesson 1's message and a valid history",
      ]);
    });

    it("list_files: ignore rules asked about bare names, or only .env and build hidden, fail; other footer wording passes", async () => {
      /** Scout's list_files, with the workspace's isVisible replaced by `visible`. */
      const withVisibility = (visible: (workspace: Workspace, rel: string, isDir: boolean) => boolean): Tool => ({
        ...listFiles,
        run: (args, context) => {
          const workspace = Object.create(context.workspace) as Workspace;
          workspace.isVisible = (rel: string, isDir = false) => visible(context.workspace, rel, isDir);
          return listFiles.run(args, { ...context, workspace });
        },
      });
      const bareNames = withVisibility((w, rel, isDir) => w.isVisible(path.posix.basename(rel), isDir));
      const onlyEnvAndBuild = withVisibility((_, rel) => ![".env", "build"].includes(path.posix.basename(rel)));
      const subfolderCase = "applies ignore rules to the path from the workspace root, in subfolders too";
      expect(await failingCases(listFilesCases, bareNames)).toEqual([subfolderCase]);
      expect(await failingCases(listFilesCases, onlyEnvAndBuild)).toEqual([subfolderCase]);
      const otherWords: Tool = {
        ...listFiles,
        run: async (args, context) => {
          const result = await listFiles.run(args, context);
          const content = result.content
            .replace(
              /^\((\d+) entries hidden by ignore rules or protection\)$/m,
              "($1 not shown: ignored or protected)",
            )
            .replace(/^\((.*) has no visible entries\)$/m, "(nothing to show in $1)")
            .replace(/^\(showing (\d+) of (\d+) entries, .*\)$/m, "($1 shown, $2 in all: glob finds the rest)");
          return { ...result, content };
        },
      };
      expect(await failingCases(listFilesCases, otherWords)).toEqual([]);
    });

    it("outline: a tool that also lists constants, as lesson 15 describes, passes every case", async () => {
      const withConstants: Outline = {
        ...solutionOutline,
        run: async (args, context) => {
          const result = await solutionOutline.run(args, context);
          if (args.path !== "app.ts" || result.isError) return result;
          const lines = result.content.split("\n");
          return { ...result, content: [...lines, "5: const n = 1;"].join("\n") };
        },
      };
      expect(await failingCases(outlineCases, withConstants)).toEqual([]);
    });
  });

  describe.sequential("the answer judges of lessons 3, 4 and 14 take a right answer in any right form, and only a right one", {
    timeout: 60_000,
  }, () => {
    async function failing(name: string, answers: string): Promise<string[]> {
      const exercise = exercises.find((e) => e.name === name);
      const dir = makeTree({ "answers.txt": answers }, "scout-judged-answers-");
      try {
        const results = await exercise!.check(path.join(dir, "answers.txt"), () => {});
        return results.filter((r) => r.failure !== null).map((r) => r.name.split(".")[0]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    const solution = (name: string) =>
      fs.readFileSync(path.join(REPO_ROOT, exercises.find((e) => e.name === name)!.solution), "utf8");

    it("a number question refuses an answer that hedges between two numbers", async () => {
      const right = /^1: (\d+)/m.exec(solution("answers-03"))![1];
      expect(
        await failing(
          "answers-03",
          solution("answers-03").replace(/^1: .*$/m, `1: ${right} (or ${Number(right) + 1})`),
        ),
      ).toEqual(["1"]);
    });

    it("lesson 3, question 3: make_slug's body exactly (a limit) passes, and so does reading on to the end; one line short fails", async () => {
      const withThree = (input: string) => solution("answers-03").replace(/^3: .*$/m, `3: ${input}`);
      expect(await failing("answers-03", withThree('{"path":"src/shortly/slugs.py","offset":13,"limit":5}'))).toEqual(
        [],
      );
      expect(await failing("answers-03", withThree('{"path":"src/shortly/slugs.py","offset":13}'))).toEqual([]);
      expect(await failing("answers-03", withThree('{"path":"src/shortly/slugs.py","offset":13,"limit":4}'))).toEqual([
        "3",
      ]);
      expect(await failing("answers-03", withThree('{"path":"src/shortly/slugs.py","offset":12}'))).toEqual(["3"]);
    });

    it("lesson 4, question 1: a pattern that is not about TypeScript files fails, though web/ holds only one today", async () => {
      const withOne = (input: string) => solution("answers-04").replace(/^1: .*$/m, `1: ${input}`);
      expect(await failing("answers-04", withOne('{"pattern":"**/*","path":"web"}'))).toEqual(["1"]);
      expect(await failing("answers-04", withOne('{"pattern":"src/*.ts","path":"web"}'))).toEqual(["1"]);
      expect(await failing("answers-04", withOne('{"pattern":"**/*.ts","path":"web"}'))).toEqual([]);
    });

    it("lesson 14: the answers are numbered as the lesson numbers its exercises (2 and 3)", async () => {
      expect(
        await failing(
          "answers-14",
          "2: src/core/claude.ts src/core/loop.ts src/guards/message-events.ts\n3: list_files\n",
        ),
      ).toEqual([]);
    });
  });

  describe.sequential("the bridge lesson's edit_file", () => {
    it("is never one of Scout's own tools, which only read", async () => {
      const { tools } = await import("../src/core/scout.js");
      const { toolNames } = await import("../src/core/tool.js");
      expect(tools.map((t) => t.name)).toEqual(["read_file", "list_files", "glob", "grep"]);
      expect(toolNames(tools)).not.toContain("edit_file");
    });
  });

  // The loop's cases run against src/agent.ts in test/agent.test.ts.
  describe.sequential("Scout's own code passes the exercises' cases", () => {
    for (const testCase of listFilesCases) it(`list_files: ${testCase.name}`, () => testCase.run(listFiles));

    it("the Claude adapter (through the SDK) passes every model case", async () => {
      const server = await startApiServer();
      // Read when the SDK client is first made, below; put back after, since checks started beside this test
      // inherit process.env.
      try {
        await withEnv({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "test-key" }, async () => {
          const model = claudeModel("claude-test");
          for (const testCase of modelCases) await testCase.run({ model, server });
        });
      } finally {
        await server.close();
      }
    });
  });
});

/** What a finished `node lessons/run.mjs check …` left: as spawnSync returns it, but waited for without blocking. */
interface CheckRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Checks running at once: three, as many as the hostile case starts first (one of them only waits out its
 * deadline), so two cores stay busy and a check that fills its heap is not starved past the check's deadline.
 */
const MAX_CHECKS_AT_ONCE = 3;
const inTurn = atMostAtOnce(MAX_CHECKS_AT_ONCE);

/**
 * Runs `node lessons/run.mjs check ARGS` in `cwd`, as the learner's `npm run check -- ARGS` does, and waits for it
 * to end without blocking this process (spawnSync would): the tests that call it run side by side, each waiting on
 * its own child. Killed, with its children, after 60 s.
 */
function runCheck(args: string[], cwd = REPO_ROOT): Promise<CheckRun> {
  return inTurn(() => startCheck(args, cwd));
}

function startCheck(args: string[], cwd: string): Promise<CheckRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(cwd, "lessons/run.mjs"), "check", ...args], {
      cwd,
      detached: true, // its own process group, so the kill below reaches the check's child too
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

// Concurrent: each case waits on its own check, so the hostile case's deadline (12 s of waiting, no CPU) passes
// while the others, and the cases in this process above, run, instead of after them.
describe("npm run check", { timeout: 60_000, concurrent: true }, () => {
  // What the learner types: npm runs lessons/run.mjs, which runs lessons/check.ts with the TypeScript hooks.
  const check = (...args: string[]) => runCheck(args);

  // First, so its deadline starts at once.
  it("stops a loop that never yields, a loop that fills the heap, and a module that exits on import: each a FAIL", async () => {
    const dir = makeTree(
      {
        // Never gives the event loop back, as `for (;;) {}` does, but blocks in Atomics.wait instead of burning a core
        // for the whole deadline (12 s of CPU that every other test on the machine waited for).
        "spin.ts":
          "export async function runTurn(): Promise<never> {\n  const blocked = new Int32Array(new SharedArrayBuffer(4));\n  for (;;) Atomics.wait(blocked, 0, 0, 1_000);\n}\n",
        "grow.ts":
          "export async function runTurn(): Promise<never> {\n  const kept: number[][] = [];\n  for (;;) kept.push(new Array(100_000).fill(1));\n}\n",
        "quit.ts": "process.exit(0);\nexport async function runTurn() {}\n",
      },
      "scout-hostile-check-",
    );
    try {
      // All three at once: the spin waits out its deadline while the heap fills and the module quits.
      const [spin, grow, quit] = await Promise.all(
        ["spin.ts", "grow.ts", "quit.ts"].map((name) => check("loop", path.join(dir, name))),
      );
      expect(spin.status).toBe(1);
      expect(spin.stdout).toMatch(
        /FAIL {2}answers a question that needs no tool.*\n {8}no result after \d+ s, and the code never gave the event loop back/,
      );
      expect(spin.stdout).toMatch(/\(11 more cases not run: the check was stopped\)\n0 of 12 pass\./);
      expect(grow.status).toBe(1);
      expect(grow.stdout).toMatch(/\n {8}the process ran out of memory \(its heap limit is \d+ MB\)/);
      expect(grow.stdout).toMatch(/\n0 of 12 pass\./);
      expect(quit.status).toBe(1);
      expect(quit.stdout).toContain(
        "could not be loaded: your code ended the check's process early, with exit status 0",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it("prints PASS or FAIL for each case, with a hint under each FAIL, and exits 1 when one fails", async () => {
    const run = await check("loop", "lessons/starters/loop.ts");
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^loop \(lesson 2\): .*; checking lessons\/starters\/loop\.ts\n/);
    expect(run.stdout).toContain("PASS  answers a question that needs no tool");
    expect(run.stdout).toMatch(
      /FAIL {2}runs a tool round trip and sends its result back\n[\s\S]*?\n {8}hint: When stop_reason/,
    );
    expect(run.stdout).toMatch(
      /\n\d+ of \d+ pass\. Stuck\? Each hint says where to look; npm run check -- --solution loop\n$/,
    );
    expect(run.stdout, "the solution is named once the file passes, or when asked").not.toContain("solutions/");
  });

  it("checks another file when given one, and exits 0 when every case passes", async () => {
    const run = await check("model", "lessons/solutions/model.ts");
    expect(run.stdout).toMatch(/checking lessons\/solutions\/model\.ts\n(PASS {2}.*\n){7}7 of 7 pass: done\.\n$/);
    expect(run.status).toBe(0);
  });

  it("runs every exercise of a lesson given its number, and exits 2 for a name it does not know", async () => {
    const lesson = await check(String(lessonOf("model"))); // the learner's working copies, whatever state they are in
    expect(lesson.stdout).toMatch(/^list_files \(lesson 7\)[\s\S]*\nmodel \(lesson 7\)/);
    expect((await check(String(lessonOf("model")), "lessons/solutions/model.ts")).status).toBe(2); // one FILE, two exercises: which?
    const unknown = await check("nope");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /^check: no exercise called "nope"\nUsage: npm run check \[-- \[--watch\] NAME\|LESSON \[FILE\]/,
    );
  });

  it("judges an answers file line by line: PASS, or FAIL with what is wrong and a hint, never the right answer", async () => {
    const dir = makeTree({ "00.txt": "# my answers\n1: grep\n2. `list_files`\n5: three\n" }, "scout-answers-test-");
    const file = path.join(dir, "00.txt");
    const run = await check("0", file);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^answers-00 \(lesson 0\): .*; checking .*00\.txt\n/);
    expect(run.stdout).toMatch(
      /\nFAIL {2}1\. ask "which python files are there\?".*\n {8}"grep" is not it\n {8}hint: /,
    );
    expect(run.stdout).toMatch(/\nPASS {2}2\. and for "what is in the web folder\?"/);
    expect(run.stdout).toMatch(/\nFAIL {2}3\. .*\n {8}no answer yet: write it after "3:"\n/);
    expect(run.stdout).toMatch(/\nFAIL {2}5\. .*\n {8}"three" holds no number\n/);
    expect(run.stdout).toMatch(/\n1 of 5 pass\. Stuck\? .*--solution answers-00\n$/);
    fs.writeFileSync(file, `1: ${"x".repeat(200_000)}\n`); // refused unread: bounded memory
    const big = await check("answers-00", file);
    expect(big.status).toBe(1);
    expect(big.stdout).toContain("could not be loaded: ");
    expect(big.stdout).toContain("over 100000 bytes; not read");
  });

  it("given a lesson with an answers file and a code exercise, checks a FILE against the one of its kind", async () => {
    const answers = await check(String(lessonOf("outline")).padStart(2, "0"), "lessons/solutions/answers/14.txt");
    expect(answers.stdout).toMatch(/^answers-14 \(lesson 14\)[\s\S]*\n2 of 2 pass: done\.\n$/);
    expect(answers.status).toBe(0);
    const code = await check(String(lessonOf("outline")), "lessons/solutions/outline.ts");
    expect(code.stdout).toMatch(/^outline \(lesson 14\)[\s\S]*\n(\d+) of \1 pass: done\.\n$/);
    expect(code.status).toBe(0);
  });

  it("says plainly when the file does not export what the exercise needs", async () => {
    const run = await check("loop", "lessons/solutions/model.ts");
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("FAIL  lessons/solutions/model.ts could not be loaded: it does not export runTurn");
  });

  it("refuses an answers file that is a FIFO or a link to /dev/zero, at once, without reading it", async () => {
    const dir = makeTree({}, "scout-answers-special-");
    try {
      spawnSync("mkfifo", [path.join(dir, "fifo.txt")]);
      fs.symlinkSync("/dev/zero", path.join(dir, "zero.txt"));
      for (const name of ["fifo.txt", "zero.txt"]) {
        const run = await check("answers-00", path.join(dir, name));
        expect(run.status, name).toBe(1);
        expect(run.stdout, name).toMatch(/could not be loaded: .*(a named pipe \(FIFO\)|a device), not a regular file/);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the solution when asked", async () => {
    const run = await check("--solution", "list_files");
    expect(run.stdout).toBe(
      "One solution to list_files: lessons/solutions/list_files.ts (compare it with yours: there are others)\n",
    );
    expect(run.status).toBe(0);
  });
});

describe("the lessons' TypeScript hooks", { concurrent: true }, () => {
  it("compile a file once for all its copies: the cache is keyed on its name and content, not its folder", async () => {
    // The check's own tests run copies of the repository; each copy compiled everything again, loading TypeScript
    // in every child, and under load a child took longer than the check's 15 s to load.
    const marker = `compiled-once-${process.pid}-${Date.now()}`;
    const source = `export const marker: string = "${marker}";\n`;
    const hooks = path.join(REPO_ROOT, "lessons", "typescript-hooks.mjs");
    for (const dir of [makeTree({ "same.ts": source }), makeTree({ "same.ts": source })]) {
      // Rejects, with node's message, unless it exits with status 0.
      await promisify(execFile)(process.execPath, ["--import", hooks, path.join(dir, "same.ts")]);
    }
    const cache = path.join(REPO_ROOT, "node_modules", ".cache", "scout-ts");
    const holding = fs
      .readdirSync(cache)
      .filter((name) => name.endsWith(".js") && fs.readFileSync(path.join(cache, name), "utf8").includes(marker));
    for (const name of holding) fs.rmSync(path.join(cache, name));
    expect(holding).toHaveLength(1);
  });
});

// Concurrent, as "npm run check" above: each case waits on checks in its own copy.
describe("npm run check's board and watch mode, on a copy of the repository's lessons", {
  timeout: 120_000,
  concurrent: true,
}, () => {
  /**
   * A scratch repository: lessons/ (its cases included) and what it imports, src/; node_modules and dist linked.
   * With `ownCache`, node_modules is a folder of links to the real packages, so its cache of compiled files is empty.
   */
  function scratchRepo({ ownCache = false } = {}): string {
    const root = makeTree({ "package.json": '{"name":"scout","type":"module"}\n' }, "scout-board-");
    for (const dir of ["src", "lessons"])
      fs.cpSync(path.join(REPO_ROOT, dir), path.join(root, dir), {
        recursive: true,
        preserveTimestamps: true, // the sample project's order of results depends on them
        verbatimSymlinks: true,
        filter: (source) => source !== path.join(REPO_ROOT, "lessons/build"),
      });
    if (ownCache) {
      fs.mkdirSync(path.join(root, "node_modules"));
      for (const name of fs.readdirSync(path.join(REPO_ROOT, "node_modules")).filter((name) => name !== ".cache"))
        fs.symlinkSync(path.join(REPO_ROOT, "node_modules", name), path.join(root, "node_modules", name));
    } else fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
    fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"));
    return root;
  }

  it("npm install's warm-up compiles what the checks import: a first check after it compiles nothing", async () => {
    const root = scratchRepo({ ownCache: true });
    try {
      const cache = path.join(root, "node_modules", ".cache", "scout-ts");
      await promisify(execFile)(process.execPath, [path.join(root, "lessons", "warm-checks.mjs")], { cwd: root });
      const warmed = fs.readdirSync(cache).sort();
      fs.copyFileSync(path.join(root, "lessons/solutions/answers/00.txt"), path.join(root, "answers-00.txt"));
      const answers = await runCheck(["answers-00", path.join(root, "answers-00.txt")], root);
      expect(answers.stdout).toMatch(/\n5 of 5 pass: done\./);
      const loop = await runCheck(["loop", path.join(root, "lessons/solutions/loop.ts")], root);
      expect(loop.stdout).toMatch(/\n(\d+) of \1 pass: done\.\n$/);
      // The learner's file is compiled when it is checked (the solution here, like a working copy): nothing else is.
      const added = fs.readdirSync(cache).filter((name) => !warmed.includes(name));
      expect(added.length, `compiled by the checks: ${added.length} files`).toBeLessThanOrEqual(1);
      expect(warmed.length).toBeGreaterThan(50);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("with no argument, shows every exercise as not started, PASS or FAIL, lesson by lesson, and the next to do", async () => {
    const root = scratchRepo();
    try {
      const board = () => runCheck([], root);
      const fresh = await board();
      expect(fresh.stdout).toMatch(
        /^lesson 0\n {2}not started {7}answers-00\nlesson 1\n {2}not started {7}answers-01\nlesson \d+\n {2}not started {7}loop\n/,
      );
      expect(fresh.stdout).toMatch(/\nNext: answers-00 \(lesson 0\): .*Run: npm run check -- answers-00\n$/);
      expect(fresh.status).toBe(1);
      fs.copyFileSync(
        path.join(root, "lessons/solutions/answers/00.txt"),
        path.join(root, "lessons/build/answers/00.txt"),
      );
      fs.writeFileSync(path.join(root, "lessons/build/loop.ts"), "export async function runTurn() {}\n");
      const later = await board();
      expect(later.stdout).toMatch(/^lesson 0\n {2}PASS {14}answers-00\n/);
      expect(later.stdout).toMatch(/\nlesson \d+\n {2}FAIL {2}\(0 of 12\) {3}loop\n/);
      expect(later.stdout).toMatch(/\nNext: answers-01 \(lesson 1\)/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("--watch NAME checks again each time the file is saved", async () => {
    const root = scratchRepo();
    const child = spawn(process.execPath, [path.join(root, "lessons/run.mjs"), "check", "--watch", "permissions"], {
      cwd: root,
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    const waitFor = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const poll = setInterval(() => {
          if (pattern.test(output)) {
            clearInterval(poll);
            resolve();
          }
        }, 50);
        child.on("exit", () => reject(new Error(`ended before ${pattern}: ${output}`)));
      });
    try {
      await waitFor(/pass\. Stuck[^\n]*\nwatching lessons\/build\/permissions\.ts/);
      fs.copyFileSync(
        path.join(root, "lessons/solutions/permissions.ts"),
        path.join(root, "lessons/build/permissions.ts"),
      );
      await waitFor(/pass: done\.[^\n]*\nwatching/);
    } finally {
      process.kill(-child.pid!, "SIGKILL");
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
