// Shared test helpers: real temporary workspaces (always removed), the real CLI as a child process, one way.
import { tools } from "../src/core/scout.js";
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import { afterAll, vi } from "vitest";
import { runTool } from "../src/core/tool.js";
import { Workspace } from "../src/core/workspace.js";
import { setMtime, type TreeFile, writeTree } from "../lessons/cases/case.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The program `scout` runs (package.json's bin): src/scout.cts, in front of the bundle of Scout's modules. */
export const CLI = path.join(REPO_ROOT, "dist", "scout.cjs");
/** The same CLI unbundled, its modules loaded one by one: what the module probe (test/module-probe.ts) can see. */
export const MODULES_CLI = path.join(REPO_ROOT, "dist", "cli.js");
/** Files the course asks a learner to add to src/ (lesson 14): held to no rule of Scout's own files. */
export const LEARNER_FILES = ["core/outline.ts", "models/openai.ts"];

// Trees are written, and mtimes set, by lessons/cases/case.ts: the lessons' check runs its cases without vitest.
/** A file's content, or a file with an explicit modification time (seconds since the epoch). */
export type FileSpec = TreeFile;
export { setMtime };

/** Every temporary tree this test file made; all are removed after its tests, whatever happened. */
const trees: string[] = [];
afterAll(() => {
  for (const root of trees.splice(0)) removeTree(root);
}, 300_000); // a watchdog: list_files' tree of 101,000 entries took over vitest's 10 s to remove with both cores busy

/** Removes a tree, with `rm -rf` where one holds a folder deeper than one path can name (fs.rmSync: ENAMETOOLONG). */
function removeTree(root: string): void {
  try {
    fs.rmSync(root, { recursive: true, force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENAMETOOLONG") throw error;
    execFileSync("rm", ["-rf", root]); // rm walks down one folder at a time
  }
}

/** 22 folders of 200 characters: past PATH_MAX (4,096), so rg cannot read it, even as root. */
export const TOO_DEEP = Array.from({ length: 22 }, () => "d".repeat(200)).join("/");

/** Creates the folder `rel` under `root` with `mkdir -p`, which builds one folder at a time what one path cannot name. */
export function mkdirDeep(root: string, rel: string): void {
  execFileSync("mkdir", ["-p", rel], { cwd: root });
}

/**
 * Creates a real temporary directory holding `files` (paths with "/"),
 * and returns its path. Parent folders are created as needed. It is removed
 * after the test file's tests.
 */
export function makeTree(files: Record<string, FileSpec>, prefix = "scout-test-", base = os.tmpdir()): string {
  const root = fs.mkdtempSync(path.join(base, prefix));
  trees.push(root);
  writeTree(root, files);
  return root;
}

/**
 * Where a tree of a hundred thousand entries is quick to build: /dev/shm, a folder in memory, where the machine
 * has one. 101,000 symlinks took 11.3 s on this machine's disk (ext4) and 0.7 s there; the tools read both alike.
 */
export const MEMORY_TMP = (() => {
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
})();

/** makeTree, named for the files that called it so (every tree is removed after the file's tests). */
export function treeMaker(): (files: Record<string, FileSpec>) => string {
  return (files) => makeTree(files);
}

/** Runs one tool in-process against a workspace directory. */
export function call(root: string, name: string, input: unknown) {
  return runTool(name, input, { workspace: new Workspace(root) }, tools);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How the CLI is started: by node (the default); as a program, through its
 * #! line, as npx and npm's bin link run it; or on a pseudo-terminal, run by
 * util-linux `script`, directly or through `npm start` as a learner does;
 * or "pty-shell": an interactive bash with job control on the pty, where the
 * test types the command (shellCommand) as a person would, for Ctrl-Z and fg.
 */
export type Launch = "node" | "program" | "pty" | "pty-npm-start" | "pty-shell";

export interface CliOptions {
  cwd?: string;
  /** Added to the environment (after NO_COLOR=1); a key set to undefined is removed. */
  env?: Record<string, string | undefined>;
  /** The child is killed after this long: a stuck child fails its test instead of outliving it. */
  timeoutMs?: number;
  launch?: Launch;
  /** The CLI to start (default dist/scout.cjs; MODULES_CLI, or test/fifth-tool.ts's other build). */
  cli?: string;
  /** Called whenever output arrives. */
  onData?: () => void;
}

export interface StartedCli {
  child: ChildProcessWithoutNullStreams;
  /** The output so far: stdout, stderr, and both in the order they came. */
  output: { stdout: string; stderr: string; all: string };
  exited: Promise<CliRun>;
}

const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/** The command line that starts the CLI with `args`, for a shell on a pty ("pty-shell") to run. */
export function shellCommand(args: string[], how: "node" | "npm" = "node", cli = CLI): string {
  if (how === "npm") return `npm --prefix ${quote(REPO_ROOT)} start --silent -- ${args.map(quote).join(" ")}`;
  return [process.execPath, cli, ...args].map(quote).join(" ");
}

/** Starts the built CLI (dist/scout.cjs unless told) as a child process, its stdin left open: the one way tests start it. */
export function startCli(args: string[], options: CliOptions = {}): StartedCli {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const launch = options.launch ?? "node";
  const cli = options.cli ?? CLI;
  const command = {
    node: [process.execPath, [cli, ...args]],
    program: [cli, args],
    // -q quiet, -e exit with the child's status, -f flush at once, -c the command (run by $SHELL,
    // which `exec` takes out of the way); /dev/null: no typescript file.
    pty: ["script", ["-qefc", `exec ${[process.execPath, cli, ...args].map(quote).join(" ")}`, "/dev/null"]],
    "pty-npm-start": [
      "script",
      ["-qefc", `exec npm --prefix ${quote(REPO_ROOT)} start --silent -- ${args.map(quote).join(" ")}`, "/dev/null"],
    ],
    "pty-shell": ["script", ["-qefc", "exec bash --norc --noprofile -i", "/dev/null"]],
  } satisfies Record<Launch, [string, string[]]>;
  const [program, argv] = command[launch];
  const child = spawn(program, argv, { cwd: options.cwd ?? REPO_ROOT, env: env as NodeJS.ProcessEnv });
  const output = { stdout: "", stderr: "", all: "" };
  child.stdout.on("data", (chunk) => {
    output.stdout += chunk;
    output.all += chunk;
    options.onData?.();
  });
  child.stderr.on("data", (chunk) => {
    output.stderr += chunk;
    output.all += chunk;
    options.onData?.();
  });
  const watchdog = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(watchdog);
      resolve({ code, stdout: output.stdout, stderr: output.stderr });
    });
  });
  return { child, output, exited };
}

