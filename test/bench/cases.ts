// What the benchmark measures: each tool, in-process and through the CLI,
// next to the fastest way to get the same answer without Scout.
import { tools } from "../../src/core/scout.js";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { rgPath } from "@vscode/ripgrep";
import fg from "fast-glob";
import { rgArguments } from "../../src/guards/rg-search.js";
import { runTool } from "../../src/core/tool.js";
import { MEMORY_WATCHED } from "../../src/guards/ripgrep.js";
import { DEFAULT_DESIGN } from "../../src/lab/designs.js";
import { Workspace } from "../../src/core/workspace.js";
import {
  measurePeakRss,
  runProcess,
  startRepl,
  summarize,
  stopAfterLines,
  timeEnterToOutput,
  timeInterleaved,
  timeToOutput,
  WARMUP_RUNS,
  type SelfTimed,
  type Timing,
  withCoresBusy,
} from "./measure.js";
import { ensureTree, TOKENS, type Manifest, type TreeSize } from "./tree.js";

/** The repository: `npm run` starts scripts there (the bench runs from its compiled copy under node_modules/.cache). */
export const REPO_ROOT = process.cwd();
/** What `scout` runs (package.json's bin: src/scout.cts, in front of the bundle). */
export const CLI = path.join(REPO_ROOT, "dist", "scout.cjs");
const DIST_URL = pathToFileURL(path.join(REPO_ROOT, "dist")).href;

/** The grep tool shows this many lines, so the raw `| head` form stops there too. */
const HEAD_LINES = 100;
/** Memory is near-deterministic: a few runs, the largest kept. */
const MEMORY_RUNS = 3;

/**
 * Raw rg with the file set the tools see: dotfiles included, .gitignore obeyed
 * without a git repository, node_modules and .git skipped.
 */
const RG_FILTERS = ["--no-config", "--hidden", "--no-require-git", "--glob=!.git/", "--glob=!node_modules/"];

/**
 * The arguments the grep tool gives rg for many hits, read in order: rgArguments from grep.ts, after the sort
 * and with the --json that ripgrep.ts adds (no ignore-file arguments: the bench tree has no exclude file and
 * no ignore file Scout skips). Timing rg alone with them shows how much of the tool's time is rg's and how
 * much is Node's.
 */
const toolRgArgs = (pattern: string) => [
  "--json",
  "--sortr=modified",
  ...rgArguments(pattern, undefined, 0, ".", DEFAULT_DESIGN.cap, !MEMORY_WATCHED),
];

export const GROUPS = ["grep", "glob", "read", "startup", "memory", "repl", "repl-tools"] as const;
export type Group = (typeof GROUPS)[number];

export interface Context {
  root: string;
  manifest: Manifest;
  /** Which generated tree `root` is: the repl-tools group also measures on the learner-sized one. */
  size: TreeSize;
  runs: number;
  log: (line: string) => void;
  /** `--compare DIR`: another checkout's built CLI (its bin, dist/scout.cjs, or an older one's dist/cli.js), timed beside this one's. */
  compareCli?: string;
}

export interface TimingRow extends Timing {
  section: string;
  /** "section-key/case-id", e.g. "grep-rare/tool-cli": what the targets look up. */
  id: string;
  label: string;
  /**
   * The fastest baseline of the section, and this row's median over it. For a
   * row through the CLI (a new Node process), the baseline is that plus
   * `node -e 0`, timed in the same section: Node's own start-up is in both.
   */
  baseline?: string;
  ratio?: number;
  /** The same for the minimums: steadier when other work comes and goes on the machine. */
  minRatio?: number;
  /** What the last run found, to check that the forms compared give the same answer. */
  note?: string;
}
export interface MemoryRow {
  id: string;
  label: string;
  /** Peak RSS of the process, or of its largest child (rg) if that was larger. */
  peakMb: number;
  /** For an in-process probe: the peak of the Node process alone. */
  nodeOnlyMb?: number;
  /** Rows that are one tool call, which the 100 MB target applies to. */
  toolCall: boolean;
}

/** One thing to time. `run` may return a note about what it found; a CLI case takes the CLI to run (compared). */
interface Case {
  id: string;
  label: string;
  run: (cli?: string) => Promise<string | void | SelfTimed>;
  /** A new Node process (the CLI): compared with the baseline plus `node -e 0`. */
  startsNode?: boolean;
}

