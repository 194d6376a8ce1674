// read_file: a window of a text file, with line numbers, read as a stream so
// memory stays small whatever the file's size.
import fs from "node:fs";
import { openChecked, UNOPENABLE } from "../workspace/opened.js";
import { escapePath } from "../escape.js";
import {
  findLookAlike,
  MAX_ENTRIES_READ,
  SUGGEST_TIMEOUT_MS,
  showLookAlikes,
  suggestSimilarPaths,
} from "./similar-paths.js";
import { decodeShowingInvalid, escapeControlCharacters, type Sniffed, sniff, toUtf8 } from "./text-decoding.js";
import { DEFAULT_DESIGN, clipLine, fail, groupThousands, ok, type Tool, type ToolDesign } from "./tool.js";

/** Lines longer than this are clipped with a visible marker. */
export const MAX_LINE_CHARS = 500;
/**
 * Lines are counted to the end of a file up to this many bytes; past it, once the window is read, counting
 * stops and the footer says "at least". A window anywhere in a file of any size is read (streamed).
 */
export const MAX_COUNTED_BYTES = 64 * 1024 * 1024;
/** Reading to a window deep in a huge file stops after this long, as grep's rg does, and says so. */
export const READ_TIMEOUT_MS = 10_000;
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
      `At most ${cap} lines per call, from a file of any size; lines over ${MAX_LINE_CHARS} characters are clipped. ` +
      `A footer tells the total line count and the offset to continue from. ` +
      `Use grep first to find the line numbers you need, then read only that window.`,
    concise: `Read lines offset..offset+limit-1 of a text file (at most ${cap}); a footer gives the total.`,
  }[design.descriptions];
  return {
    name: "read_file",
    description,
    askForLess: "a smaller limit",
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
      let { abs } = resolved;
      let rel = escapePath(resolved.rel); // as messages name it: on one line, whatever the name holds

      // Opened first, then judged by what was opened: a swap after resolveInWorkspace cannot redirect it.
      let opened = openChecked(abs);
      if (opened === "missing") {
        // One file that differs only in invisible or look-alike characters is the one meant: it is read.
        const meant = await findLookAlike(workspace, resolved.rel);
        const again = meant === undefined ? undefined : workspace.resolveInWorkspace(meant);
        if (again?.ok) {
          workspace.noteTakenAsMeant(
            `(read ${showLookAlikes(again.rel)}, the one file whose name differs from ${showLookAlikes(resolved.rel)} only in Unicode spaces, quotes or accents)`,
          );
          ({ abs } = again);
          rel = escapePath(again.rel);
          opened = openChecked(abs);
        }
      }
      if (opened === "moved") return fail(`${rel} changed while it was being opened; it was not read`);
      if (opened === "missing") {
        const similar = await suggestSimilarPaths(workspace, resolved.rel, signal);
        const hint = similar.paths.length
          ? `; did you mean: ${similar.paths.map(showLookAlikes).join(", ")}?`
          : "; use glob or list_files to find it";
        const stopped = {
          entries: ` (only the first ${groupThousands(MAX_ENTRIES_READ)} entries of the workspace were compared)`,
          time: ` (looking for similar names stopped after ${SUGGEST_TIMEOUT_MS / 1000} s)`,
        };
        return fail(`file not found: ${rel}${hint}${similar.stopped ? stopped[similar.stopped] : ""}`);
      }
      if (typeof opened === "string") return fail(`${rel} ${UNOPENABLE[opened]}; it was not read`);
      const { fd, stat } = opened;
      const refuse = (message: string) => {
        fs.closeSync(fd);
        return fail(message);
      };
      if (stat.isDirectory()) return refuse(`${rel} is a directory; use list_files to see what it holds`);
      if (!stat.isFile()) return refuse(`${rel} is not a regular file (a FIFO, socket or device); it was not opened`);

      // Never past the size checked: a file that grows while read is read as it was.
      const deadline = Date.now() + READ_TIMEOUT_MS;
      const window = await readWindow(fd, stat.size, { offset, limit, deadline }, signal); // Ctrl-C stops it too
      if (window === "binary") {
        return fail(`${rel} is a binary file (a NUL byte in its first 8 KiB, as rg judges); read_file shows text only`);
      }
      const { lines, total, counted } = window;
      if (counted === "stopped") {
        return fail(
          `read_file stopped after ${READ_TIMEOUT_MS / 1000} s at line ${total} of ${rel} (${formatBytes(stat.size)}), before line ${offset}; use grep to find the lines you need`,
        );
      }
      if (total === 0) return ok(`(${rel} is empty: 0 lines)`, "empty file");
      if (offset > total) return fail(`offset ${offset} is past the end of ${rel}, which has ${total} lines`);

      const last = offset + lines.length - 1;
      const width = String(last).length;
      const body = lines.map((line, i) => (lineNumbers ? `${String(offset + i).padStart(width)}\t${line}` : line));
      const of =
        counted === "all"
          ? `${total}`
          : `at least ${total}, counted in the first ${formatBytes(MAX_COUNTED_BYTES)} of ${formatBytes(stat.size)}`;
      const more = last < total || counted !== "all" ? `; call read_file with offset=${last + 1} to continue` : "";
      body.push(`(lines ${offset}-${last} of ${of}${more})`);
      return ok(body.join("\n"), `lines ${offset}-${last} of ${counted === "all" ? "" : "at least "}${total}`);
    },
  };
}

