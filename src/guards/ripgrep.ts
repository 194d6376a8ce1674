// Runs the rg binary with --json and hands over its messages one at a time, within a deadline and a Ctrl-C.
import type { spawn as Spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import { jsonMessages, type RgData } from "./rg-json.js";
import { decodeShowingInvalid } from "./text-decoding.js";

// CommonJS packages are required where first used, not imported (see workspace/ignore-rules.ts); so is
// node:child_process, which loads net, dgram and more (~4 ms) that a read_file or glob call never uses.
const require = createRequire(import.meta.url);

/**
 * rg is stopped when it holds more memory than this. JSON has an object for
 * every match, so a long line matched every few bytes (pattern "." on a
 * 20 MB one-line file) took rg 1.3 GB. Read from /proc, so Linux only;
 * elsewhere --max-filesize is the only bound.
 */
export const MAX_RG_MEMORY_BYTES = 256 * 1024 * 1024;
const MEMORY_CHECK_MS = 100;
/** Whether rg's memory can be watched here (Linux's /proc). */
export const MEMORY_WATCHED = fs.existsSync("/proc/self/status");
/** How much of rg's own error message is passed on when rg could not search at all. */
const MAX_STDERR_CHARS = 2000;
/** A line rg writes on stderr longer than this is not about one path (PATH_MAX is 4096 bytes): it is dropped. */
const MAX_STDERR_LINE_CHARS = 16 * 1024;

/** One line rg printed: a hit, or a context line around one; `cut` when only its start came through (see rg-json). */
export interface RgLine {
  lineNumber: number;
  hit: boolean;
  text: string;
  cut: boolean;
}
/** What rg found in one file: the lines between its "begin" and "end" messages, and whether it saw a NUL byte. */
export interface RgFile {
  file: string;
  lines: RgLine[];
  binary: boolean;
}

export interface RgOutcome {
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** rg went over MAX_RG_MEMORY_BYTES and was stopped. */
  tooMuchMemory: boolean;
  /** rg searched to the end and said so (its summary message); exit status 2 then means some paths could not be read. */
  finished: boolean;
  /** rg's own message, for when it could not search at all (a regex it cannot parse, say). */
  stderr: string;
  /** The paths rg could not read that `reportable` let through: how many, and the first with rg's reason. */
  unreadable: { count: number; first?: { file: string; reason: string } };
}

export interface RgRun {
  root: string;
  signal?: AbortSignal;
  /** rg is killed at this time (Date.now() milliseconds). */
  deadline: number;
  /** Whether rg's complaint about a path may be passed on (the caller checks it is shown and really unreadable). */
  reportable: (file: string) => boolean;
}

export function newOutcome(): RgOutcome {
  return {
    exitCode: null,
    timedOut: false,
    aborted: false,
    tooMuchMemory: false,
    finished: false,
    stderr: "",
    unreadable: { count: 0 },
  };
}

/**
 * Runs rg with no shell and stdin closed, and yields what it found file by
 * file as each file's "end" arrives (rg prints each file's messages
 * together, even when it searches in parallel). A loop that stops early (break) kills rg, so a pattern with
 * millions of hits costs no more memory than one with a hundred. `outcome`
 * is complete once the loop is over.
 */
export async function* ripgrep(args: string[], run: RgRun, outcome: RgOutcome): AsyncGenerator<RgFile> {
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH; // no user config can add options
  // Where the rg binary is. An ES module package: imported, since require() of one prints an experimental
  // warning on Node 22.12 (on every grep, into the learner's terminal).
  const { rgPath } = await import("@vscode/ripgrep");
  const spawn: typeof Spawn = require("node:child_process").spawn;
  const rg = spawn(rgPath, ["--json", ...args], { cwd: run.root, env, stdio: ["ignore", "pipe", "pipe"] });
  let closed = false;
  const exit = new Promise<number | null>((resolve) =>
    rg.on("close", (code) => {
      closed = true;
      resolve(code);
    }),
  );
  const stop = () => rg.kill("SIGKILL");
  const unwatch = watchMemory(rg.pid, () => {
    outcome.tooMuchMemory = true;
    stop();
  });
  const timer = setTimeout(
    () => {
      outcome.timedOut = true;
      stop();
    },
    Math.max(0, run.deadline - Date.now()),
  );
  const onAbort = () => {
    outcome.aborted = true;
    stop();
  };
  run.signal?.addEventListener("abort", onAbort, { once: true });
  if (run.signal?.aborted) onAbort();
  const stderrDone = readStderr(rg.stderr, run, outcome);
  let startError: string | undefined;
  rg.on("error", (error) => {
    startError = `could not start rg: ${error.message}`;
  });

  let stoppedEarly = true; // until the loop below runs to the end
  try {
    let current: RgFile | undefined; // the file between rg's "begin" and "end" for it
    for await (const { type, data, cut } of jsonMessages(rg.stdout)) {
      if (type === "summary") outcome.finished = true;
      if (!data?.path) continue;
      // rg names a file as it reached it: "./src/a.ts" under ".", "src/a.ts" under "src" or named alone.
      const file = decode(data.path).replace(/^\.\//, "");
      if (type === "begin") current = { file, lines: [], binary: false };
      else if (file !== current?.file)
        continue; // a line is only ever kept under the file rg began
      else if (type === "end") {
        current.binary = data.binary_offset != null;
        yield current;
        current = undefined;
      } else if ((type === "match" || type === "context") && data.lines && Number.isInteger(data.line_number)) {
        // The line's own end, LF or CRLF, off; bytes that are not UTF-8 as "\xNN", as read_file shows them.
        const text = (data.lines.text ?? decodeShowingInvalid(Buffer.from(data.lines.bytes ?? "", "base64"))).replace(
          /\r?\n$/,
          "",
        );
        current.lines.push({ lineNumber: data.line_number as number, hit: type === "match", text, cut: !!cut });
      }
    }
    stoppedEarly = false;
  } finally {
    if (stoppedEarly && !closed) stop();
    const code = await exit;
    await stderrDone;
    clearTimeout(timer);
    unwatch();
    run.signal?.removeEventListener("abort", onAbort);
    if (startError !== undefined) {
      outcome.stderr = startError;
      outcome.exitCode = 2;
    } else outcome.exitCode = stoppedEarly ? 0 : code;
  }
}

/** rg's JSON for a path or a line: text when it is valid UTF-8, base64 bytes when not. */
function decode({ text, bytes }: RgData): string {
  return text ?? Buffer.from(bytes ?? "", "base64").toString("utf8"); // invalid UTF-8 becomes U+FFFD
}

/**
 * Reads rg's stderr. Its first MAX_STDERR_CHARS are kept for when rg could
 * not search at all. Each "rg: PATH: REASON (os error N)" line is a path rg
 * could not read; it is counted only when `reportable` lets it through, as
 * a file name can hold a newline and so forge such a line.
 */
async function readStderr(stderr: AsyncIterable<Buffer>, run: RgRun, outcome: RgOutcome): Promise<void> {
  let partial = "";
  const take = (line: string) => {
    const found = /^rg: (.+): ([^:]+ \(os error \d+\))$/s.exec(line);
    if (!found) return;
    const file = found[1].replace(/^\.\//, "");
    if (!run.reportable(file)) return;
    outcome.unreadable.count++;
    outcome.unreadable.first ??= { file, reason: found[2].replace(/ \(os error \d+\)$/, "") };
  };
  try {
    for await (const chunk of stderr) {
      const text = chunk.toString("utf8");
      if (outcome.stderr.length < MAX_STDERR_CHARS) outcome.stderr = (outcome.stderr + text).slice(0, MAX_STDERR_CHARS);
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      if (partial.length > MAX_STDERR_LINE_CHARS) partial = "\0"; // a line too long for a path: never matches
      for (const line of lines) take(line);
    }
  } catch {
    // the stream ended with rg
  }
  if (partial !== "") take(partial);
}

/** Calls onOver when the process's resident memory passes MAX_RG_MEMORY_BYTES; returns what stops watching. */
function watchMemory(pid: number | undefined, onOver: () => void): () => void {
  const timer = setInterval(() => {
    fs.readFile(`/proc/${pid}/status`, "utf8", (error, status) => {
      if (error) return clearInterval(timer); // no /proc here, or rg is gone
      const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      if (kib * 1024 > MAX_RG_MEMORY_BYTES) onOver();
    });
  }, MEMORY_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