/**
 * The start-up sections run at least this many times, whatever --runs says: each run takes ~0.1 s, and a
 * median of 5 moved by 15% with one busy spell of a shared machine (2026-12-03, the same code: read_file
 * 1.28x and 1.42x in two full runs, its 5 samples 77-111 ms).
 */
export const STARTUP_MIN_RUNS = 21;

/** The id of the `node -e 0` case in a section with CLI rows. */
const NODE_CASE = "node";

/**
 * Times the cases of one section (never two at once: the machine has 2
 * cores), then sets every row's ratio against the fastest baseline case.
 */
async function measureSection(
  ctx: Pick<Context, "runs" | "log">,
  { key, title: section }: { key: string; title: string },
  cases: Case[],
  baselineIds: string[],
): Promise<TimingRow[]> {
  ctx.log(`  ${section}: ${cases.map((c) => c.label).join("; ")}`);
  const notes: (string | undefined)[] = [];
  const timings = await timeInterleaved(
    ctx.runs,
    cases.map((c) => c.run),
    (i, result) => {
      notes[i] = typeof result === "string" ? result : undefined;
    },
  );
  const rows: TimingRow[] = cases.map((c, i) => ({
    section,
    id: `${key}/${c.id}`,
    label: c.label,
    ...timings[i],
    note: notes[i],
  }));
  return withRatios(key, rows, cases, baselineIds);
}

/** Sets every row's ratio against the fastest of the section's baseline rows (plus `node -e 0` for a CLI row). */
function withRatios(key: string, rows: TimingRow[], cases: Partial<Case>[], baselineIds: string[]) {
  const byId = (id: string) => rows.find((row) => row.id === `${key}/${id}`);
  const bases = baselineIds.map(byId).filter((row) => row !== undefined);
  const base = [...bases].sort((a, b) => a.medianMs - b.medianMs)[0];
  const node = byId(NODE_CASE);
  if (base)
    for (const [i, row] of rows.entries()) {
      const plusNode = cases[i].startsNode && node && node !== base;
      Object.assign(row, {
        baseline: plusNode ? `${base.label} + ${node.label}` : base.label,
        ratio: row.medianMs / (base.medianMs + (plusNode ? node.medianMs : 0)),
        minRatio: row.minMs / (base.minMs + (plusNode ? node.minMs : 0)),
      });
    }
  return rows;
}

/** `node -e 0`: a new Node process that does nothing, the floor of every CLI row. */
function nodeCase(cwd: string): Case {
  return {
    id: NODE_CASE,
    label: "node -e 0",
    run: async () => void (await runProcess(process.execPath, ["-e", "0"], { cwd })),
  };
}

// ---------------------------------------------------------------- shared runners

/** One tool call in this process, with a fresh Workspace (no ignore rules cached yet), as a new session's first call. */
async function toolInProcess(root: string, name: string, input: object): Promise<string> {
  const result = await runTool(name, input, { workspace: new Workspace(root) }, tools);
  if (result.isError) throw new Error(`${name} failed: ${result.content}`);
  return result.summary ?? "";
}

/** The same call through the built CLI, a new Node process each time. */
async function toolCli(root: string, name: string, input: object, cli = CLI): Promise<void> {
  const { code } = await runProcess(process.execPath, [cli, "tool", name, JSON.stringify(input)], { cwd: root });
  if (code !== 0) throw new Error(`scout tool ${name} exited with ${code}`);
}

/** With --compare, the same CLI case run by the other checkout's CLI, so before and after share one run's load. */
function compared(ctx: Context, c: Case): Case[] {
  const other = ctx.compareCli;
  if (!other) return [c];
  return [c, { ...c, id: `compare-${c.id}`, label: `(compare) ${c.label}, --compare CLI`, run: () => c.run(other) }];
}

/** Stats the files and orders them newest first: what "sorted by mtime afterwards" costs. */
function sortByMtime(root: string, files: string[]): string[] {
  const mtimes = new Map(files.map((file) => [file, fs.statSync(path.join(root, file)).mtimeMs]));
  return [...files].sort((a, b) => mtimes.get(b)! - mtimes.get(a)!);
}

/**
 * Collects file names from rg's `--heading --null` output: each file's
 * heading is its path ended by a NUL (matched lines of a text file hold none).
 */