export const readFile = makeReadFile();

/**
 * Streams the open file once, its first `size` bytes only: keeps the lines
 * of the window (each cut to MAX_LINE_BYTES while reading), counts all the
 * others. A UTF-16 or UTF-32
 * file (marked by its byte-order mark) is turned into UTF-8 first, so its
 * lines are counted as rg counts them and every grep hit can be read.
 */
async function readWindow(
  fd: number,
  size: number,
  { offset, limit, deadline }: { offset: number; limit: number; deadline: number },
  signal?: AbortSignal,
): Promise<{ lines: string[]; total: number; counted: "all" | "some" | "stopped" } | "binary"> {
  const lines: string[] = [];
  let lineNumber = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let fullLength = 0; // bytes of the current line, kept or not
  let sniffed: Sniffed | undefined;
  let utf8: (bytes: Buffer, end?: boolean) => Buffer = (bytes) => bytes;

  const inWindow = () => lineNumber >= offset && lineNumber < offset + limit;
  const endLine = () => {
    if (inWindow()) {
      const cutWhileReading = fullLength > currentBytes;
      const text = escapeControlCharacters(
        decodeShowingInvalid(Buffer.concat(current), cutWhileReading).replace(/\r$/, ""),
      );
      lines.push(clipLine(text, MAX_LINE_CHARS, cutWhileReading));
    }
    lineNumber++;
    current = [];
    currentBytes = 0;
    fullLength = 0;
  };

  const splitLines = (chunk: Buffer) => {
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
  };

  if (size === 0) {
    fs.closeSync(fd);
    return { lines: [], total: 0, counted: "all" };
  }
  let bytesRead = 0;
  // end is inclusive; the stream closes the descriptor when it ends or the loop leaves early.
  for await (const raw of fs.createReadStream("", { fd, start: 0, end: size - 1, signal }) as AsyncIterable<Buffer>) {
    if (!sniffed) {
      // The first chunk is 64 KiB, or the whole file: enough to judge it.
      sniffed = sniff(raw);
      if (sniffed.binary) return "binary";
      utf8 = toUtf8(sniffed.encoding);
      splitLines(utf8(raw.subarray(sniffed.bomLength)));
    } else splitLines(utf8(raw));
    bytesRead += raw.length;
    const windowRead = lineNumber >= offset + limit;
    if (windowRead && bytesRead >= MAX_COUNTED_BYTES && bytesRead < size)
      return { lines, total: lineNumber - 1, counted: "some" };
    if (!windowRead && Date.now() > deadline) return { lines, total: lineNumber - 1, counted: "stopped" };
  }
  splitLines(utf8(Buffer.alloc(0), true));
  // A last line without a trailing newline still counts.
  if (fullLength > 0) endLine();
  return { lines, total: lineNumber - 1, counted: "all" };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}
