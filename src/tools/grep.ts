// grep: search file contents with ripgrep (the rg binary shipped in
// @vscode/ripgrep), files newest first (ties by path), with memory bounded
// however many lines match.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { DENIED_GLOBS, NOISE_DIRS } from "../workspace.js";
import { checkPattern } from "./glob.js";
import { MAX_RESULT_LINES, checkSearchPath, clipLine, fail, ok, type Tool } from "./tool.js";

/** Matched and context lines are clipped to this many characters. */
export const MAX_MATCH_CHARS = 200;
/** rg is killed after this long, and the model is told. */
export const RG_TIMEOUT_MS = 10_000;
/**
 * Up to this many lines, one parallel rg pass collects every hit and Scout
 * sorts them; past it, rg searches again newest file first and stops at the
 * cap. (Parallel rg is ~2.5× faster on 2 cores when hits are few; sorted rg
 * wins when they are many, as it can stop early.)
 */
const FEW_LINES = 1000;
/** Most lines of context the model may ask for around each hit. */
export const MAX_CONTEXT = 5;
/** How much of rg's own error message is passed on. */
const MAX_STDERR_CHARS = 2000;
/** rg shows only a preview of longer lines, which bounds what one line sends through the pipe. */
const RG_MAX_COLUMNS = 1000;

interface Args {
  pattern: string;
  path?: string;
  include?: string;
  context?: number;
}

export const grep: Tool<Args> = {
  name: "grep",
  description:
    `Search file contents with ripgrep. pattern is a Rust regex (prefix (?i) for case-insensitive; escape regex characters such as "(" to match them literally). ` +
    `Output lines are "path:line:text" for hits and "path-line-text" for context lines, "--" between groups; ` +
    `files newest first (by modification time), lines in file order; at most ${MAX_RESULT_LINES} lines, each clipped at ${MAX_MATCH_CHARS} characters. ` +
    `Ignored files (.gitignore, .ignore, node_modules) and protected files are not searched.`,
  input_schema: {
    type: "object",
    properties: {
      pattern: { type: "string", description: 'Rust regex to search for, e.g. "fn main" or "(?i)todo"' },
      path: {
        type: "string",
        description: 'file or directory to search, relative to the workspace root (default ".")',
      },
      include: {
        type: "string",
        description:
          'only search files matching this glob: "*.ts" matches the name at any depth, "src/**/*.py" the path from the workspace root',
      },
      context: {
        type: "integer",
        minimum: 0,
        maximum: MAX_CONTEXT,
        description: `lines of context before and after each hit, 0-${MAX_CONTEXT} (default 0)`,
      },
    },
    required: ["pattern"],
    additionalProperties: false,
  },

  async run({ pattern, path: input = ".", include, context = 0 }, { workspace, signal }) {
    if (pattern === "") return fail('pattern must not be empty; to list files use glob with "**/*"');
    if (include !== undefined) {
      const problem = include.startsWith("!")
        ? `include "${include}" must name the files to search; excluding with "!" is not supported`
        : checkPattern(include, "include");
      if (problem) return fail(problem);
    }
    const resolved = workspace.resolveInWorkspace(input);
    if (!resolved.ok) return fail(resolved.error);
    const target = checkSearchPath(workspace, resolved, { filesAllowed: true });
    if (target.error) return fail(target.error);

    const args = rgArguments(pattern, include, context, workspace.toRelative(resolved.abs));
    const search = {
      root: workspace.root,
      signal,
      deadline: Date.now() + RG_TIMEOUT_MS,
      context,
      // Only files the shared visibility rules allow; a file named explicitly is always searched.
      keep: (file: string) => !target.isDirectory || workspace.isVisible(file),
    };
    const output = new NewestFirst(context > 0);

    // Most searches hit few lines: one parallel rg finds them all, and they are sorted here.
    const found: FileLines[] = [];
    let foundLines = 0;
    let result = await searchFiles(args, search, (file) => {
      found.push(file);
      foundLines += file.lines.length;
      return foundLines <= FEW_LINES;
    });
    if (result.stopped) {
      // Many lines: rg again, newest files first (one thread), stopped once the cap is full.
      result = await searchFiles(["--sortr=modified", ...args], search, (file) => output.add(file));
    } else {
      found.sort((a, b) => (a.mtimeNs === b.mtimeNs ? (a.file < b.file ? -1 : 1) : a.mtimeNs > b.mtimeNs ? -1 : 1));
      for (const file of found) if (!output.add(file)) break;
    }
    const { lines, cut } = output.finish();

    const where = `${resolved.rel === "." ? "the workspace" : resolved.rel}${include ? ` (files matching ${include})` : ""}`;
    if (result.aborted) return fail("grep was cancelled");
    if (result.timedOut) {
      return fail(`rg timed out after ${RG_TIMEOUT_MS / 1000} s and was stopped; narrow the pattern, path or include`);
    }
    if (result.exitCode === 2 && lines.length === 0) {
      return fail(`rg could not search: ${workspace.redact(result.stderr).trim()}`);
    }
    if (lines.length === 0 && result.binaryMatches && !target.isDirectory) {
      return ok(
        `${resolved.rel} is a binary file that matches /${pattern}/; its lines are not shown`,
        "binary file matches",
      );
    }
    if (lines.length === 0) return ok(`No matches for /${pattern}/ in ${where}.`, "no matches");

    const text = lines.map((line) => (line === "--" ? line : line.text));
    if (cut)
      text.push(`(showing the first ${MAX_RESULT_LINES} lines; more matches exist — narrow pattern, path or include)`);
    if (result.exitCode === 2)
      text.push(`(rg skipped some files: ${workspace.redact(result.stderr).trim().split("\n")[0]})`);
    const shown = lines.filter((line) => line !== "--");
    const hits = shown.filter((line) => line.hit).length;
    const files = new Set(shown.map((line) => line.file)).size;
    return ok(
      text.join("\n"),
      `${hits} matching line${hits === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}`,
    );
  },
};

