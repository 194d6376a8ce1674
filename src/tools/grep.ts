// grep: search file contents with ripgrep (the rg binary shipped in
// @vscode/ripgrep), files newest first (ties by path), with memory bounded
// however many lines match.
import path from "node:path";
import { NOISE_DIRS } from "../workspace/ignore-rules.js";
import { DENIED_GLOBS } from "../workspace/protected.js";
import { escapePath } from "../escape.js";
import { filesShown, isReadable, unreadableNote } from "./grep-lines.js";
import { type FileLines, NewestFirstLines, newestFirst } from "./newest-first.js";
import { BACKSLASH_RULE, checkPattern, PATTERN_LENGTH_LIMIT, patternLengthProblem } from "./patterns.js";
import { explainRgError, ONE_LINE_NOTE, spansLines, trailingBackslashProblem } from "./rg-errors.js";
import { MAX_RG_MEMORY_BYTES, MEMORY_WATCHED, newOutcome, type RgOutcome, type RgRun, ripgrep } from "./ripgrep.js";
import { resolveSearchRoot, rgIgnoreArguments } from "./search-path.js";
import { clipEcho, DEFAULT_DESIGN, fail, ok, orderOf, SMART_CASE, type Tool, type ToolDesign } from "./tool.js";

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
/**
 * Larger files are not searched (rg's --max-filesize) once rg's memory ran
 * over (or always, where it cannot be watched): rg holds a whole line in
 * memory, and a 500 MB file of one line took 1.3 GB.
 */
export const MAX_SEARCH_FILE_BYTES = 32 * 1024 * 1024;

interface Args {
  pattern: string;
  path?: string;
  include?: string;
  context?: number;
}

