// Shared test helpers: real temporary workspaces and the real CLI as a child process.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { runTool } from "../src/tools/index.js";
import { Workspace } from "../src/workspace/workspace.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLI = path.join(REPO_ROOT, "dist", "cli.js");

/** A file's content, or a file with an explicit modification time (seconds since the epoch). */
export type FileSpec = string | Buffer | { content: string | Buffer; mtime: number };

/**
 * Creates a real temporary directory holding `files` (paths with "/"),
 * and returns its path. Parent folders are created as needed.
 */
export function makeTree(files: Record<string, FileSpec>, prefix = "scout-test-"): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [rel, spec] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const content = typeof spec === "object" && !Buffer.isBuffer(spec) ? spec.content : spec;
    fs.writeFileSync(abs, content);
    if (typeof spec === "object" && !Buffer.isBuffer(spec)) fs.utimesSync(abs, spec.mtime, spec.mtime);
  }
  return root;
}

/** makeTree for one test file: every tree it makes is removed after that file's tests. */
export function treeMaker(): (files: Record<string, FileSpec>) => string {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = makeTree(files);
    roots.push(root);
    return root;
  };
}

/** Sets a file's or folder's modification time (seconds since the epoch). */
export function setMtime(root: string, rel: string, seconds: number): void {
  fs.utimesSync(path.join(root, rel), seconds, seconds);
}

/** Runs one tool in-process against a workspace directory. */
export function call(root: string, name: string, input: unknown) {
  return runTool(name, input, { workspace: new Workspace(root) });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (dist/cli.js) as a child process. */
export function runCli(
  args: string[],
  options: { cwd?: string; input?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...options.env };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: env as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
