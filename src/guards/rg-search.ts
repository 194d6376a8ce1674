// How grep runs rg: its arguments (the same visibility rules as every tool, the cap per file), and the search
// itself, in one parallel pass when hits are few and again in order, stopped at the cap, when they are many.
import path from "node:path";
import { filesShown, isReadable } from "./grep-lines.js";
import { DENIED_GLOBS } from "./protected.js";
import { NOISE_DIRS } from "./ignore-rules.js";
import { type FileLines, type Line, NewestFirstLines, newestFirst, type ResultLimits } from "./newest-first.js";
import { formatBytes } from "./format.js";
import { explainRgError } from "./rg-errors.js";
import { MAX_RG_MEMORY_BYTES, MEMORY_WATCHED, newOutcome, type RgOutcome, type RgRun, ripgrep } from "./ripgrep.js";
import { rgIgnoreArguments, type SearchRoot } from "./search-path.js";
import type { WorkspaceView } from "./workspace-view.js";

/** rg is killed after this long, and the model is told. */
export const RG_TIMEOUT_MS = 10_000;
/** Matched and context lines are clipped to this many characters. */
export const MAX_MATCH_CHARS = 200;
/**
 * Larger files are not searched (rg's --max-filesize) once rg's memory ran over (or always, where it cannot
 * be watched): rg holds a whole line in memory, and a 500 MB file of one line took 1.3 GB.
 */
export const MAX_SEARCH_FILE_BYTES = 32 * 1024 * 1024;
/**
 * Up to this many lines, one parallel rg pass collects every hit and Scout sorts them; past it, rg searches
 * again newest file first and stops at the cap. (Parallel rg is ~2.5× faster on 2 cores when hits are few;
 * sorted rg wins when they are many, as it can stop early.)
 */
const FEW_LINES = 1000;

export interface GrepAsked {
  pattern: string;
  include?: string;
  context: number;
  target: SearchRoot;
  limits: ResultLimits;
  signal?: AbortSignal;
}

/** What a search found: the lines shown, whether the cap cut them, how rg ended, and what it skipped. */
export interface GrepFound {
  lines: Line[];
  cut: boolean;
  result: RgOutcome;
  /** Files over MAX_SEARCH_FILE_BYTES were skipped after rg ran over its memory. */
  skippedBig: boolean;
  /** A file named alone turned out to be binary. */
  binary: boolean;
}

export async function searchWithRg(workspace: WorkspaceView, asked: GrepAsked): Promise<GrepFound> {
  const { pattern, include, context, target, limits, signal } = asked;
  const deadline = Date.now() + RG_TIMEOUT_MS;
  // Only files the shared visibility rules allow, inside the searched path (a file named explicitly is always
  // searched), in folders reached without a symlink (one swapped in while rg walked is dropped).
  const shows = (file: string) =>
    (target.isDirectory
      ? (target.realRel === "." || file.startsWith(`${target.realRel}/`)) && workspace.isVisible(file)
      : file === target.realRel) && workspace.isReachedDirectly(file);
  const run: RgRun = {
    root: workspace.root,
    signal,
    deadline,
    // rg's complaint about a path is passed on only for a path grep would show and cannot read either.
    reportable: (file) => shows(file) && !isReadable(path.join(workspace.root, file)),
  };
  let binary = false;
  // What rg printed, file by file, with its outcome (complete once the loop over the files is over).
  const rgFiles = (rgArgs: string[], outcome: RgOutcome) =>
    filesShown(ripgrep(rgArgs, run, outcome), {
      root: workspace.root,
      shows,
      context,
      byMtime: limits.sort === "mtime",
      maxChars: MAX_MATCH_CHARS,
      onBinary: () => {
        binary = !target.isDirectory;
      },
    });
  const ignoreArgs = await rgIgnoreArguments(workspace, target.realRel, { ...run, entersIgnored: !!include });
  const search = async (skipBigFiles: boolean) => {
    const args = [...ignoreArgs, ...rgArguments(pattern, include, context, target.realRel, limits.cap, skipBigFiles)];
    const output = new NewestFirstLines(context > 0, limits.cap);
    // Most searches hit few lines: one parallel rg finds them all, and they are sorted here.
    const found: FileLines[] = [];
    let foundLines = 0;
    let result = newOutcome();
    for await (const file of rgFiles(args, result)) {
      found.push(file);
      foundLines += file.lines.length;
      if (foundLines > FEW_LINES) break;
    }
    if (foundLines > FEW_LINES) {
      // Many lines: rg again, in the promised order (one thread), stopped once the cap is full.
      result = newOutcome();
      const order = limits.sort === "mtime" ? "--sortr=modified" : "--sort=path";
      for await (const file of rgFiles([order, ...args], result)) if (!output.add(file)) break;
    } else {
      found.sort((a, b) => newestFirst(a.mtimeNs, a.file, b.mtimeNs, b.file));
      for (const file of found) if (!output.add(file)) break;
    }
    return { ...output.finish(), result };
  };
  // --max-filesize costs rg one lstat per file (+26 ms of CPU per 20,000 files), so where rg's
  // memory is watched it is only used again after rg went over (a file of one huge line, say).
  let found = await search(!MEMORY_WATCHED);
  const skippedBig = MEMORY_WATCHED && found.result.tooMuchMemory && !found.result.aborted;
  if (skippedBig) found = await search(true);
  return { ...found, skippedBig, binary };
}

