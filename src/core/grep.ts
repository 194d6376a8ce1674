// grep: search file contents with ripgrep (the rg shipped in @vscode/ripgrep), files newest first, at most
// MAX_RESULT_LINES lines, with memory bounded however many lines match.
import { escapePath } from "../guards/escape.js";
import { formatBytes } from "../guards/format.js";
import { unreadableNote } from "../guards/grep-lines.js";
import { BACKSLASH_RULE, checkPattern, PATTERN_LENGTH_LIMIT, patternLengthProblem } from "../guards/patterns.js";
import { clipEcho } from "../guards/result-budget.js";
import { ONE_LINE_NOTE, spansLines, trailingBackslashProblem } from "../guards/rg-errors.js";
import { MAX_MATCH_CHARS, MAX_SEARCH_FILE_BYTES, rgFailure, searchWithRg } from "../guards/rg-search.js";
import { resolveSearchRoot } from "../guards/search-path.js";
import { fail, MAX_RESULT_LINES, ok, SCOUT_LIMITS, SMART_CASE, type Tool } from "./tool.js";

/** Most lines of context the model may ask for around each hit. */
export const MAX_CONTEXT = 5;

export const grep: Tool<{ pattern: string; path?: string; include?: string; context?: number }> = {
  name: "grep",
  description:
    'Search file contents with ripgrep. pattern is a Rust regex; look-around and backreferences work too (rg then uses PCRE2). Escape regex characters such as "(" to match them literally. ' +
    `${SMART_CASE} ` +
    'Output lines are "path:line:text" for hits and "path-line-text" for context lines, "--" between groups; ' +
    `files newest first (by modification time), lines in file order; at most ${MAX_RESULT_LINES} lines, each clipped at ${MAX_MATCH_CHARS} characters. ` +
    `Ignored files (.gitignore, .ignore, node_modules) and protected files are not searched; files over ${formatBytes(MAX_SEARCH_FILE_BYTES)} may be skipped; pattern and include up to ${PATTERN_LENGTH_LIMIT}.`,
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

  async run({ pattern, path = ".", include, context = 0 }, { workspace, signal, limits = SCOUT_LIMITS }) {
    // 1. The pattern, the include glob and the path: bounded, inside the workspace, not hidden.
    if (pattern === "") return fail('pattern must not be empty; to list files use glob with "**/*"');
    const refused = patternLengthProblem(pattern) ?? trailingBackslashProblem(pattern);
    if (refused) return fail(refused);
    if (include !== undefined) {
      const problem = include.startsWith("!")
        ? `include "${include}" must name the files to search; excluding with "!" is not supported`
        : checkPattern(include, "include");
      if (problem) return fail(problem);
    }
    const target = resolveSearchRoot(workspace, path, { filesAllowed: true });
    if ("error" in target) return fail(target.error);
    const shownRel = escapePath(target.rel);
    const limit = formatBytes(MAX_SEARCH_FILE_BYTES);
    if (target.size > MAX_SEARCH_FILE_BYTES)
      // rg skips big files in a folder, but searches one named alone
      return fail(`${shownRel} is ${formatBytes(target.size)}, over grep's ${limit} limit; it was not searched`);

    // 2. Search: rg finds the lines, the newest files' first `cap` lines are kept.
    const found = await searchWithRg(workspace, { pattern, include, context, target, limits, signal });
    const { lines, cut, result, skippedBig, binary } = found;

    // 3. How rg ended (cancelled, out of memory or time, a pattern it refused), then the lines and footers.
    const failure = rgFailure(result, skippedBig, workspace.redact(result.stderr));
    if (failure) return fail(failure);
    const unreadable = unreadableNote(result);
    if (skippedBig) unreadable.push(`(files over ${limit} were not searched)`);
    const echoed = clipEcho(pattern); // as results quote it back
    const binaryNote = `${shownRel} is a binary file that matches /${echoed}/; its lines are not shown`;
    if (binary) return ok(binaryNote, "binary file matches");
    let note = include?.includes("\\") ? ` ${BACKSLASH_RULE}` : ""; // "src\*.ts" escapes; it does not separate
    if (spansLines(pattern)) note += ` ${ONE_LINE_NOTE}`;
    const where = `${target.rel === "." ? "the workspace" : shownRel}${include ? ` (files matching ${include})` : ""}`;
    const none = [`No matches for /${echoed}/ in ${where}.${note}`, ...unreadable].join("\n");
    if (lines.length === 0) return ok(none, "no matches", { total: 0 });

    const text = lines.map((line) => (line === "--" ? line : line.text));
    if (cut) text.push(`(showing the first ${limits.cap} lines; more matches exist — narrow pattern, path or include)`);
    text.push(...unreadable);
    const shown = lines.filter((line) => line !== "--");
    const hits = shown.filter((line) => line.hit).length;
    const files = new Set(shown.map((line) => line.file)).size;
    const summary = `${hits} matching line${hits === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}`;
    return ok(text.join("\n"), summary, { capped: cut });
  },
};