function headingCollector(files: string[]): (chunk: Buffer) => void {
  let carry: Buffer = Buffer.alloc(0); // the unfinished last line of the previous chunk
  return (chunk) => {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let lastNul = -1;
    for (let nul = buf.indexOf(0); nul !== -1; nul = buf.indexOf(0, nul + 1)) {
      files.push(buf.toString("utf8", buf.lastIndexOf(10, nul) + 1, nul));
      lastNul = nul;
    }
    carry = buf.subarray(Math.max(buf.lastIndexOf(10), lastNul) + 1);
  };
}

/** File names from NUL-separated output (`--files-with-matches --null`). */
function nulListCollector(files: string[]): (chunk: Buffer) => void {
  let carry = "";
  return (chunk) => {
    const parts = (carry + chunk.toString("utf8")).split("\0");
    carry = parts.pop()!;
    files.push(...parts);
  };
}

/** An onData that counts output lines into `counter.lines`. */
function lineCounter(counter: { lines: number }): (chunk: Buffer) => void {
  return (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) counter.lines++;
  };
}

// ---------------------------------------------------------------- grep

async function grepCases(ctx: Context): Promise<TimingRow[]> {
  const { root } = ctx;
  const rows: TimingRow[] = [];
  for (const [kind, pattern] of Object.entries(TOKENS)) {
    const input = { pattern };
    const cases: Case[] = [
      { id: "tool-in-process", label: "grep tool, in-process", run: () => toolInProcess(root, "grep", input) },
      ...compared(ctx, {
        id: "tool-cli",
        label: "grep tool, CLI",
        run: (cli) => toolCli(root, "grep", input, cli),
        startsNode: true,
      }),
      nodeCase(root),
      ...rgGrepAnchors(root, pattern),
      {
        id: "rg-tool-args",
        label: `(info) rg with the tool's arguments | head -${HEAD_LINES}`,
        run: async () =>
          void (await runProcess(rgPath, toolRgArgs(pattern), { cwd: root, onData: stopAfterLines(HEAD_LINES) })),
      },
    ];
    const section = { key: `grep-${kind}`, title: `grep ${kind} (${pattern})` };
    rows.push(...(await measureSection(ctx, section, cases, RG_GREP_ANCHORS)));
  }
  return rows;
}

/** The ids of rgGrepAnchors' cases: a grep row's ratio is to the faster of them. */
const RG_GREP_ANCHORS = ["rg-sortr-head", "rg-parallel-sorted"];

/** Raw rg's two ways to grep's newest-first answer: rg sorting (one thread) and stopping at the cap, or parallel rg sorted after. */
function rgGrepAnchors(root: string, pattern: string): Case[] {
  return [
    {
      id: "rg-sortr-head",
      label: `rg --sortr modified | head -${HEAD_LINES}`,
      run: async () => {
        const args = [...RG_FILTERS, "--line-number", "--no-heading", "--sortr=modified", `--regexp=${pattern}`];
        const { killed } = await runProcess(rgPath, args, { cwd: root, onData: stopAfterLines(HEAD_LINES) });
        return killed ? `stopped after ${HEAD_LINES} lines` : "ran to the end";
      },
    },
    {
      id: "rg-parallel-sorted",
      label: "rg (parallel), all output, sorted by mtime",
      run: async () => {
        const files: string[] = [];
        const args = [...RG_FILTERS, "--line-number", "--heading", "--null", `--regexp=${pattern}`];
        const { stdoutBytes } = await runProcess(rgPath, args, { cwd: root, onData: headingCollector(files) });
        sortByMtime(root, files);
        return `${files.length.toLocaleString("en")} files, ${(stdoutBytes / 1e6).toFixed(1)} MB output`;
      },
    },
  ];
}

// ---------------------------------------------------------------- glob

/**
 * The patterns: one language, and one matching every file. rg gets the same
 * file set with `--glob` for the first; for "**\/*" it gets none, because an
 * rg glob that matches a directory overrides .gitignore for everything in it.
 */
const GLOB_PATTERNS = [
  // The anchors, as issue 28 states them: `rg --files --sortr modified -g '*.ts'` for one language (newest first,
  // as the tool lists), plain `rg --files` for every file.
  { key: "glob-ts", pattern: "**/*.ts", rgGlobs: ["*.ts"], anchor: "rg-files-sortr" },
  { key: "glob-all", pattern: "**/*", rgGlobs: [], anchor: "rg-files" },
];