/** rg's arguments, all but the sort order. */
function rgArguments(pattern: string, include: string | undefined, context: number, searchPath: string): string[] {
  return [
    // --null ends every path with a NUL, the one byte a file name cannot hold (see splitRecords).
    "--no-config",
    "--null",
    "--line-number",
    "--with-filename",
    "--no-heading",
    "--color=never",
    "--no-context-separator", // a "--" line could be the start of a file name; groups are told by line numbers
    "--hidden", // dotfiles are visible unless a rule below hides them
    // rg prunes with .gitignore files as a speed-up and isVisible filters every hit, so rg
    // must never hide more than isVisible does: .rgignore and .ignore (--no-ignore-dot),
    // git's exclude/global files and ignore files above the workspace are off.
    "--no-require-git",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-global",
    "--no-ignore-parent",
    "--no-ignore-messages", // rg quotes bad ignore-file lines, and a symlinked .gitignore can be any file
    `--max-columns=${RG_MAX_COLUMNS}`,
    "--max-columns-preview",
    // Hits per file: one huge file cannot flood the pipe, and one over the cap says more exist.
    `--max-count=${MAX_RESULT_LINES + 1}`,
    // Protected names in any case, noise folders exactly as isVisible matches them.
    ...DENIED_GLOBS.map((glob) => `--iglob=${glob}`),
    ...NOISE_DIRS.map((dir) => `--glob=!${dir}/`),
    ...(include ? [`--glob=${include}`] : []),
    ...(context > 0 ? [`--context=${context}`] : []),
    `--regexp=${pattern}`, // one argument, so a pattern like "--files" is a pattern, not an option
    "--",
    searchPath,
  ];
}

/** One output line: a hit or context line of a file, or "--" between groups. */
type Line = { file: string; hit: boolean; text: string } | "--";
/** What rg printed for one file, in file order. */
interface FileLines {
  file: string;
  mtimeNs: bigint;
  lines: Line[];
}

