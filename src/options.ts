// The checks behind the command line's options: each error names the option or variable that caused it.
import fs from "node:fs";
import path from "node:path";
import type { Trace } from "./trace.js";
import { Workspace } from "./core/workspace.js";

// This file loads with every command, so it imports no more than it checks
// with: the agent (and with it every tool) loads only when a question is
// asked, the trace writer only with --trace.

/** A mistake in how Scout was called: exit status 2, and a pointer to --help. */
export class UsageError extends Error {}

/** --cwd DIR: the workspace, which must be a directory (the message shows the absolute path tried). */
export function openWorkspace(dir = process.cwd()): Workspace {
  const absolute = path.resolve(dir);
  if (!fs.existsSync(absolute)) throw new UsageError(`--cwd ${dir}: no such directory (tried ${absolute})`);
  if (!fs.statSync(absolute).isDirectory())
    throw new UsageError(`--cwd ${dir}: not a directory, a file (tried ${absolute})`);
  try {
    return new Workspace(dir);
  } catch (error) {
    throw new UsageError((error as Error).message); // a root inside ~/.aws or .git: exit 2, nothing read
  }
}

/**
 * ANTHROPIC_BASE_URL, if set, must be an http(s) address without credentials (fetch refuses
 * user:password@ anyway); the SDK's own error would not name the variable. A value holding "@"
 * is never echoed, since what precedes it may be a password.
 */
export function checkBaseUrl(value = process.env.ANTHROPIC_BASE_URL): void {
  if (value === undefined || value === "") return;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  const shown = value.includes("@") ? "(not shown: it holds an @, as credentials do)" : `"${value}"`;
  if (!url || !["http:", "https:"].includes(url.protocol))
    throw new UsageError(`ANTHROPIC_BASE_URL is not an http(s) address: ${shown}`);
  if (url.username !== "" || url.password !== "")
    throw new UsageError(
      `ANTHROPIC_BASE_URL holds credentials (user:password@), which are not sent that way and never shown; put the key in ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN`,
    );
}

/** --trace FILE, opened to append (see src/trace.ts); `onFailure` says, once, why a later write failed. */
export async function openTrace(file: string, onFailure?: (line: string) => void): Promise<Trace> {
  const { Trace } = await import("./trace.js");
  try {
    return new Trace(file, onFailure);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (tried ${path.resolve(file)})`);
  }
}

/** --max-steps N: a whole number from 1 to 999999, in decimal digits; undefined (the agent's default) when not given. */
export function maxStepsOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // Decimal digits only: Number() would also take "1e3", "0x10" and " 7 ".
  const maxSteps = /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(maxSteps >= 1))
    throw new UsageError(
      `--max-steps must be a whole number from 1 to 999999 in decimal digits (like 20), got ${JSON.stringify(value.slice(0, 40))}`,
    );
  return maxSteps;
}

/**
 * --replay TRACE: the recording as the session's model choice (the replay model, its label, its recorded usage
 * shown as recorded); a trace that cannot be replayed is a usage error naming the line, the record and the field.
 */
export async function replayOf(file: string, notice: (text: string) => void) {
  const { loadRecording, replayModel, replayStopped, ReplayError } = await import("./models/replay.js");
  try {
    const model = replayModel(loadRecording(file), notice);
    const label = `replay of ${file} (recorded with ${model.name}; the tools run live, usage is as recorded)`;
    return { model, label, estimated: false, pricing: { model: model.name, estimate: false }, stopped: replayStopped };
  } catch (error) {
    throw error instanceof ReplayError ? new UsageError(error.message) : error;
  }
}
