// Every self-graded exercise is solvable and can fail: its solution passes every case, the file
// a learner starts from does not, and Scout's own code passes the same cases.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exercises } from "../lessons/exercises.js";
import { claudeModel } from "../src/models/claude.js";
import { listFiles } from "../src/tools/list_files.js";
import { startApiServer } from "./api-server.js";
import { listFilesCases } from "./cases/list_files.js";
import { modelCases } from "./cases/model.js";
import { REPO_ROOT } from "./helpers.js";

const failures = async (file: string, exercise: (typeof exercises)[number]) =>
  (await exercise.check(path.join(REPO_ROOT, file), () => {})).filter((r) => r.failure !== null).map((r) => r.name);

describe("each exercise", () => {
  for (const exercise of exercises) {
    it(`${exercise.name}: the solution passes every case`, async () => {
      expect(await failures(exercise.solution, exercise)).toEqual([]);
    });
    it(`${exercise.name}: the file as shipped fails, so the check can fail`, async () => {
      expect((await failures(exercise.file, exercise)).length).toBeGreaterThan(0);
    });
  }
});

// The loop's cases run against src/agent.ts in test/agent.test.ts.
describe("Scout's own code passes the exercises' cases", () => {
  for (const testCase of listFilesCases) it(`list_files: ${testCase.name}`, () => testCase.run(listFiles));

  it("the Claude adapter (through the SDK) passes every model case", async () => {
    const server = await startApiServer();
    process.env.ANTHROPIC_BASE_URL = server.url; // read when the SDK client is first made, below
    process.env.ANTHROPIC_API_KEY = "test-key";
    try {
      const model = claudeModel("claude-test");
      for (const testCase of modelCases) await testCase.run({ model, server });
    } finally {
      await server.close();
    }
  });
});

describe("npm run check", { timeout: 60_000 }, () => {
  // What `npm run check` does (lessons/run.mjs), compiled once into a folder of this test's own.
  let compiled = "";
  beforeAll(() => {
    // Inside the repository, as run.mjs does: the compiled check finds the repository by walking up.
    fs.mkdirSync(path.join(REPO_ROOT, "node_modules/.cache"), { recursive: true });
    compiled = fs.mkdtempSync(path.join(REPO_ROOT, "node_modules/.cache/scout-check-test-"));
    spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "lessons", "--outDir", compiled],
      {
        cwd: REPO_ROOT,
      },
    );
  }, 120_000);
  afterAll(() => fs.rmSync(compiled, { recursive: true, force: true }));
  const check = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(compiled, "lessons/check.js"), ...args], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });

  it("prints PASS or FAIL for each case, with a hint under each FAIL, and exits 1 when one fails", () => {
    const run = check("loop");
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^loop \(lesson 10\): .*; checking lessons\/build\/loop\.ts\n/);
    expect(run.stdout).toContain("PASS  answers a question that needs no tool");
    expect(run.stdout).toMatch(
      /FAIL {2}runs a tool round trip and sends its result back\n[\s\S]*?\n {8}hint: When stop_reason/,
    );
    expect(run.stdout).toMatch(/\n\d+ of 11 pass\. Stuck\? One solution: lessons\/solutions\/loop\.ts\n$/);
  });

  it("checks another file when given one, and exits 0 when every case passes", () => {
    const run = check("model", "lessons/solutions/model.ts");
    expect(run.stdout).toMatch(/checking lessons\/solutions\/model\.ts\n(PASS {2}.*\n){7}7 of 7 pass: done\.\n$/);
    expect(run.status).toBe(0);
  });

  it("runs every exercise of a lesson given its number, and exits 2 for a name it does not know", () => {
    const lesson = check("11");
    expect(lesson.stdout).toMatch(/^list_files \(lesson 11\)[\s\S]*\nmodel \(lesson 11\)/);
    expect(lesson.status).toBe(1);
    expect(check("11", "lessons/solutions/model.ts").status).toBe(2); // one FILE, two exercises: which?
    const unknown = check("nope");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^check: no exercise called "nope"\nUsage: npm run check -- NAME\|LESSON \[FILE\]/);
  });

  it("says plainly when the file does not export what the exercise needs", () => {
    const run = check("loop", "lessons/solutions/model.ts");
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("FAIL  lessons/solutions/model.ts could not be loaded: it does not export runTurn");
  });
});
