// `npm run check`: grades the learner's exercises, each in a process of its own that a deadline can stop.
//
//   npm run check                         the board: every exercise, PASS / FAIL / not started, and the next one
//   npm run check -- NAME|LESSON [FILE]   one exercise (or a lesson's), PASS or FAIL for each case, with a hint
//   npm run check -- --watch NAME [FILE]  the same, again each time the file is saved (Ctrl-C to stop)
//   npm run check -- --solution NAME      where one solution is (the check also says so once your file passes)
//
// NAME is an exercise (answers-00 … answers-12, outline, loop, list_files,
// model, permissions, first-case) and LESSON a lesson number. FILE (optional)
// is checked instead of your working copy in lessons/build/. Exit status 0
// when every case passes, 1 when one fails, 2 for a usage error. No key, no
// network. lessons/run.mjs runs this file with lessons/typescript-hooks.mjs,
// which compiles only the .ts files it imports.
//
// Your code runs in a child process with a heap limit, and this process
// watches it: a case that never gives the event loop back (`for (;;) {}`) is
// stopped at its deadline, a process that runs out of memory or ends early
// (`process.exit(0)` on import) fails, and the cases after it are not run.
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { escapeControl } from "../src/guards/escape.js";
import { CASE_TIMEOUT_MS, COURSE_ORDER, type CaseResult, type Exercise, exercises, REPO_ROOT } from "./exercises.js";

/** At most this many lines of a failure are shown: enough for an assertion's diff, not a flood. */
const MAX_FAILURE_LINES = 8;
/** The learner's process may use this much heap: far more than any case needs, far less than the machine has. */
export const HEAP_LIMIT_MB = 256;
/** A case gets its own deadline (checked inside the child) plus this long before the child is killed from outside. */
const GRACE_MS = 2_000;
/** Loading the learner's module, and everything between it and the first case, must end within this. */
const LOAD_TIMEOUT_MS = 15_000;
/**
 * Loading the check's own code (the cases, the graders and the Scout code they run) must end within this. It is
 * timed apart from the learner's file: on a fresh clone every one of those files is compiled once, and with both
 * cores busy (npm test runs several checks at once) that alone took over 15 s.
 */
const OWN_CODE_TIMEOUT_MS = 120_000;
/** The child imports the learner's .ts file through the hooks lessons/run.mjs registered in this process. */
const TYPESCRIPT_HOOKS = fileURLToPath(new URL("./typescript-hooks.mjs", import.meta.url));
/** Saves closer together than this are one save (an editor often writes a file in two steps). */
const WATCH_DEBOUNCE_MS = 200;

/** What the child tells this process, over the IPC channel fork opens. */
type ChildMessage =
  | { type: "own-code-loaded" }
  | { type: "start"; name: string }
  | { type: "result"; result: CaseResult }
  | { type: "load-error"; message: string }
  | { type: "done" };

/** A path as the learner would type it: from the repository root when inside it. */
const rel = (file: string) => {
  const inside = path.relative(REPO_ROOT, file);
  return inside === "" || inside.startsWith("..") ? file : inside;
};

function usage(message: string): never {
  const names = exercises.map((e) => `${e.name} (lesson ${e.lesson})`).join(", ");
  process.stderr.write(
    `check: ${message}\nUsage: npm run check [-- [--watch] NAME|LESSON [FILE] | --solution NAME]; exercises: ${names}\n`,
  );
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
  if (result.hint) console.log(`        hint: ${result.hint}`);
}

/** Why the child ended before its last case, in words. */
function earlyEnd(code: number | null, signal: NodeJS.Signals | null): string {
  if (code === 0) return "your code ended the check's process early, with exit status 0 (a process.exit() call?)";
  if (signal === "SIGABRT" || code === 134)
    return `the process ran out of memory (its heap limit is ${HEAP_LIMIT_MB} MB): does something grow without end?`;
  return signal
    ? `the process was killed by ${signal}`
    : `your code ended the check's process with exit status ${code}`;
}

interface Outcome {
  results: CaseResult[];
  /** Why the module could not be loaded, or null. */
  loadError: string | null;
  /** Cases that never ran because the process was stopped. */
  notRun: number;
}