/** grep as a given design makes it (Scout's own: DEFAULT_DESIGN). */
export function makeGrep(design: ToolDesign = DEFAULT_DESIGN): Tool<Args> {
  const { cap } = design;
  const description = {
    full:
      `Search file contents with ripgrep. pattern is a Rust regex; look-around and backreferences work too (rg then uses PCRE2). Escape regex characters such as "(" to match them literally. ` +
      `${SMART_CASE} ` +
      `Output lines are "path:line:text" for hits and "path-line-text" for context lines, "--" between groups; ` +
      `files ${orderOf(design)}, lines in file order; at most ${cap} lines, each clipped at ${MAX_MATCH_CHARS} characters. ` +
      `Ignored files (.gitignore, .ignore, node_modules) and protected files are not searched; files over ${mebibytes(MAX_SEARCH_FILE_BYTES)} may be skipped; pattern and include up to ${PATTERN_LENGTH_LIMIT}.`,
    concise: `Search file contents (Rust regex, smart case); "path:line:text" lines, files ${orderOf(design)}, at most ${cap}.`,
  }[design.descriptions];
  return {
    name: "grep",
    description,
    askForLess: "a narrower pattern, path or include, or less context",
    input_schema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: 'Rust regex to search for, e.g. "fn main" or "TODO|FIXME"' },
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
      const refused = patternLengthProblem(pattern) ?? trailingBackslashProblem(pattern);
      if (refused) return fail(refused);
      const echoed = clipEcho(pattern); // as results quote it back
      if (include !== undefined) {
        const problem = include.startsWith("!")
          ? `include "${include}" must name the files to search; excluding with "!" is not supported`
          : checkPattern(include, "include");
        if (problem) return fail(problem);
      }
      const target = resolveSearchRoot(workspace, input, { filesAllowed: true });
      if ("error" in target) return fail(target.error);
      const shownRel = escapePath(target.rel);
      const { size } = target;
      if (size > MAX_SEARCH_FILE_BYTES) {
        // rg skips big files in a folder, but searches one named alone whatever its size.
        return fail(
          `${shownRel} is ${mebibytes(size)}, over grep's ${mebibytes(MAX_SEARCH_FILE_BYTES)} limit; it was not searched`,
        );
      }

      // Only files the shared visibility rules allow, inside the searched path (a file named explicitly is always
      // searched), in folders reached without a symlink (one swapped in while rg walked is dropped).
      const shows = (file: string) =>
        (target.isDirectory
          ? (target.realRel === "." || file.startsWith(`${target.realRel}/`)) && workspace.isVisible(file)
          : file === target.realRel) && workspace.isReachedDirectly(file);
      const run: RgRun = {
        root: workspace.root,
        signal,
        deadline: Date.now() + RG_TIMEOUT_MS,
        // rg's complaint about a path is passed on only for a path grep would show and cannot read either.
        reportable: (file) => shows(file) && !isReadable(path.join(workspace.root, file)),
      };
      let binary = false; // a file named explicitly turned out to be binary
      // What rg printed, file by file, with its outcome (complete once the loop over the files is over).
      const rgFiles = (rgArgs: string[], outcome: RgOutcome) =>
        filesShown(ripgrep(rgArgs, run, outcome), {
          root: workspace.root,
          shows,
          context,
          byMtime: design.sort === "mtime",
          maxChars: MAX_MATCH_CHARS,
          onBinary: () => {
            binary = !target.isDirectory;
          },
        });
      const ignoreArgs = await rgIgnoreArguments(workspace, target.realRel, { ...run, entersIgnored: !!include });
      const search = async (skipBigFiles: boolean) => {
        const args = [...ignoreArgs, ...rgArguments(pattern, include, context, target.realRel, cap, skipBigFiles)];
        const output = new NewestFirstLines(context > 0, cap);
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
          const order = design.sort === "mtime" ? "--sortr=modified" : "--sort=path";
          for await (const file of rgFiles([order, ...args], result)) if (!output.add(file)) break;
        } else {
          found.sort((a, b) => newestFirst(a.mtimeNs, a.file, b.mtimeNs, b.file));
          for (const file of found) if (!output.add(file)) break;
        }
        return { ...output.finish(), result };
      };
      // --max-filesize costs rg one lstat per file (+26 ms of CPU per 20,000 files), so where rg's
      // memory is watched it is only used again after rg went over (a file of one huge line, say).
      let { lines, cut, result } = await search(!MEMORY_WATCHED);
      const skippedBig = MEMORY_WATCHED && result.tooMuchMemory && !result.aborted;
      if (skippedBig) ({ lines, cut, result } = await search(true));

      const where = `${target.rel === "." ? "the workspace" : shownRel}${include ? ` (files matching ${include})` : ""}`;
      if (result.aborted) return fail("grep was cancelled");
      if (result.tooMuchMemory) {
        const without = skippedBig ? `, even with files over ${mebibytes(MAX_SEARCH_FILE_BYTES)} skipped` : "";
        return fail(
          `rg needed more than ${mebibytes(MAX_RG_MEMORY_BYTES)} of memory for this search and was stopped${without}: ` +
            "too much to search at once (a very large tree, or lines with very many matches); narrow the path or include, or the pattern",
        );
      }
      if (result.timedOut) {
        return fail(
          `rg timed out after ${RG_TIMEOUT_MS / 1000} s and was stopped; narrow the pattern, path or include`,
        );
      }
      // rg stopped before searching (its summary never came): a regex it cannot parse, say, explained with a caret.
      if (result.exitCode === 2 && !result.finished) {
        return fail(`rg could not search: ${explainRgError(workspace.redact(result.stderr))}`);
      }
      const unreadable = unreadableNote(result);
      if (skippedBig) unreadable.push(`(files over ${mebibytes(MAX_SEARCH_FILE_BYTES)} were not searched)`);
      if (binary) {
        return ok(
          `${shownRel} is a binary file that matches /${echoed}/; its lines are not shown`,
          "binary file matches",
        );
      }
      let note = include?.includes("\\") ? ` ${BACKSLASH_RULE}` : ""; // "src\*.ts" escapes; it does not separate
      if (spansLines(pattern)) note += ` ${ONE_LINE_NOTE}`;
      if (lines.length === 0) {
        return ok([`No matches for /${echoed}/ in ${where}.${note}`, ...unreadable].join("\n"), "no matches");
      }

      const text = lines.map((line) => (line === "--" ? line : line.text));
      if (cut) text.push(`(showing the first ${cap} lines; more matches exist — narrow pattern, path or include)`);
      text.push(...unreadable);
      const shown = lines.filter((line) => line !== "--");
      const hits = shown.filter((line) => line.hit).length;
      const files = new Set(shown.map((line) => line.file)).size;
      return ok(
        text.join("\n"),
        `${hits} matching line${hits === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}`,
      );
    },
  };
}

export const grep = makeGrep();

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

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}
