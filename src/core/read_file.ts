// read_file: a window of a text file, each line prefixed with its number, and a footer saying where to go on.
import { formatBytes } from "../guards/format.js";
import { MAX_COUNTED_BYTES, MAX_LINE_CHARS, readWindow } from "../guards/line-window.js";
import { openTextFile } from "../guards/open-file.js";
import { fail, MAX_RESULT_LINES, ok, SCOUT_LIMITS, type Tool } from "./tool.js";

/** Reading to a window deep in a huge file stops after this long, as grep's rg does, and says so. */
export const READ_TIMEOUT_MS = 10_000;

export const readFile: Tool<{ path: string; offset?: number; limit?: number }> = {
  name: "read_file",
  description:
    "Read a text file, returning lines offset..offset+limit-1, each prefixed with its line number. " +
    `At most ${MAX_RESULT_LINES} lines per call, from a file of any size; lines over ${MAX_LINE_CHARS} characters are clipped. ` +
    "A footer tells the total line count and the offset to continue from. " +
    "Use grep first to find the line numbers you need, then read only that window.",
  askForLess: "a smaller limit",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "file path, relative to the workspace root" },
      offset: { type: "integer", minimum: 1, description: "first line to return, 1-based (default 1)" },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_RESULT_LINES,
        description: `number of lines to return (default and maximum ${MAX_RESULT_LINES})`,
      },
    },
    required: ["path"],
    additionalProperties: false,
  },

  async run({ path, offset = 1, limit }, { workspace, signal, limits = SCOUT_LIMITS }) {
    // 1. Open it: inside the workspace, not protected, a regular file, and the file that was checked.
    const file = await openTextFile(workspace, path, signal);
    if ("error" in file) return fail(file.error);
    const { rel, size } = file;

    // 2. Stream the window, never past the size checked: a file that grows while read is read as it was.
    const deadline = Date.now() + READ_TIMEOUT_MS;
    const want = { offset, limit: Math.min(limit ?? limits.cap, limits.cap), deadline };
    const window = await readWindow(file.fd, size, want, signal); // Ctrl-C stops it too
    if (window === "binary")
      return fail(`${rel} is a binary file (a NUL byte in its first 8 KiB, as rg judges); read_file shows text only`);
    const { lines, total, counted } = window;
    if (counted === "stopped") {
      return fail(
        `read_file stopped after ${READ_TIMEOUT_MS / 1000} s at line ${total} of ${rel} (${formatBytes(size)}), before line ${offset}; use grep to find the lines you need`,
      );
    }
    if (total === 0) return ok(`(${rel} is empty: 0 lines)`, "empty file", { total: 0 });
    if (offset > total) return fail(`offset ${offset} is past the end of ${rel}, which has ${total} lines`);

    // 3. Number the lines, and end with where the file goes on.
    const last = offset + lines.length - 1;
    const width = String(last).length;
    const body = lines.map((line, i) => `${String(offset + i).padStart(width)}\t${line}`);
    const all = counted === "all";
    const of = all
      ? `${total}`
      : `at least ${total}, counted in the first ${formatBytes(MAX_COUNTED_BYTES)} of ${formatBytes(size)}`;
    const more = last < total || !all ? `; call read_file with offset=${last + 1} to continue` : "";
    body.push(`(lines ${offset}-${last} of ${of}${more})`);
    const summary = `lines ${offset}-${last} of ${all ? "" : "at least "}${total}`;
    return ok(body.join("\n"), summary, { total, capped: last < total || !all });
  },
};