/** Runs one exercise's cases against `file` in a child process, calling `report` as each ends. */
function supervise(exercise: Exercise, file: string, report: (result: CaseResult) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { results: [], loadError: null, notRun: 0 };
    // The child's temporary folders (each case's tree) go in one of its own, removed here when it ends: a child
    // stopped mid-case cannot remove its tree itself.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "scout-check-"));
    const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--run-in-child", exercise.name, file], {
      execArgv: ["--import", TYPESCRIPT_HOOKS, `--max-old-space-size=${HEAP_LIMIT_MB}`, "--enable-source-maps"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, TMPDIR: scratch },
    });
    let running: string | null = null;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let stopped: string | null = null;
    const deadline = (ms: number, why: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stopped = why;
        child.kill("SIGKILL");
      }, ms);
    };
    deadline(OWN_CODE_TIMEOUT_MS, `the check's own code took over ${OWN_CODE_TIMEOUT_MS / 1000} s to load`);
    const record = (result: CaseResult) => {
      outcome.results.push(result);
      report(result);
    };
    child.on("message", (message: ChildMessage) => {
      if (message.type === "own-code-loaded")
        deadline(LOAD_TIMEOUT_MS, `the file took over ${LOAD_TIMEOUT_MS / 1000} s to load (code that runs on import?)`);
      else if (message.type === "start") {
        running = message.name;
        deadline(
          CASE_TIMEOUT_MS + GRACE_MS,
          `no result after ${(CASE_TIMEOUT_MS + GRACE_MS) / 1000} s, and the code never gave the event loop back (a loop that never ends?): stopped`,
        );
      } else if (message.type === "result") {
        running = null;
        record(message.result);
        deadline(LOAD_TIMEOUT_MS, "no next case after the last one ended");
      } else if (message.type === "load-error") outcome.loadError = message.message;
      else done = true;
    });
    child.on("exit", async (code, signal) => {
      clearTimeout(timer);
      fs.rmSync(scratch, { recursive: true, force: true });
      if (!done && outcome.loadError === null) {
        const why = stopped ?? earlyEnd(code, signal);
        if (running !== null) record({ name: running, hint: "", failure: why });
        else if (outcome.results.length === 0) outcome.loadError = why;
        else record({ name: "(after the last case)", hint: "", failure: why });
        // Only now are the cases loaded here, to count them: a check that ends well never loads them in this process.
        try {
          outcome.notRun = Math.max(0, (await exercise.caseCount()) - outcome.results.length);
        } catch {
          // the cases cannot even be loaded here: the check already says why it stopped
        }
      }
      resolve(outcome);
    });
  });
}

/** Runs one exercise against `file` and prints every case; true when all pass. */
async function run(exercise: Exercise, file: string): Promise<boolean> {
  console.log(`${exercise.name} (lesson ${exercise.lesson}): ${exercise.task}; checking ${rel(file)}`);
  if (!fs.existsSync(file)) {
    console.log(`FAIL  ${rel(file)} could not be loaded: it does not exist`);
    return false;
  }
  const { results, loadError, notRun } = await supervise(exercise, file, print);
  if (loadError !== null) {
    console.log(`FAIL  ${rel(file)} could not be loaded: ${escapeControl(loadError.split("\n")[0])}`);
    return false;
  }
  const passed = results.filter((r) => r.failure === null).length;
  const total = results.length + notRun;
  if (notRun > 0) console.log(`(${notRun} more case${notRun === 1 ? "" : "s"} not run: the check was stopped)`);
  if (passed === total) {
    const isTheSolution = path.resolve(file) === path.join(REPO_ROOT, exercise.solution);
    console.log(
      `${passed} of ${total} pass: done.${isTheSolution ? "" : ` Compare with one solution: ${exercise.solution}`}`,
    );
    return true;
  }
  console.log(
    `${passed} of ${total} pass. Stuck? Each hint says where to look; npm run check -- --solution ${exercise.name}`,
  );
  return false;
}