async function globCases(ctx: Context): Promise<TimingRow[]> {
  const { root } = ctx;
  const rows: TimingRow[] = [];
  for (const { key, pattern, rgGlobs, anchor } of GLOB_PATTERNS) {
    const input = { pattern };
    const rgArgs = rgFilesArgs(rgGlobs);
    const cases: Case[] = [
      { id: "tool-in-process", label: "glob tool, in-process", run: () => globTotal(root, input) },
      ...compared(ctx, {
        id: "tool-cli",
        label: "glob tool, CLI",
        run: (cli) => toolCli(root, "glob", input, cli),
        startsNode: true,
      }),
      nodeCase(root),
      rgFilesSortrAnchor(root, rgGlobs),
      {
        id: "rg-files",
        label: `rg --files${rgGlobs.map((glob) => ` -g '${glob}'`).join("")}, unsorted`,
        run: async () => {
          const counter = { lines: 0 };
          await runProcess(rgPath, rgArgs, { cwd: root, onData: lineCounter(counter) });
          return `${counter.lines.toLocaleString("en")} files`;
        },
      },
      {
        // A candidate for the tool: rg walks in parallel and applies .gitignore, Node stats only what matched.
        id: "rg-files-stat",
        label: "(info) the same + stat each, sorted by mtime",
        run: async () => {
          const files: string[] = [];
          await runProcess(rgPath, [...rgArgs, "--null"], { cwd: root, onData: nulListCollector(files) });
          return `${sortByMtime(root, files).length.toLocaleString("en")} files`;
        },
      },
      {
        id: "fast-glob",
        label: `fast-glob alone, {dot: true}`,
        run: async () =>
          `${(await fg(pattern, { cwd: root, dot: true })).length.toLocaleString("en")} files (ignore rules not applied)`,
      },
      {
        // The tool's walk before its visibility filter and newest-first list: how much each step costs.
        id: "fast-glob-stats",
        label: "(info) fast-glob + stats, as the tool walks",
        run: async () => {
          const entries = await fg(pattern, {
            cwd: root,
            dot: true,
            onlyFiles: true,
            stats: true,
            suppressErrors: true,
            ignore: ["**/node_modules/**", "**/.git/**"],
          });
          return `${entries.length.toLocaleString("en")} files (ignore rules not applied)`;
        },
      },
    ];
    rows.push(...(await measureSection(ctx, { key, title: `glob ${pattern}` }, cases, [anchor])));
  }
  return rows;
}

/** rg listing the file set the tools see, only the names matching `globs` (rg's --glob syntax), if any. */
const rgFilesArgs = (globs: string[]) => [...RG_FILTERS, "--files", ...globs.map((glob) => `--glob=${glob}`)];

/** glob's anchor: rg sorts by mtime itself (single-threaded); the newest 100 are the first lines. */
function rgFilesSortrAnchor(root: string, globs: string[]): Case {
  return {
    id: "rg-files-sortr",
    label: `rg --files --sortr modified${globs.map((glob) => ` -g '${glob}'`).join("")}`,
    run: async () => {
      const counter = { lines: 0 };
      await runProcess(rgPath, [...rgFilesArgs(globs), "--sortr=modified"], {
        cwd: root,
        onData: lineCounter(counter),
      });
      return `${counter.lines.toLocaleString("en")} files`;
    },
  };
}

/** The glob tool in-process; the note is the total it reports, to compare with rg's count. */
async function globTotal(root: string, input: object): Promise<string> {
  const result = await runTool("glob", input, { workspace: new Workspace(root) }, tools);
  if (result.isError) throw new Error(`glob failed: ${result.content}`);
  return result.summary ?? "";
}

// ---------------------------------------------------------------- read_file

