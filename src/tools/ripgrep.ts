// Runs the rg binary and hands over its output one line record at a time, within a deadline and a Ctrl-C.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

// CommonJS packages are required where first used, not imported (see workspace/ignore-rules.ts).
const require = createRequire(import.meta.url);

/** How much of rg's own error message is passed on. */
const MAX_STDERR_CHARS = 2000;

/** One line rg printed: a hit (rg's "12:text") or a context line ("12-text") of a file. */
export interface RgRecord {
  file: string;
  lineNumber: number;
  hit: boolean;
  text: string;
}

export interface RgOutcome {
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** rg said a binary file matches (for a file named explicitly, its only output). */
  binaryMatches: boolean;
}

export interface RgRun {
  root: string;
  signal?: AbortSignal;
  /** rg is killed at this time (Date.now() milliseconds). */
  deadline: number;
}

/**
 * Runs rg with no shell and stdin closed, and yields its records as they
 * arrive. A loop that stops early (break) kills rg, so a pattern with
 * millions of hits costs no more memory than one with a hundred. `outcome`
 * is complete once the loop is over.
 */
export async function* ripgrep(args: string[], { root, signal, deadline }: RgRun, outcome: RgOutcome) {
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH; // no user config can add options
  const { rgPath } = require("@vscode/ripgrep") as typeof import("@vscode/ripgrep"); // where the rg binary is
  const rg = spawn(rgPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let closed = false;
  const exit = new Promise<number | null>((resolve) =>
    rg.on("close", (code) => {
      closed = true;
      resolve(code);
    }),
  );
  const stop = () => rg.kill("SIGKILL");
  const timer = setTimeout(
    () => {
      outcome.timedOut = true;
      stop();
    },
    Math.max(0, deadline - Date.now()),
  );
  const onAbort = () => {
    outcome.aborted = true;
    stop();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  rg.stderr.on("data", (chunk: Buffer) => {
    if (outcome.stderr.length < MAX_STDERR_CHARS)
      outcome.stderr = (outcome.stderr + chunk.toString()).slice(0, MAX_STDERR_CHARS);
  });
  let startError: string | undefined;
  rg.on("error", (error) => {
    startError = `could not start rg: ${error.message}`;
  });

  let stoppedEarly = true; // until the loop below runs to the end
  try {
    for await (const record of splitRecords(rg.stdout)) {
      if (record.file === undefined) {
        outcome.binaryMatches ||= record.text.includes(": binary file matches (");
        continue;
      }
      const match = /^(\d+)([:-])(.*)$/s.exec(record.text);
      if (!match) continue;
      const [, number, mark, text] = match; // mark is ":" for a hit, "-" for context
      yield { file: record.file.replace(/^\.\//, ""), lineNumber: Number(number), hit: mark === ":", text } as RgRecord;
    }
    stoppedEarly = false;
  } finally {
    if (stoppedEarly && !closed) stop();
    const code = await exit;
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    if (startError !== undefined) {
      outcome.stderr = startError;
      outcome.exitCode = 2;
    } else outcome.exitCode = stoppedEarly ? 0 : code;
  }
}

/** rg's notes on a binary file, lines with no NUL: "a.bin: binary file matches (found …)" and "a.bin: WARNING: stopped searching …". */
const RG_BINARY_NOTE =
  /: (binary file matches|WARNING: stopped searching binary file after match) \(found ".*" byte around offset \d+\)$/;

/**
 * Cuts rg's --null output into records: a path, a NUL, then "12:text" (a
 * hit) or "12-text" (context) up to a newline. The path is everything up to
 * the NUL, so a newline or CR inside a file name cannot pass for the start
 * of a record about another file, and a CR inside a line stays in its text.
 * rg's notes on binary files have no NUL; they come as records with no file.
 */
async function* splitRecords(stdout: AsyncIterable<Buffer>): AsyncGenerator<{ file?: string; text: string }> {
  let pending: Buffer = Buffer.alloc(0); // less than one record
  try {
    for await (const chunk of stdout) {
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (;;) {
        const nul = pending.indexOf(0, start);
        const lineEnd = pending.indexOf(0x0a, start);
        if (lineEnd !== -1 && (nul === -1 || lineEnd < nul)) {
          // A line before any NUL: rg's note on a binary file, or the start of a path that holds a newline.
          const line = pending.toString("utf8", start, lineEnd);
          if (RG_BINARY_NOTE.test(line)) {
            yield { text: line };
            start = lineEnd + 1;
            continue;
          }
        }
        const newline = nul === -1 ? -1 : pending.indexOf(0x0a, nul);
        if (newline === -1) break;
        const text = pending.toString("utf8", nul + 1, pending[newline - 1] === 0x0d ? newline - 1 : newline); // CRLF files too
        const file = pending.toString("utf8", start, nul);
        start = newline + 1;
        yield { file, text };
      }
      pending = pending.subarray(start);
    }
  } catch {
    // rg could not start or was killed: its stream ends here, and the outcome says why
  }
  for (const line of pending.toString("utf8").split("\n")) if (line !== "") yield { text: line };
}