/** Where the learner is on an exercise: not started (the file is as shipped), or how many cases pass. */
async function standing(exercise: Exercise): Promise<string> {
  const file = path.join(REPO_ROOT, exercise.file);
  const starter = path.join(REPO_ROOT, exercise.starter);
  if (!fs.existsSync(file) || fs.readFileSync(file).equals(fs.readFileSync(starter))) return "not started";
  const { results, loadError, notRun } = await supervise(exercise, file, () => {});
  if (loadError !== null) return "FAIL  (does not load)";
  const passed = results.filter((r) => r.failure === null).length;
  const total = results.length + notRun;
  return passed === total ? "PASS" : `FAIL  (${passed} of ${total})`;
}

/** `npm run check` with no argument: every exercise, lesson by lesson in the course's order, and the next to do. */
async function board(): Promise<boolean> {
  let next: Exercise | null = null;
  let allPassed = true;
  for (const lesson of COURSE_ORDER) {
    const own = exercises.filter((e) => e.lesson === lesson);
    if (own.length === 0) continue;
    console.log(`lesson ${lesson}`);
    for (const exercise of own) {
      const state = await standing(exercise);
      console.log(`  ${state.padEnd(18)}${exercise.name}`);
      if (state !== "PASS") {
        allPassed = false;
        next ??= exercise;
      }
    }
  }
  console.log(
    next === null
      ? "Every exercise passes."
      : `Next: ${next.name} (lesson ${next.lesson}): ${next.task}. Run: npm run check -- ${next.name}`,
  );
  return allPassed;
}

/** Runs the chosen exercises once, then again each time one of their files is saved. */
function watch(chosen: Exercise[], fileOf: (e: Exercise) => string): void {
  let queued: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const again = () => {
    running = running.then(async () => {
      for (const exercise of chosen) await run(exercise, fileOf(exercise));
      console.log(`watching ${chosen.map((e) => rel(fileOf(e))).join(", ")}: save to check again, Ctrl-C to stop`);
    });
  };
  again();
  // The folder, not the file: an editor that saves by renaming a new file over the old one would end a watch on the file.
  for (const exercise of chosen) {
    const file = fileOf(exercise);
    fs.watch(path.dirname(file), (_event, name) => {
      if (name !== path.basename(file)) return;
      clearTimeout(queued);
      queued = setTimeout(again, WATCH_DEBOUNCE_MS);
    });
  }
}

/** The child's side: loads the exercise's cases, runs them against `file`, and tells the parent as each starts and ends. */
async function runInChild(name: string, file: string): Promise<void> {
  const send = (message: ChildMessage) =>
    new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));
  const exercise = exercises.find((e) => e.name === name)!;
  const pending: Promise<void>[] = [];
  try {
    await exercise.check(
      file,
      (result) => void pending.push(send({ type: "result", result })),
      (caseName) => void pending.push(send({ type: "start", name: caseName })),
      () => send({ type: "own-code-loaded" }), // awaited: the message is out before the learner's file loads
    );
  } catch (error) {
    pending.push(send({ type: "load-error", message: (error as Error).message ?? String(error) }));
  }
  await Promise.all(pending);
  await send({ type: "done" });
  process.disconnect();
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === "--run-in-child") return runInChild(argv[1], argv[2]);
  if (argv.length === 0) {
    process.exitCode = (await board()) ? 0 : 1;
    return;
  }
  if (argv[0] === "--solution") {
    const exercise = exercises.find((e) => e.name === argv[1]);
    if (!exercise || argv.length !== 2)
      usage(argv[1] ? `no exercise called "${argv[1]}"` : "the solution to which exercise?");
    console.log(`One solution to ${exercise.name}: ${exercise.solution} (compare it with yours: there are others)`);
    return;
  }
  const watching = argv[0] === "--watch";
  const [target, fileArg, ...extra] = watching ? argv.slice(1) : argv;
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
  const fileOf = (exercise: Exercise) => path.resolve(fileArg ?? path.join(REPO_ROOT, exercise.file));
  if (watching) return watch(chosen, fileOf);
  let allPassed = true;
  for (const exercise of chosen) if (!(await run(exercise, fileOf(exercise)))) allPassed = false;
  process.exitCode = allPassed ? 0 : 1;
}

await main(process.argv.slice(2));