async function readCases(ctx: Context): Promise<TimingRow[]> {
  const { root, manifest } = ctx;
  const { path: file, lines } = manifest.bigFile;
  const rows: TimingRow[] = [];
  // The tool streams the whole file to count its lines, so a whole-file read is its floor.
  const floors: Case[] = [
    {
      id: "stream-count",
      label: "stream the file, count lines (Node)",
      run: async () => {
        let count = 0;
        for await (const chunk of fs.createReadStream(path.join(root, file)) as AsyncIterable<Buffer>) {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) count++;
        }
        return `${count.toLocaleString("en")} lines`;
      },
    },
    {
      id: "wc-l",
      label: "wc -l (a process)",
      run: async () => void (await runProcess("wc", ["-l", file], { cwd: root })),
    },
  ];
  for (const [where, offset] of [
    ["start", 1],
    ["end", lines - HEAD_LINES + 1],
  ] as const) {
    const input = { path: file, offset };
    const cases: Case[] = [
      {
        id: "tool-in-process",
        label: "read_file tool, in-process",
        run: () => toolInProcess(root, "read_file", input),
      },
      ...compared(ctx, {
        id: "tool-cli",
        label: "read_file tool, CLI",
        run: (cli) => toolCli(root, "read_file", input, cli),
        startsNode: true,
      }),
      nodeCase(root),
      ...floors,
    ];
    const mib = (manifest.bigFile.bytes / 2 ** 20).toFixed(1);
    const section = { key: `read-${where}`, title: `read_file ${where} of a ${mib} MiB file (offset ${offset})` };
    rows.push(...(await measureSection(ctx, section, cases, ["stream-count"])));
  }
  return rows;
}

// ---------------------------------------------------------------- start-up

/** util-linux `script` runs a command on a new pseudo-terminal: the REPL only prompts on a terminal. */
const SCRIPT = "/usr/bin/script";
/** What the REPL writes when it is ready for a question. */
const REPL_PROMPT = "you > ";
/** One argument of the command line `script -c` hands to a shell. */
const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
/** The REPL, offline, as `script -c` runs it. */
const REPL_COMMAND = [process.execPath, CLI, "--offline"].map(shellQuote).join(" ");

async function startupCases(ctx: Context): Promise<TimingRow[]> {
  const node = (args: string[]) => async (cli?: string) =>
    void (await runProcess(process.execPath, [cli ?? CLI, ...args], { cwd: ctx.root }));
  const smallFile = ctx.manifest.rareVisibleFiles[0]; // an ordinary source file of a few KB
  return measureSection(
    { ...ctx, runs: Math.max(ctx.runs, STARTUP_MIN_RUNS) },
    { key: "startup", title: "start-up" },
    [
      nodeCase(ctx.root),
      ...compared(ctx, { id: "version", label: "scout --version", run: node(["--version"]) }),
      ...compared(ctx, { id: "tool-list", label: "scout tool --list", run: node(["tool", "--list"]) }),
      ...compared(ctx, {
        id: "read-small",
        label: `scout tool read_file (a ${(fs.statSync(path.join(ctx.root, smallFile)).size / 1000).toFixed(0)} KB file)`,
        run: (cli) => toolCli(ctx.root, "read_file", { path: smallFile }, cli),
      }),
    ],
    [NODE_CASE],
  );
}

// ---------------------------------------------------------------- the REPL

/** The REPL group needs no generated tree: it runs on the lessons' sample project. */
export interface ReplContext {
  runs: number;
  log: (line: string) => void;
}

/** Issue 22's target: the REPL's first answer within this many ms of Enter (the median, quiet or busy). */
export const FIRST_ANSWER_TARGET_MS = 300;

/**
 * The REPL on a terminal: its time to the prompt, then its first answer from Enter on the lessons' sample
 * project, the question typed at 10 keys a second (as a quick typist does, while the tokenizer builds on
 * another thread) or pasted at once, the moment the prompt appears. The first answer is timed twice: as
 * the machine is, and with every core kept busy by a spinning process, as on a machine shared with a build.
 */
