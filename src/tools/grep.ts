// grep: search file contents with ripgrep (the rg binary shipped in
// @vscode/ripgrep), files newest first (ties by path), with memory bounded
// however many lines match.
import fs from "node:fs";
import path from "node:path";
import { NOISE_DIRS } from "../workspace/ignore-rules.js";
import { DENIED_GLOBS } from "../workspace/protected.js";
import { type FileLines, NewestFirstLines, newestFirst } from "./newest-first.js";
import { BACKSLASH_RULE, checkPattern } from "./patterns.js";
import { type RgOutcome, type RgRecord, type RgRun, ripgrep } from "./ripgrep.js";
import { resolveSearchRoot, rgIgnoreArguments } from "./search-path.js";
import { DEFAULT_DESIGN, clipLine, fail, ok, orderOf, type Tool, type ToolDesign } from "./tool.js";

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
/** rg shows only a preview of longer lines, which bounds what one line sends through the pipe. */
const RG_MAX_COLUMNS = 1000;

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
      `Search file contents with ripgrep. pattern is a Rust regex (prefix (?i) for case-insensitive; escape regex characters such as "(" to match them literally). ` +
      `Output lines are "path:line:text" for hits and "path-line-text" for context lines, "--" between groups; ` +
      `files ${orderOf(design)}, lines in file order; at most ${cap} lines, each clipped at ${MAX_MATCH_CHARS} characters. ` +
      `Ignored files (.gitignore, .ignore, node_modules) and protected files are not searched.`,
    concise: `Search file contents (Rust regex); "path:line:text" lines, files ${orderOf(design)}, at most ${cap}.`,
  }[design.descriptions];
  return {
    name: "grep",
    description,
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
      const target = resolveSearchRoot(workspace, input, { filesAllowed: true });
      if ("error" in target) return fail(target.error);

      const ignoreArgs = rgIgnoreArguments(workspace, target.realRel); // rg reads the ignore files Scout reads
      const args = [...ignoreArgs, ...rgArguments(pattern, include, context, target.realRel, cap)];
      const run: RgRun = { root: workspace.root, signal, deadline: Date.now() + RG_TIMEOUT_MS };
      // Only files the shared visibility rules allow (one named explicitly is always searched), in folders
      // reached without a symlink (one swapped in while rg walked is dropped).
      const keep = (file: string) =>
        (!target.isDirectory || workspace.isVisible(file)) && workspace.isReachedDirectly(file);
      // What rg printed, file by file, with its outcome (complete once the loop over the files is over).
      const rgFiles = (rgArgs: string[], outcome: RgOutcome) =>
        filesOf(ripgrep(rgArgs, run, outcome), {
          root: workspace.root,
          keep,
          context,
          byMtime: design.sort === "mtime",
        });
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
      const { lines, cut } = output.finish();

      const where = `${target.rel === "." ? "the workspace" : target.rel}${include ? ` (files matching ${include})` : ""}`;
      if (result.aborted) return fail("grep was cancelled");
      if (result.timedOut) {
        return fail(
          `rg timed out after ${RG_TIMEOUT_MS / 1000} s and was stopped; narrow the pattern, path or include`,
        );
      }
      if (result.exitCode === 2 && lines.length === 0) {
        return fail(`rg could not search: ${workspace.redact(result.stderr).trim()}`);
      }
      if (lines.length === 0 && result.binaryMatches && !target.isDirectory) {
        return ok(
          `${target.rel} is a binary file that matches /${pattern}/; its lines are not shown`,
          "binary file matches",
        );
      }
      const note = include?.includes("\\") ? ` ${BACKSLASH_RULE}` : ""; // "src\*.ts" escapes; it does not separate
      if (lines.length === 0) return ok(`No matches for /${pattern}/ in ${where}.${note}`, "no matches");

      const text = lines.map((line) => (line === "--" ? line : line.text));
      if (cut) text.push(`(showing the first ${cap} lines; more matches exist — narrow pattern, path or include)`);
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
}

export const grep = makeGrep();

/** rg's arguments, all but the sort order. */
function rgArguments(
  pattern: string,
  include: string | undefined,
  context: number,
  searchPath: string,
  cap: number,
): string[] {
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
    // rg prunes with .gitignore files as a speed-up and isVisible filters every hit, so rg must never hide more
    // than isVisible: .rgignore, .ignore, global and parent ignore files are off (the exclude file and any
    // ignore file Scout skipped: see rgIgnoreArguments).
    "--no-require-git",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-global",
    "--no-ignore-parent",
    "--no-ignore-messages", // rg quotes bad ignore-file lines, and a symlinked .gitignore can be any file
    `--max-columns=${RG_MAX_COLUMNS}`,
    "--max-columns-preview",
    // Hits per file: one huge file cannot flood the pipe, and one over the cap says more exist.
    `--max-count=${cap + 1}`,
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

function newOutcome(): RgOutcome {
  return { exitCode: null, stderr: "", timedOut: false, aborted: false, binaryMatches: false };
}

/**
 * Groups rg's records into files (rg prints each file's lines together, even
 * when it searches in parallel), with "--" between groups of one file when
 * there is context. A file that vanished has no lines under its name.
 */
async function* filesOf(
  records: AsyncIterable<RgRecord>,
  {
    root,
    keep,
    context,
    byMtime,
  }: { root: string; keep: (file: string) => boolean; context: number; byMtime: boolean },
): AsyncGenerator<FileLines> {
  let current: FileLines | undefined; // the file rg is printing
  let lastLine = 0; // its line number rg printed last
  for await (const { file, lineNumber, hit, text } of records) {
    if (!keep(file)) continue;
    if (current?.file !== file) {
      if (current) yield current;
      const mtimeNs = mtimeOf(root, file, byMtime);
      current = mtimeNs === undefined ? undefined : { file, mtimeNs, lines: [] };
      if (!current) continue; // no such file (it vanished, or the output was misread)
    } else if (context > 0 && lineNumber > lastLine + 1) {
      current.lines.push("--"); // between groups of one file; those between files are added later
    }
    lastLine = lineNumber;
    const mark = hit ? ":" : "-";
    current.lines.push({ file, hit, text: `${file}${mark}${lineNumber}${mark}${clipLine(text, MAX_MATCH_CHARS)}` });
  }
  if (current) yield current;
}

/**
 * A file's mtime to the nanosecond, as rg sorted by it; undefined when there
 * is no such file. In path order every file counts as equally new (0), so
 * the tie-break by path decides.
 */
function mtimeOf(root: string, file: string, byMtime: boolean): bigint | undefined {
  try {
    const { mtimeNs } = fs.statSync(path.join(root, file), { bigint: true });
    return byMtime ? mtimeNs : 0n;
  } catch {
    return undefined;
  }
}
