// How the benchmark measures: wall-clock time over several runs (median and
// minimum), child processes driven the way a caller would drive them, and
// peak memory (RSS) of a process and the children it waits for.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

/** Runs thrown away first: they fill the page cache and warm up the JIT. */
export const WARMUP_RUNS = 1;
export const DEFAULT_RUNS = 5;

export interface Timing {
  medianMs: number;
  minMs: number;
  samplesMs: number[];
}

/** What a function returns that times itself from a moment inside its run (Enter, in a REPL), not from its start. */
export interface SelfTimed {
  elapsedMs: number;
}
const isSelfTimed = (result: unknown): result is SelfTimed =>
  typeof result === "object" && result !== null && typeof (result as SelfTimed).elapsedMs === "number";

/**
 * Times each function `runs` times after the warm-up, interleaved (A B C, A B
 * C, ...): on a shared machine load comes and goes, and interleaving spreads
 * it over every case instead of landing on one. The median resists a noisy
 * neighbour; the min shows the best case. `onResult` gets each call's result.
 * A function that returns SelfTimed is timed by what it says, not from its start.
 */
export async function timeInterleaved<T>(
  runs: number,
  fns: (() => Promise<T>)[],
  onResult?: (index: number, result: T) => void,
): Promise<Timing[]> {
  const samples: number[][] = fns.map(() => []);
  for (let run = -WARMUP_RUNS; run < runs; run++) {
    for (const [i, fn] of fns.entries()) {
      const start = performance.now();
      const result = await fn();
      const elapsed = isSelfTimed(result) ? result.elapsedMs : performance.now() - start;
      if (run >= 0) samples[i].push(elapsed);
      onResult?.(i, result);
    }
  }
  return samples.map(summarize);
}

/** A case's samples as the tables show them: median, minimum, and the samples themselves. */
export function summarize(samplesMs: number[]): Timing {
  return { medianMs: median(samplesMs), minMs: Math.min(...samplesMs), samplesMs };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// ---------------------------------------------------------------- processes

export interface RunOptions {
  cwd: string;
  /** Called with each stdout chunk; return false to kill the process (as `| head` would). */
  onData?: (chunk: Buffer) => boolean | void;
}
export interface RunResult {
  code: number | null;
  stdoutBytes: number;
  killed: boolean;
}

/**
 * Runs a command to its end with stdin closed, reading all of stdout (so the
 * pipe never fills and stalls it) and throwing away stderr.
 */
export function runProcess(command: string, args: string[], { cwd, onData }: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    const result: RunResult = { code: null, stdoutBytes: 0, killed: false };
    child.stdout.on("data", (chunk: Buffer) => {
      result.stdoutBytes += chunk.length;
      if (!result.killed && onData?.(chunk) === false) {
        result.killed = true;
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ ...result, code }));
  });
}

/** An onData that stops the process after `n` output lines: `| head -n`. */
export function stopAfterLines(n: number): (chunk: Buffer) => boolean {
  let lines = 0;
  return (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) if (++lines >= n) return false;
    return true;
  };
}

/** Output kept while waiting for a marker: a banner and a prompt fit easily. */
const MAX_WAIT_OUTPUT_CHARS = 100_000;

/**
 * Time until a process writes `marker` (on stdout or stderr), then kills its
 * process group: how long a REPL takes to show its prompt. stdin stays an open
 * pipe, so the process waits for input instead of exiting.
 */
export function timeToOutput(command: string, args: string[], cwd: string, marker: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let output = "";
    let elapsed: number | null = null;
    const onData = (chunk: Buffer) => {
      if (elapsed !== null) return;
      output = (output + chunk.toString()).slice(-MAX_WAIT_OUTPUT_CHARS);
      if (!output.includes(marker)) return;
      elapsed = performance.now() - start;
      process.kill(-child.pid!, "SIGKILL"); // the whole group: `script` and what it started
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", () =>
      elapsed === null
        ? reject(new Error(`${command} exited before writing "${marker}": ${output.slice(-500)}`))
        : resolve(elapsed),
    );
  });
}

/**
 * Time from Enter to `marker` in a REPL's output: waits for `prompt`, types `keys` one every `keyGapMs` (a person
 * typing a question, while the REPL may warm up in the background), presses Enter, and times until the answer.
 */