async function replCases(ctx: ReplContext): Promise<TimingRow[]> {
  if (!fs.existsSync(SCRIPT)) {
    ctx.log(`  (no ${SCRIPT}: the REPL is not measured)`);
    return [];
  }
  const sample = path.join(REPO_ROOT, "lessons", "sample-project");
  // On a terminal, both timed to a marker in their output, so `script`'s own cost is in the baseline too.
  const onPty = (command: string, marker: string) => async () =>
    void (await timeToOutput(SCRIPT, ["-qfec", command, "/dev/null"], sample, marker));
  const nodeCommand = [process.execPath, "-e", "console.log('ready')"].map(shellQuote).join(" ");
  const rows = await measureSection(
    { ...ctx, runs: Math.max(ctx.runs, STARTUP_MIN_RUNS) },
    { key: "startup-pty", title: "start-up on a terminal (a pty made by script)" },
    [
      { id: NODE_CASE, label: "node -e \"console.log('ready')\" to its output", run: onPty(nodeCommand, "ready") },
      {
        id: "repl",
        label: `scout --offline (REPL) to its prompt "${REPL_PROMPT.trim()}"`,
        run: onPty(REPL_COMMAND, REPL_PROMPT),
      },
    ],
    [NODE_CASE],
  );
  // Timed from Enter (SelfTimed), not from the REPL's start: the prompt's time is the row above.
  const firstAnswer = (keyGapMs: number) => async (): Promise<SelfTimed> => ({
    elapsedMs: await timeEnterToOutput(SCRIPT, ["-qfec", REPL_COMMAND, "/dev/null"], sample, {
      prompt: REPL_PROMPT,
      keys: "where is make_slug defined?",
      keyGapMs,
      marker: "is defined at src/shortly/slugs.py:12",
      env: { ...process.env, SCOUT_HISTORY: "", SCOUT_SESSIONS: "" }, // the question is kept in no history file
    }),
  });
  const answerCases = [
    { id: "typed", label: "question typed at 10 keys/s, then Enter", run: firstAnswer(100) },
    { id: "pasted", label: "question pasted at once, then Enter", run: firstAnswer(0) },
  ];
  const title = "the REPL's first answer, from Enter (sample project)";
  rows.push(...(await measureSection(ctx, { key: "first-answer", title }, answerCases, [])));
  const busy = await withCoresBusy(() =>
    measureSection(ctx, { key: "first-answer-busy", title: `${title}, every core busy` }, answerCases, []),
  );
  rows.push(...busy);
  return rows;
}

// ---------------------------------------------------------------- the REPL's tool calls (repl-tools)

/**
 * Questions whose first step is one glob or grep, the call the offline model makes for each, and raw rg's
 * way to the same answer (the bench's anchors). The first is asked in a new REPL; the others in the same
 * REPL after it, warm, as a learner's second question is.
 */
const REPL_SEARCHES: {
  key: string;
  question: string;
  tool: "glob" | "grep";
  pattern: string;
  /** Every anchor is a baseline: each row's ratio is to the fastest of them. */
  anchors: (root: string) => Case[];
}[] = [
  {
    key: "first-glob-py",
    question: "which python files are there?",
    tool: "glob",
    pattern: "**/*.py",
    anchors: (root) => [rgFilesSortrAnchor(root, ["*.py"])],
  },
  {
    key: "glob-ts",
    question: "which typescript files are there?",
    tool: "glob",
    pattern: "**/*.{ts,tsx}",
    anchors: (root) => [rgFilesSortrAnchor(root, ["*.{ts,tsx}"])],
  },
  ...Object.entries(TOKENS).map(([kind, token]) => ({
    key: `grep-${kind}`,
    question: `where is ${token} used?`,
    tool: "grep" as const,
    pattern: `\\b${token}\\b`,
    anchors: (root: string) => rgGrepAnchors(root, `\\b${token}\\b`),
  })),
];

/** The step line's end, as src/steplog.ts writes it: "→ outcome · N ms · C chars · ~T tokens". */
const STEP_LINE_END = / → (.*) · (\d+) ms · [\d,]+ chars · ~[\d,]+ tokens$/;
/** The REPL's first step line: the model's first reply. */
const FIRST_STEP = /\[1\] /;
/**
 * The first question is typed at 10 keys a second, as a learner types (and as the first-answer rows do), so
 * the tokenizer builds meanwhile as it does for them; the next ones are pasted, into a REPL that waits idle.
 */
const FIRST_KEY_GAP_MS = 100;
/** A turn is over when its turn line is followed by the next prompt. */
const TURN_OVER = new RegExp(`(^|\\n)turn: [^\\n]*\\n[^]*${REPL_PROMPT}`);

/**
 * The REPL on the generated trees (the bench tree, and the learner-sized one of 1,000 files), on a terminal,
 * offline: for each question of REPL_SEARCHES (the first typed into a new REPL, the others warm), from Enter to the
 * first step line (the model's reply) and to the glob or grep step line, with the ms that line gives the call
 * itself, beside raw rg timed between the questions while the REPL waits. Issue 28 names no target for
 * these: they are measured only.
 */
