// A window of an open text file, streamed: the lines asked for (escaped, clipped) are kept, the others only
// counted, so memory stays small whatever the file's size; UTF-16 and UTF-32 files are read as UTF-8.
import fs from "node:fs";
import { clipLine } from "./result-budget.js";
import { escapeFileLine } from "./escape.js";
import { decodeShowingInvalid, type Sniffed, sniff, toUtf8 } from "./text-decoding.js";

/** Lines longer than this are clipped with a visible marker. */
export const MAX_LINE_CHARS = 500;
/**
 * Lines are counted to the end of a file up to this many bytes; past it, once the window is read, counting
 * stops and the footer says "at least". A window anywhere in a file of any size is read (streamed).
 */
export const MAX_COUNTED_BYTES = 64 * 1024 * 1024;
/** Bytes kept of one line while streaming: enough for MAX_LINE_CHARS of any UTF-8. */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4 + 4;
/** Bytes read at a time, as a ReadStream would: the first chunk is 64 KiB, or the whole file. */
const CHUNK_BYTES = 64 * 1024;

export type LineWindow = { lines: string[]; total: number; counted: "all" | "some" | "stopped" } | "binary";

/**
 * Streams the open file once, its first `size` bytes only: keeps the lines
 * of the window (each cut to MAX_LINE_BYTES while reading), counts all the
 * others. A UTF-16 or UTF-32
 * file (marked by its byte-order mark) is turned into UTF-8 first, so its
 * lines are counted as rg counts them and every grep hit can be read.
 */
export async function readWindow(
  fd: number,
  size: number,
  { offset, limit, deadline }: { offset: number; limit: number; deadline: number },
  signal?: AbortSignal,
): Promise<LineWindow> {
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
      const text = escapeFileLine(decodeShowingInvalid(Buffer.concat(current), cutWhileReading).replace(/\r$/, ""));
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
  for await (const raw of chunksOf(fd, size, signal)) {
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

/**
 * The open file's first `size` bytes, a chunk at a time, each read on Node's thread pool (fs.read), so a slow
 * disk never holds up Ctrl-C; the descriptor is closed when the reading ends or the loop leaves early. A
 * ReadStream would do the same, but loading Node's file streams cost ~2.5 ms of every `scout tool read_file`
 * (issue 28).
 */
async function* chunksOf(fd: number, size: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  try {
    for (let position = 0; position < size; ) {
      signal?.throwIfAborted();
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position)); // new each time: lines keep slices
      const read = await new Promise<number>((resolve, reject) =>
        fs.read(fd, chunk, 0, chunk.length, position, (error, bytes) => (error ? reject(error) : resolve(bytes))),
      );
      if (read === 0) return; // the file shrank while read: it ends here
      position += read;
      yield chunk.subarray(0, read);
    }
  } finally {
    fs.closeSync(fd);
  }
}