/**
 * Why the search failed, in the words grep returns, or undefined when rg searched: cancelled, over its memory
 * or its time, or stopped before searching (its summary never came: a regex it cannot parse, explained with a
 * caret). `stderr` is rg's, with the root's host path already taken out.
 */
export function rgFailure(result: RgOutcome, skippedBig: boolean, stderr: string): string | undefined {
  const limit = formatBytes(MAX_SEARCH_FILE_BYTES);
  if (result.aborted) return "grep was cancelled";
  if (result.tooMuchMemory) {
    const without = skippedBig ? `, even with files over ${limit} skipped` : "";
    return (
      `rg needed more than ${formatBytes(MAX_RG_MEMORY_BYTES)} of memory for this search and was stopped${without}: ` +
      "too much to search at once (a very large tree, or lines with very many matches); narrow the path or include, or the pattern"
    );
  }
  if (result.timedOut)
    return `rg timed out after ${RG_TIMEOUT_MS / 1000} s and was stopped; narrow the pattern, path or include`;
  if (result.exitCode === 2 && !result.finished) return `rg could not search: ${explainRgError(stderr)}`;
  return undefined;
}

/** rg's arguments, all but the sort order (ripgrep adds --json). */
export function rgArguments(
  pattern: string,
  include: string | undefined,
  context: number,
  searchPath: string,
  cap: number,
  skipBigFiles: boolean,
): string[] {
  return [
    "--no-config",
    "--hidden", // dotfiles are visible unless a rule below hides them
    // rg prunes with .gitignore files as a speed-up and isVisible filters every hit, so rg must never hide more
    // than isVisible: .rgignore, .ignore, global and parent ignore files are off (the exclude file and any
    // ignore file Scout skipped: see rgIgnoreArguments).
    "--no-require-git",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-global",
    "--no-ignore-parent",
    "--no-ignore-messages", // rg quotes bad ignore-file lines, and a symlinked .gitignore can be any file
    "--engine=auto", // PCRE2 only where the pattern needs it (look-around, backreferences)
    "--smart-case", // the rule glob follows too (SMART_CASE)
    ...(skipBigFiles ? [`--max-filesize=${MAX_SEARCH_FILE_BYTES}`] : []),
    // Hits per file: one huge file cannot flood the pipe, and one over the cap says more exist.
    `--max-count=${cap + 1}`,
    // First: of rg's globs the last match wins, so the exclusions below stay excluded (every --iglob comes last).
    ...(include ? [`--glob=${include}`] : []),
    // Protected names in any case, noise folders exactly as isVisible matches them.
    ...DENIED_GLOBS.map((glob) => `--iglob=${glob}`),
    ...NOISE_DIRS.map((dir) => `--glob=!${dir}/`),
    ...(context > 0 ? [`--context=${context}`] : []),
    `--regexp=${pattern}`, // one argument, so a pattern like "--files" is a pattern, not an option
    "--",
    searchPath,
  ];
}
