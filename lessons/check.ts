// `npm run check -- NAME|LESSON [FILE]`: runs an exercise's cases against your file and prints PASS or FAIL for each.
//
// NAME is an exercise (answers-00 … answers-13, outline, loop, list_files,
// model, permissions, first-case) and LESSON a lesson number (all of its exercises). FILE (optional)
// is checked instead of the exercise's usual file, e.g. its solution. Exit
// status 0 when every case passes, 1 when one fails, 2 for a usage error.
// No key, no network.
// npm runs lessons/run.mjs, which compiles the lessons with tsc and runs this file, compiled.
import fs from "node:fs";
import path from "node:path";
import { escapeControl } from "../src/escape.js";
import { type CaseResult, COMPILED_ROOT, type Exercise, exercises, REPO_ROOT } from "./exercises.js";

/** At most this many lines of a failure are shown: enough for an assertion's diff, not a flood. */
const MAX_FAILURE_LINES = 8;

function usage(message: string): never {
  const names = exercises.map((e) => `${e.name} (lesson ${e.lesson})`).join(", ");
  process.stderr.write(`check: ${message}\nUsage: npm run check -- NAME|LESSON [FILE]; exercises: ${names}\n`);
  process.exit(2);
}

/** Prints one case's result as it finishes: PASS, or FAIL with why and a hint. */
function print(result: CaseResult): void {
  if (result.failure === null) {
    console.log(`PASS  ${result.name}`);
    return;
  }
  console.log(`FAIL  ${result.name}`);
  const lines = result.failure.split("\n").filter((line) => line.trim() !== "");
  // A learner's output may hold control characters: they are shown, not obeyed by the terminal.
  for (const line of lines.slice(0, MAX_FAILURE_LINES)) console.log(`        ${escapeControl(line)}`);
  if (lines.length > MAX_FAILURE_LINES) console.log(`        … (${lines.length - MAX_FAILURE_LINES} more lines)`);
  console.log(`        hint: ${result.hint}`);
}

/** The file an exercise reads: an answers file as it is; a .ts file's compiled twin when this check runs compiled (as npm run check does). */
function runnable(exercise: Exercise, file: string): string {
  if (exercise.kind === "answers" || COMPILED_ROOT === null) return file;
  return path.join(COMPILED_ROOT, path.relative(REPO_ROOT, file)).replace(/\.ts$/, ".js");
}

async function run(exercise: Exercise, file: string): Promise<boolean> {
  const where = path.relative(REPO_ROOT, file) || file;
  console.log(`${exercise.name} (lesson ${exercise.lesson}): ${exercise.task}; checking ${where}`);
  let results: CaseResult[];
  try {
    const compiled = runnable(exercise, file);
    if (exercise.kind === "answers" && !fs.existsSync(file)) throw new Error(`${where} does not exist`);
    if (!fs.existsSync(compiled))
      throw new Error(`${where} was not compiled: put it in lessons/build/ or lessons/solutions/, as a .ts file`);
    results = await exercise.check(compiled, print);
  } catch (error) {
    console.log(`FAIL  ${where} could not be loaded: ${escapeControl((error as Error).message.split("\n")[0])}`);
    return false;
  }
  const passed = results.filter((r) => r.failure === null).length;
  const all = passed === results.length;
  console.log(
    all
      ? `${passed} of ${results.length} pass: done.`
      : `${passed} of ${results.length} pass. Stuck? One solution: ${exercise.solution}`,
  );
  return all;
}

const [target, fileArg, ...extra] = process.argv.slice(2);
if (!target || extra.length > 0) usage(target ? "too many arguments" : "which exercise?");
let chosen = /^\d+$/.test(target)
  ? exercises.filter((e) => e.lesson === Number(target))
  : exercises.filter((e) => e.name === target);
if (chosen.length === 0) usage(`no exercise called "${target}"`);
if (fileArg && chosen.length > 1) {
  // A lesson with an answers file and a code exercise: a FILE's kind says which one it is for.
  chosen = chosen.filter((e) => (e.kind === "answers") === fileArg.endsWith(".txt"));
  if (chosen.length !== 1) usage("a FILE can only be checked against one exercise: name the exercise");
}

let allPassed = true;
for (const exercise of chosen) {
  const file = path.resolve(fileArg ?? path.join(REPO_ROOT, exercise.file));
  if (!(await run(exercise, file))) allPassed = false;
}
process.exitCode = allPassed ? 0 : 1;