export function timeEnterToOutput(
  command: string,
  args: string[],
  cwd: string,
  {
    prompt,
    keys,
    keyGapMs,
    marker,
    env,
  }: { prompt: string; keys: string; keyGapMs: number; marker: string; env?: NodeJS.ProcessEnv },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let output = "";
    let enter: number | null = null;
    let elapsed: number | null = null;
    let typing = false;
    const type = async () => {
      typing = true;
      await typeKeys(child.stdin, keys, keyGapMs);
      output = "";
      enter = performance.now();
      child.stdin.write("\r");
    };
    const onData = (chunk: Buffer) => {
      if (elapsed !== null) return;
      output = (output + chunk.toString()).slice(-MAX_WAIT_OUTPUT_CHARS);
      if (!typing && output.includes(prompt)) void type();
      if (enter === null || !output.includes(marker)) return;
      elapsed = performance.now() - enter;
      process.kill(-child.pid!, "SIGKILL"); // the whole group: `script` and what it started
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", () =>
      elapsed === null
        ? reject(new Error(`${command} exited before writing "${marker}": ${output.slice(-500)}`))
        : resolve(elapsed),
    );
  });
}

/** A line of a REPL's output and when it came, in ms after Enter. */
export interface SeenLine {
  ms: number;
  line: string;
}

/** A REPL kept running for several questions: a warm one, as a learner has after the first answer. */
export interface PtyRepl {
  /**
   * Types `question` (pasted at once, or one key every `keyGapMs`), waits for its echo, presses Enter, and
   * waits until the REPL is `ready` again. Returns, for each of `markers`, the first whole output line after
   * Enter that matches it, and when it came.
   */
  ask(question: string, markers: RegExp[], keyGapMs?: number): Promise<SeenLine[]>;
  /** Kills the REPL's process group (`script` and what it started). */
  close(): Promise<void>;
}

/** A watchdog on one wait in a REPL (a turn on the bench tree takes seconds at most), not a timing. */
const REPL_WAIT_MS = 120_000;

/** What a person reads: colour and cursor codes and \r removed (a spinner's frames stay, ahead of the step line). */
const plainText = (raw: string) => raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");

/**
 * Starts a REPL (on a pty: `command` is `script`) and resolves once it shows `prompt`. `ready` is matched on
 * what a question's turn printed after Enter: when it matches, the turn is over and the next question can come.
 */
export async function startRepl(
  command: string,
  args: string[],
  cwd: string,
  { prompt, ready, env }: { prompt: string; ready: RegExp; env?: NodeJS.ProcessEnv },
): Promise<PtyRepl> {
  const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let output = ""; // since the last reset: the start, the question's echo, or Enter
  let exited = false;
  let check: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_WAIT_OUTPUT_CHARS);
    check?.();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const closed = new Promise<void>((resolve) =>
    child.on("close", () => {
      exited = true;
      check?.();
      resolve();
    }),
  );
  /** Resolves when `done` holds for the output so far, checked at each chunk, as it arrives. */
  const until = (done: (text: string) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const finish = (error?: Error) => {
        check = undefined;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const fail = (why: string) => finish(new Error(`${why}; the REPL showed: ${plainText(output).slice(-800)}`));
      const timer = setTimeout(() => fail(`no ${what} within ${REPL_WAIT_MS / 1000} s`), REPL_WAIT_MS);
      check = () => {
        if (done(plainText(output))) finish();
        else if (exited) fail(`the REPL exited before ${what}`);
      };
      check();
    });
  const close = async () => {
    if (!exited) process.kill(-child.pid!, "SIGKILL");
    await closed;
  };
  child.on("error", () => void close());
  try {
    await until((text) => text.includes(prompt), `prompt "${prompt}"`);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    close,
    async ask(question, markers, keyGapMs = 0) {
      output = "";
      await typeKeys(child.stdin, question, keyGapMs);
      await until((text) => text.includes(question), "echo of the question");
      output = "";
      const seen: (SeenLine | undefined)[] = markers.map(() => undefined);
      const enter = performance.now();
      child.stdin.write("\r");
      await until((text) => {
        const lines = text.split("\n").slice(0, -1); // whole lines only: the last may be half written
        for (const [i, marker] of markers.entries()) {
          const line = seen[i] ? undefined : lines.find((candidate) => marker.test(candidate));
          if (line !== undefined) seen[i] = { ms: performance.now() - enter, line };
        }
        return ready.test(text);
      }, `end of the turn for "${question}"`);
      const missing = markers.filter((_, i) => !seen[i]);
      if (missing.length) throw new Error(`"${question}": no line matched ${missing.join(", ")}`);
      return seen as SeenLine[];
    },
  };
}