/**
 * Puts rg's output in the promised order, newest file first and ties by
 * path, keeping little more than the cap. rg sorts by mtime, but files with
 * the same mtime come in directory order, which differs between machines, so
 * each run of files with equal mtimes is held back and sorted by path.
 */
class NewestFirst {
  private placed: FileLines[] = [];
  private ties: FileLines[] = [];
  private cut = false;
  constructor(private readonly separateFiles: boolean) {}

  /** Adds the next file rg printed; false once no file after it can be shown. */
  add(next: FileLines): boolean {
    if (this.ties.length > 0 && this.ties[0].mtimeNs !== next.mtimeNs) {
      this.placed.push(...this.ties);
      this.ties = [];
      if (this.size(this.placed) > MAX_RESULT_LINES) return false;
    }
    this.ties.push(next);
    this.ties.sort((a, b) => (a.file < b.file ? -1 : 1));
    // A tied file that would start past the cap is dropped now, so memory stays bounded.
    while (this.ties.length > 1 && this.size([...this.placed, ...this.ties.slice(0, -1)]) >= MAX_RESULT_LINES) {
      this.ties.pop();
      this.cut = true;
    }
    return true;
  }

  /** The lines to show, with "--" between files when there is context, and whether any were cut. */
  finish(): { lines: Line[]; cut: boolean } {
    const all = [...this.placed, ...this.ties].flatMap((file, i) =>
      i > 0 && this.separateFiles ? ["--" as const, ...file.lines] : file.lines,
    );
    const lines = all.slice(0, MAX_RESULT_LINES);
    if (lines.at(-1) === "--") lines.pop();
    return { lines, cut: this.cut || all.length > MAX_RESULT_LINES };
  }

  private size(files: FileLines[]): number {
    const separators = this.separateFiles ? Math.max(0, files.length - 1) : 0;
    return files.reduce((sum, file) => sum + file.lines.length, separators);
  }
}

/** A file's mtime to the nanosecond, as rg sorted by it; undefined when there is no such file. */
function mtimeOf(root: string, file: string): bigint | undefined {
  try {
    return fs.statSync(path.join(root, file), { bigint: true }).mtimeNs;
  } catch {
    return undefined;
  }
}

interface Search {
  root: string;
  signal?: AbortSignal;
  deadline: number;
  context: number;
  keep: (file: string) => boolean;
}
interface SearchOutcome extends RgOutcome {
  stopped: boolean;
  binaryMatches: boolean;
}

/**
 * Runs rg and hands its output over one file at a time (rg prints each
 * file's lines together, even when it searches in parallel), until
 * `onFile` returns false.
 */