async function replToolCases(ctx: Context): Promise<TimingRow[]> {
  if (!fs.existsSync(SCRIPT)) {
    ctx.log(`  (no ${SCRIPT}: the REPL is not measured)`);
    return [];
  }
  const trees = [{ key: ctx.size === "learner" ? "learner" : "bench", root: ctx.root }];
  if (ctx.size !== "learner")
    trees.push({ key: "learner", root: ensureTree(ctx.manifest.seed, ctx.log, "learner").root });
  const rows: TimingRow[] = [];
  for (const tree of trees) rows.push(...(await replOnTree(ctx, tree)));
  return rows;
}

async function replOnTree(ctx: Context, tree: { key: string; root: string }): Promise<TimingRow[]> {
  const what = tree.key === "bench" ? "the bench tree" : "the learner tree";
  const env = { ...process.env, SCOUT_HISTORY: "", SCOUT_SESSIONS: "" }; // the questions are kept in no file
  const sections = REPL_SEARCHES.map((search, i) => {
    const key = `repl-${tree.key}-${search.key}`;
    const anchors = search.anchors(tree.root);
    const cases: Pick<Case, "id" | "label">[] = [
      { id: "first-step", label: "Enter → the first step line ([1] model …)" },
      { id: "enter-to-step", label: `Enter → the ${search.tool} step line` },
      { id: "tool-ms", label: `the ${search.tool} call's own ms (in its step line)` },
      ...anchors,
    ];
    const when = i === 0 ? `a new REPL, the question typed at ${1000 / FIRST_KEY_GAP_MS} keys/s` : "warm";
    const title = `REPL on ${what}, ${when}: ${search.tool} ${search.pattern} ("${search.question}")`;
    const anchorIds = anchors.map((anchor) => anchor.id);
    return {
      search,
      key,
      title,
      cases,
      anchorIds,
      samples: cases.map((): number[] => []),
      notes: new Map<string, string>(),
    };
  });
  ctx.log(`  the REPL on ${what} (${tree.root}): ${REPL_SEARCHES.map((s) => `"${s.question}"`).join(", ")}`);
  for (let run = -WARMUP_RUNS; run < ctx.runs; run++) {
    const repl = await startRepl(SCRIPT, ["-qfec", REPL_COMMAND, "/dev/null"], tree.root, {
      prompt: REPL_PROMPT,
      ready: TURN_OVER,
      env,
    });
    try {
      for (const section of sections) {
        const { search, cases } = section;
        const keep = (id: string, ms: number, note?: string) => {
          if (run >= 0) section.samples[cases.findIndex((c) => c.id === id)].push(ms);
          if (note) section.notes.set(id, note);
        };
        const stepLine = new RegExp(`\\[\\d+\\] ${search.tool} `);
        const keyGapMs = search === REPL_SEARCHES[0] ? FIRST_KEY_GAP_MS : 0;
        const [first, step] = await repl.ask(search.question, [FIRST_STEP, stepLine], keyGapMs);
        const input = JSON.stringify({ pattern: search.pattern });
        const end = STEP_LINE_END.exec(step.line);
        // The anchors answer the search the model was expected to make: a different first call is a bench to fix.
        if (!step.line.includes(`${search.tool} ${input} → `) || !end)
          throw new Error(`"${search.question}": expected ${search.tool} ${input} first, saw: ${step.line}`);
        keep("first-step", first.ms);
        keep("enter-to-step", step.ms, end[1]);
        keep("tool-ms", Number(end[2]));
        for (const anchor of cases.filter((c): c is Case => "run" in c)) {
          const start = performance.now();
          const note = await anchor.run();
          keep(anchor.id, performance.now() - start, typeof note === "string" ? note : undefined);
        }
      }
    } finally {
      await repl.close();
    }
  }
  return sections.flatMap(({ key, title, cases, anchorIds, samples, notes }) => {
    const rows: TimingRow[] = cases.map((c, i) => ({
      section: title,
      id: `${key}/${c.id}`,
      label: c.label,
      ...summarize(samples[i]),
      note: notes.get(c.id),
    }));
    return withRatios(key, rows, cases, anchorIds);
  });
}

// ---------------------------------------------------------------- memory

/**
 * The in-process probe: a fresh Node runs one tool call from dist/ and reports
 * its own peak RSS, so the benchmark's own heap does not count.
 */