/** Runs the CLI to the end with `input` (default none) on stdin. */
export function runCli(args: string[], options: CliOptions & { input?: string } = {}): Promise<CliRun> {
  const { child, exited } = startCli(args, options);
  child.stdin.end(options.input ?? "");
  return exited;
}

/**
 * A few questions of a question set (`file`, from the repository root), written to a set of their own that
 * asks in the same workspace: for a test of a lab report's shape, where the set's size is not the point
 * (a lab run costs some 30 ms of CPU per question and variant).
 */
export function questionsOf(file: string, ids: string[]): string {
  const set = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));
  const questions = ids.map((id) => {
    const found = set.questions.find((q: { id: string }) => q.id === id);
    if (!found) throw new Error(`${file} has no question ${id}`);
    return found;
  });
  const workspace = path.resolve(REPO_ROOT, path.dirname(file), set.workspace ?? ".");
  const subset = path.join(makeTree({}), path.basename(file));
  fs.writeFileSync(subset, JSON.stringify({ title: set.title, workspace, questions }));
  return subset;
}

/**
 * A subcommand's entry (labCommand: what `scout lab ARGS` runs after the CLI's dispatch) called in this process,
 * its console and stdout kept: for the many checks of a refusal's message, each of which would otherwise start a
 * process (~0.17 s of CPU), and for the lab's figures, where a report's logic is the point (a lab process costs
 * ~0.3 s of CPU before its first question). Keep one case of each kind through the CLI itself. Not for a command that leaves an
 * error to cli.ts's own catch (tokensCommand's --trace refusals): there the CLI is what says it.
 */
export async function inProcess(
  command: (argv: string[]) => Promise<number>,
  args: string[],
  /** Set in process.env for the call, as runCli's env is for a child (a key set to undefined is removed). */
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  return withEnv({ NO_COLOR: "1", ...env }, () => keepingOutput(command, args)); // NO_COLOR: as runCli sets for a child
}

/** The command's exit code, with what it printed to the console and stdout. */
async function keepingOutput(command: (argv: string[]) => Promise<number>, args: string[]): Promise<CliRun> {
  const out = { stdout: "", stderr: "" };
  const log = vi.spyOn(console, "log").mockImplementation((...words) => {
    out.stdout += `${format(...words)}\n`;
  });
  const error = vi.spyOn(console, "error").mockImplementation((...words) => {
    out.stderr += `${format(...words)}\n`;
  });
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out.stdout += String(chunk);
    return true;
  });
  try {
    return { code: await command(args), ...out };
  } finally {
    for (const spy of [log, error, write]) spy.mockRestore();
  }
}

/** Runs `work` with these variables set in process.env (undefined removes one), then puts back what was there. */
export async function withEnv<T>(env: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const set = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  };
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  set(env);
  try {
    return await work();
  } finally {
    set(saved);
  }
}

/**
 * A limit on work running at once: the function returned runs `start` when fewer than `max` of the starts given
 * to it are running, and lets the next one go as one ends. Tests that run side by side share two cores so.
 */
export function atMostAtOnce(max: number): <T>(start: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (start) => {
    // A slot that ends is handed to the next in line, never freed between the two, so none can slip in.
    if (running >= max) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await start();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
