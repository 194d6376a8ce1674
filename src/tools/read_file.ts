// read_file: a window of a text file, with line numbers, read as a stream so
// memory stays small whatever the file's size.
import fs from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import type { Workspace } from "../workspace/workspace.js";
import { escapePath } from "./escape-path.js";
import { findNewestFiles } from "./newest-first.js";
import { DEFAULT_DESIGN, clipLine, fail, ok, type Tool, type ToolDesign } from "./tool.js";

/** Lines longer than this are clipped with a visible marker. */
export const MAX_LINE_CHARS = 500;
/** Files larger than this are refused; grep can still search them. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** A NUL byte in this many leading bytes marks a file as binary. */
const BINARY_SNIFF_BYTES = 8192;
/** At most this many similar paths are suggested when a file is not found. */
const MAX_SUGGESTIONS = 3;
/** Bytes kept of one line while streaming: enough for MAX_LINE_CHARS of any UTF-8. */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4 + 4;

interface Args {
  path: string;
  offset?: number;
  limit?: number;
}

/** read_file as a given design makes it (Scout's own: DEFAULT_DESIGN). */
export function makeReadFile(design: ToolDesign = DEFAULT_DESIGN): Tool<Args> {
  const { cap, lineNumbers } = design;
  const description = {
    full:
      `Read a text file, returning lines offset..offset+limit-1${lineNumbers ? ", each prefixed with its line number" : ""}. ` +
      `At most ${cap} lines per call; lines over ${MAX_LINE_CHARS} characters are clipped. ` +
      `A footer tells the total line count and the offset to continue from. ` +
      `Use grep first to find the line numbers you need, then read only that window.`,
    concise: `Read lines offset..offset+limit-1 of a text file (at most ${cap}); a footer gives the total.`,
  }[design.descriptions];
  return {
    name: "read_file",
    description,
    input_schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "file path, relative to the workspace root" },
        offset: { type: "integer", minimum: 1, description: "first line to return, 1-based (default 1)" },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: cap,
          description: `number of lines to return (default and maximum ${cap})`,
        },
      },
      required: ["path"],
      additionalProperties: false,
    },

    async run({ path: input, offset = 1, limit = cap }, { workspace, signal }) {
      const resolved = workspace.resolveInWorkspace(input);
      if (!resolved.ok) return fail(resolved.error);
      const { abs } = resolved;
      const rel = escapePath(resolved.rel); // as messages name it: on one line, whatever the name holds

      let stat: fs.Stats;
      try {
        stat = fs.statSync(abs);
      } catch {
        const similar = await suggestSimilarPaths(workspace, resolved.rel);
        const hint = similar.length
          ? `; did you mean: ${similar.map(escapePath).join(", ")}?`
          : "; use glob or list_files to find it";
        return fail(`file not found: ${rel}${hint}`);
      }
      if (stat.isDirectory()) return fail(`${rel} is a directory; use list_files to see what it holds`);
      if (!stat.isFile()) return fail(`${rel} is not a regular file (a FIFO, socket or device); it was not opened`);
      if (stat.size > MAX_FILE_BYTES) {
        return fail(
          `${rel} is ${formatBytes(stat.size)}, over the ${formatBytes(MAX_FILE_BYTES)} read_file limit; use grep to search it`,
        );
      }

      const window = await readWindow(abs, offset, limit, signal); // Ctrl-C stops the read (runTool says so)
      if (window === "binary")
        return fail(`${rel} is a binary file (it has a NUL byte near the start); read_file shows text only`);
      const { lines, total } = window;
      if (total === 0) return ok(`(${rel} is empty: 0 lines)`, "empty file");
      if (offset > total) return fail(`offset ${offset} is past the end of ${rel}, which has ${total} lines`);

      const last = offset + lines.length - 1;
      const width = String(last).length;
      const body = lines.map((line, i) => (lineNumbers ? `${String(offset + i).padStart(width)}\t${line}` : line));
      const more = last < total ? `; call read_file with offset=${last + 1} to continue` : "";
      body.push(`(lines ${offset}-${last} of ${total}${more})`);
      return ok(body.join("\n"), `lines ${offset}-${last} of ${total}`);
    },
  };
}

export const readFile = makeReadFile();

/**
 * Streams the file once: keeps the lines of the window (each cut to
 * MAX_LINE_BYTES while reading), counts all the others.
 */
async function readWindow(
  abs: string,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<{ lines: string[]; total: number } | "binary"> {
  const decoder = new TextDecoder("utf-8"); // invalid bytes become U+FFFD, never an error
  const lines: string[] = [];
  let lineNumber = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let fullLength = 0; // bytes of the current line, kept or not
  let sniffed = 0;

  const inWindow = () => lineNumber >= offset && lineNumber < offset + limit;
  const endLine = () => {
    if (inWindow()) {
      const text = decoder.decode(Buffer.concat(current)).replace(/\r$/, "");
      const cutWhileReading = fullLength > currentBytes;
      lines.push(clipLine(text, MAX_LINE_CHARS, cutWhileReading || text.length > MAX_LINE_CHARS));
    }
    lineNumber++;
    current = [];
    currentBytes = 0;
    fullLength = 0;
  };

  for await (const chunk of fs.createReadStream(abs, { signal }) as AsyncIterable<Buffer>) {
    if (sniffed < BINARY_SNIFF_BYTES) {
      const head = chunk.subarray(0, BINARY_SNIFF_BYTES - sniffed);
      if (head.includes(0)) return "binary";
      sniffed += head.length;
    }
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (inWindow() && currentBytes < MAX_LINE_BYTES) {
        const piece = chunk.subarray(start, Math.min(end, start + MAX_LINE_BYTES - currentBytes));
        current.push(piece);
        currentBytes += piece.length;
      }
      fullLength += end - start;
      if (newline === -1) break;
      endLine();
      start = newline + 1;
    }
  }
  // A last line without a trailing newline still counts.
  if (fullLength > 0) endLine();
  return { lines, total: lineNumber - 1 };
}

/**
 * Up to MAX_SUGGESTIONS visible files that are probably the one meant: the same name
 * in another folder, or the same name with another case or extension.
 */
async function suggestSimilarPaths(workspace: Workspace, rel: string): Promise<string[]> {
  const name = path.posix.basename(rel);
  const stem = name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name;
  if (stem === "") return [];
  try {
    const found = await findNewestFiles(workspace, ".", `**/${fg.escapePath(stem)}{,.*}`, { caseSensitive: false });
    return found.newest.map((file) => file.rel).slice(0, MAX_SUGGESTIONS);
  } catch {
    return [];
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}