const PROBE = `
const [name, input, root, dist] = process.argv.slice(1);
const { runTool } = await import(dist + "/core/tool.js");
const { Workspace } = await import(dist + "/core/workspace.js");
const { tools } = await import(dist + "/core/scout.js");
const result = await runTool(name, JSON.parse(input), { workspace: new Workspace(root) }, tools);
process.stdout.write(JSON.stringify({ isError: result.isError, nodeOnlyKib: process.resourceUsage().maxRSS }));
`;

async function memoryCases(ctx: Context): Promise<MemoryRow[]> {
  const { root, manifest } = ctx;
  const runs = Math.min(ctx.runs, MEMORY_RUNS);
  const probe = (name: string, input: object) =>
    [process.execPath, ["--input-type=module", "-e", PROBE, name, JSON.stringify(input), root, DIST_URL]] as const;
  const cli = (name: string, input: object) => [process.execPath, [CLI, "tool", name, JSON.stringify(input)]] as const;
  const common = { pattern: TOKENS.common };
  const bigEnd = { path: manifest.bigFile.path, offset: manifest.bigFile.lines - HEAD_LINES + 1 };
  const cases: { id: string; label: string; toolCall: boolean; command: readonly [string, readonly string[]] }[] = [
    { id: "node", label: "node -e 0", toolCall: false, command: [process.execPath, ["-e", "0"]] },
    { id: "grep-common-in-process", label: "grep common, in-process", toolCall: true, command: probe("grep", common) },
    { id: "grep-common-cli", label: "grep common, CLI", toolCall: true, command: cli("grep", common) },
    {
      id: "grep-rare-in-process",
      label: "grep rare, in-process",
      toolCall: true,
      command: probe("grep", { pattern: TOKENS.rare }),
    },
    {
      id: "glob-all-in-process",
      label: "glob **/*, in-process",
      toolCall: true,
      command: probe("glob", { pattern: "**/*" }),
    },
    { id: "glob-all-cli", label: "glob **/*, CLI", toolCall: true, command: cli("glob", { pattern: "**/*" }) },
    { id: "glob-ts-cli", label: "glob **/*.ts, CLI", toolCall: true, command: cli("glob", { pattern: "**/*.ts" }) },
    { id: "grep-rare-cli", label: "grep rare, CLI", toolCall: true, command: cli("grep", { pattern: TOKENS.rare }) },
    {
      id: "grep-none-cli",
      label: "grep no-match, CLI",
      toolCall: true,
      command: cli("grep", { pattern: TOKENS.none }),
    },
    { id: "read-end-cli", label: "read_file end of big file, CLI", toolCall: true, command: cli("read_file", bigEnd) },
    { id: "version", label: "scout --version", toolCall: true, command: [process.execPath, [CLI, "--version"]] },
    {
      id: "read-end-in-process",
      label: "read_file end of big file, in-process",
      toolCall: true,
      command: probe("read_file", bigEnd),
    },
    {
      id: "rg-sortr-common",
      label: "raw rg --sortr modified common (to the end)",
      toolCall: false,
      command: [rgPath, [...RG_FILTERS, "-n", "--sortr=modified", TOKENS.common]],
    },
    {
      id: "rg-parallel-common",
      label: "raw rg (parallel) common, all output",
      toolCall: false,
      command: [rgPath, [...RG_FILTERS, "-n", TOKENS.common]],
    },
  ];
  const rows: MemoryRow[] = [];
  for (const c of cases) {
    ctx.log(`  memory: ${c.label}`);
    const row: MemoryRow = { id: `memory/${c.id}`, label: c.label, peakMb: 0, toolCall: c.toolCall };
    for (let i = 0; i < runs; i++) {
      const { peakMb, stdout } = await measurePeakRss(c.command[0], [...c.command[1]], root);
      row.peakMb = Math.max(row.peakMb, peakMb);
      if (stdout.startsWith('{"isError"')) {
        const report = JSON.parse(stdout) as { isError: boolean; nodeOnlyKib: number };
        if (report.isError) throw new Error(`${c.label}: the tool reported an error`);
        row.nodeOnlyMb = Math.max(row.nodeOnlyMb ?? 0, report.nodeOnlyKib / 1024);
      }
    }
    rows.push(row);
  }
  return rows;
}

export const timingGroups: Record<Exclude<Group, "memory" | "repl">, (ctx: Context) => Promise<TimingRow[]>> = {
  grep: grepCases,
  glob: globCases,
  read: readCases,
  startup: startupCases,
  "repl-tools": replToolCases,
};
export { memoryCases, replCases };
