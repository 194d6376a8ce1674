// Scout's real pieces, run the way the answer exercises need them: a tool, a turn of the offline model, the CLI, a scratch copy of the sample project.
//
// Every truth an answer is judged against comes from here, computed when the
// check runs, so when the code changes, the right answer changes with it.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type MessageParam, runTurn, type TurnResult } from "../../src/core/loop.js";
import { offlineModel } from "../../src/models/offline.js";
import { tools as scoutTools } from "../../src/core/scout.js";
import { runTool } from "../../src/core/tool.js";
import type { Tool, ToolResult } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";
import { REPO_ROOT, SAMPLE_PROJECT } from "./repo.js";

export { REPO_ROOT, SAMPLE_PROJECT };

/** Runs one tool as `scout tool NAME 'JSON'` does, in `root` (the sample project unless told). */
export function tool(name: string, input: unknown, root = SAMPLE_PROJECT, toolSet: Tool[] = scoutTools) {
  return runTool(name, input, { workspace: new Workspace(root) }, toolSet);
}

export interface Turn {
  result: TurnResult;
  history: MessageParam[];
  calls: { name: string; input: unknown; result: ToolResult }[];
}

/** Asks the offline model one question, as `scout -p` does, and keeps every tool call it made. */
export async function ask(
  question: string,
  options: { root?: string; maxSteps?: number; history?: MessageParam[]; tools?: Tool[] } = {},
): Promise<Turn> {
  const history = options.history ?? [];
  const calls: Turn["calls"] = [];
  const model = offlineModel();
  const result = await runTurn(question, history, {
    model,
    workspace: new Workspace(options.root ?? SAMPLE_PROJECT),
    maxSteps: options.maxSteps,
    tools: options.tools,
    onStep: (event) => {
      model.onStep(event); // it reads the tools' facts, as in the REPL
      if (event.type === "tool_result") calls.push({ name: event.name, input: event.input, result: event.result });
    },
  });
  return { result, history, calls };
}

/** The CLI as npm install, npm test and npm run build make it (the bin, in front of the bundle): the lessons' compile leaves the CLI out. */
const CLI_SCRIPT = path.join(REPO_ROOT, "dist", "scout.cjs");

/** The learner's environment without what would change the CLI's output: colour, a key, an API address, a model. */
function quietEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const key of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "SCOUT_MODEL"]) delete env[key];
  return env;
}

/**
 * Runs the CLI with `args` in `cwd`, offline unless `env` names an API, and waits for it without blocking this
 * process: a stand-in API here must keep answering, and npm test's other checks go on meanwhile.
 */
export async function cli(args: string[], cwd = SAMPLE_PROJECT, env: NodeJS.ProcessEnv = {}) {
  const running = promisify(execFile)(process.execPath, [CLI_SCRIPT, ...args], {
    cwd,
    env: { ...quietEnv(), ...env },
    timeout: 30_000,
  });
  running.child.stdin?.end(); // with -p, Scout reads a piped stdin as part of the question: there is none
  const done = await running.catch((error) => error as { stdout?: string; stderr?: string; code?: number });
  return { stdout: done.stdout ?? "", stderr: done.stderr ?? "", status: "code" in done ? (done.code ?? 1) : 0 };
}

/** Runs the CLI with `args` in `cwd` against the Messages API at `baseURL`, with a made-up key. */
export function cliWithApi(args: string[], baseURL: string, cwd = SAMPLE_PROJECT) {
  return cli(args, cwd, { ANTHROPIC_BASE_URL: baseURL, ANTHROPIC_API_KEY: "check-key" });
}

/**
 * Runs `fn` in a scratch copy of the sample project, modification times
 * kept (the order of results depends on them), and removes it afterwards.
 * The copy leaves out .env: nothing here needs a secret, even a fake one.
 */
export async function inSampleCopy<T>(fn: (root: string) => Promise<T>): Promise<T> {
  return inScratch(async (scratch) => {
    const root = path.join(scratch, "sample-project");
    fs.cpSync(SAMPLE_PROJECT, root, {
      recursive: true,
      preserveTimestamps: true,
      verbatimSymlinks: true,
      filter: (source) => path.basename(source) !== ".env",
    });
    keepTimes(SAMPLE_PROJECT, root); // a folder's time changed as the copy filled it
    return fn(root);
  });
}

/** Gives every folder under `to` the modification time of its twin under `from`, deepest first. */
function keepTimes(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true }))
    if (entry.isDirectory()) keepTimes(path.join(from, entry.name), path.join(to, entry.name));
  const { atime, mtime } = fs.statSync(from);
  fs.utimesSync(to, atime, mtime);
}

/** Runs `fn` in a new empty folder, removed afterwards whatever happened. */
export async function inScratch<T>(fn: (root: string) => Promise<T>): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "scout-answers-"));
  try {
    return await fn(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The `path:line` an offline answer cites first ("`X` is defined at src/a.py:12:"), or "" when it cites none. */
export function firstCitation(answer: string): string {
  return /([\w./-]+\.\w+:\d+)/.exec(answer)?.[1] ?? "";
}