/**
 * Runs `fn` with every core kept busy by a process spinning at full speed, as on a machine shared with a
 * build or a test run: the figures say what a learner waits for when the machine is not theirs alone.
 */
export async function withCoresBusy<T>(fn: () => Promise<T>): Promise<T> {
  const spinners = os.cpus().map(() => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
  try {
    await Promise.all(
      spinners.map((child) => new Promise((spawned, failed) => child.once("spawn", spawned).once("error", failed))),
    );
    return await fn();
  } finally {
    for (const child of spinners) child.kill("SIGKILL");
  }
}

// ---------------------------------------------------------------- memory

/** GNU time reports the peak RSS of a process and of the children it waited for (%M, in KiB). */
const GNU_TIME = "/usr/bin/time";
/** Without GNU time, /proc/<pid>/status is read this often; VmHWM is the peak so far. */
const POLL_MS = 5;

let gnuTime: boolean | undefined;
export function hasGnuTime(): boolean {
  gnuTime ??= fs.existsSync(GNU_TIME) && spawnSync(GNU_TIME, ["-f", "%M", "true"]).status === 0;
  return gnuTime;
}

export interface PeakRss {
  /** Peak RSS in MB of the process, or of its largest child (rg) if that was larger. */
  peakMb: number;
  /** What the process wrote to stdout (a probe script reports its own peak there). */
  stdout: string;
}

/** Runs a command once and reports its peak memory. */
export function measurePeakRss(command: string, args: string[], cwd: string): Promise<PeakRss> {
  return hasGnuTime() ? peakWithGnuTime(command, args, cwd) : peakByPolling(command, args, cwd);
}

async function peakWithGnuTime(command: string, args: string[], cwd: string): Promise<PeakRss> {
  const report = path.join(os.tmpdir(), `scout-bench-rss-${process.pid}.txt`);
  const { stdout } = await collect(GNU_TIME, ["-f", "%M", "-o", report, command, ...args], cwd);
  const kib = Number(fs.readFileSync(report, "utf8").trim().split("\n").pop());
  fs.rmSync(report, { force: true });
  return { peakMb: kib / 1024, stdout };
}

/**
 * The fallback: samples the process's own VmHWM until it exits. It can miss
 * growth in the last few milliseconds and does not see children.
 */
async function peakByPolling(command: string, args: string[], cwd: string): Promise<PeakRss> {
  let peakKib = 0;
  const { stdout } = await collect(command, args, cwd, (pid) => {
    const timer = setInterval(() => {
      try {
        const match = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (match) peakKib = Math.max(peakKib, Number(match[1]));
      } catch {
        /* the process has just exited */
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  });
  return { peakMb: peakKib / 1024, stdout };
}

/** Runs to the end, keeping stdout (small here: tool output is capped) and dropping stderr. */
function collect(
  command: string,
  args: string[],
  cwd: string,
  watch?: (pid: number) => () => void,
): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    const stopWatching = child.pid !== undefined && watch ? watch(child.pid) : () => {};
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (stdout.length < 1_000_000) stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", () => {
      stopWatching();
      resolve({ stdout });
    });
  });
}

/** Types `keys` into a terminal: one key every keyGapMs, or, at 0, all at once as a paste does (one chunk). */
async function typeKeys(stdin: NodeJS.WritableStream, keys: string, keyGapMs: number): Promise<void> {
  if (keyGapMs === 0) {
    stdin.write(keys);
    return;
  }
  for (const key of keys) {
    stdin.write(key);
    await new Promise((done) => setTimeout(done, keyGapMs));
  }
}