async function searchFiles(
  args: string[],
  search: Search,
  onFile: (file: FileLines) => boolean,
): Promise<SearchOutcome> {
  let current: FileLines | undefined; // the file rg is printing
  let lastLine = 0; // its line number rg printed last
  let binaryMatches = false;
  let stopped = false;
  const outcome = await runRipgrep(args, search, (path, text) => {
    if (path === undefined) {
      // A note on a binary file; for one named explicitly, rg's only line: "file: binary file matches (found …)".
      binaryMatches ||= text.includes(": binary file matches (");
      return true;
    }
    const file = path.replace(/^\.\//, "");
    const match = /^(\d+)([:-])(.*)$/s.exec(text);
    if (!match || !search.keep(file)) return true;
    const [, number, mark, rest] = match; // mark is ":" for a hit, "-" for context
    const lineNumber = Number(number);
    if (current?.file !== file) {
      if (current && !onFile(current)) {
        current = undefined;
        stopped = true;
        return false;
      }
      const mtimeNs = mtimeOf(search.root, file);
      if (mtimeNs === undefined) {
        current = undefined; // no such file (it vanished, or the output was misread): no lines under that name
        return true;
      }
      current = { file, mtimeNs, lines: [] };
    } else if (search.context > 0 && lineNumber > lastLine + 1) {
      current.lines.push("--"); // between groups of one file; those between files are added later
    }
    lastLine = lineNumber;
    current.lines.push({
      file,
      hit: mark === ":",
      text: `${file}${mark}${lineNumber}${mark}${clipLine(rest, MAX_MATCH_CHARS)}`,
    });
    return true;
  });
  if (current && !onFile(current)) stopped = true;
  return { ...outcome, stopped, binaryMatches };
}

interface RgOutcome {
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

/** Takes one record of rg's output (see splitRecords); returns false to stop rg. */
type OnRecord = (path: string | undefined, text: string) => boolean;

/**
 * Runs rg with no shell and stdin closed, handing each output record to
 * `onRecord` until it returns false; then rg is killed, so a pattern with
 * millions of hits costs no more memory than one with a hundred.
 */
function runRipgrep(args: string[], { root, signal, deadline }: Search, onRecord: OnRecord): Promise<RgOutcome> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH; // no user config can add options
    const rg = spawn(rgPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    const outcome: RgOutcome = { exitCode: null, stderr: "", timedOut: false, aborted: false };
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

    let stopped = false;
    const records = splitRecords((path, text) => {
      stopped = !onRecord(path, text);
      if (stopped) stop();
      return !stopped;
    });
    rg.stdout.on("data", (chunk: Buffer) => {
      if (!stopped) records.push(chunk);
    });
    rg.stdout.on("end", () => {
      if (!stopped) records.end();
    });
    rg.stderr.on("data", (chunk: Buffer) => {
      if (outcome.stderr.length < MAX_STDERR_CHARS)
        outcome.stderr = (outcome.stderr + chunk.toString()).slice(0, MAX_STDERR_CHARS);
    });
    rg.on("error", (error) => {
      outcome.stderr = `could not start rg: ${error.message}`;
      outcome.exitCode = 2;
    });
    rg.on("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (outcome.exitCode === null) outcome.exitCode = stopped ? 0 : code;
      resolve(outcome);
    });
  });
}

/** rg's notes on a binary file, lines with no NUL: "a.bin: binary file matches (found …)" and "a.bin: WARNING: stopped searching …". */
const RG_BINARY_NOTE =
  /: (binary file matches|WARNING: stopped searching binary file after match) \(found ".*" byte around offset \d+\)$/;

/**
 * Cuts rg's --null output into records: a path, a NUL, then "12:text" (a
 * hit) or "12-text" (context) up to a newline. The path is everything up to
 * the NUL, so a newline or CR inside a file name cannot pass for the start
 * of a record about another file, and a CR inside a line stays in its text.
 * rg's notes on binary files have no NUL; they come as records with no path.
 */
function splitRecords(onRecord: OnRecord): { push(chunk: Buffer): void; end(): void } {
  let pending: Buffer = Buffer.alloc(0); // less than one record
  return {
    push(chunk) {
      pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (;;) {
        const nul = pending.indexOf(0, start);
        const lineEnd = pending.indexOf(0x0a, start);
        if (lineEnd !== -1 && (nul === -1 || lineEnd < nul)) {
          // A line before any NUL: rg's note on a binary file, or the start of a path that holds a newline.
          const line = pending.toString("utf8", start, lineEnd);
          if (RG_BINARY_NOTE.test(line)) {
            onRecord(undefined, line);
            start = lineEnd + 1;
            continue;
          }
        }
        const newline = nul === -1 ? -1 : pending.indexOf(0x0a, nul);
        if (newline === -1) break;
        const text = pending.toString("utf8", nul + 1, pending[newline - 1] === 0x0d ? newline - 1 : newline); // CRLF files too
        const keepGoing = onRecord(pending.toString("utf8", start, nul), text);
        start = newline + 1;
        if (!keepGoing) break;
      }
      pending = pending.subarray(start);
    },
    end() {
      for (const line of pending.toString("utf8").split("\n")) if (line !== "") onRecord(undefined, line);
    },
  };
}
