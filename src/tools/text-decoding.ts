// Which files are text, and how their bytes become lines: byte-order marks (UTF-8, UTF-16, UTF-32,
// little- and big-endian), binary detection, and control characters made visible.
import { createRequire } from "node:module";
import type { isBinaryFileSync } from "isbinaryfile";
import { escapePath } from "../escape.js";

// CommonJS packages are required where first used, not imported (see workspace/ignore-rules.ts).
const require = createRequire(import.meta.url);

/** A NUL byte in this many leading bytes marks a file as binary, as it does for rg. */
export const BINARY_SNIFF_BYTES = 8192;

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "utf-32le" | "utf-32be";

/** Byte-order marks, longest first: UTF-32LE's starts like UTF-16LE's. */
const BYTE_ORDER_MARKS: [TextEncoding, number[]][] = [
  ["utf-32le", [0xff, 0xfe, 0x00, 0x00]],
  ["utf-32be", [0x00, 0x00, 0xfe, 0xff]],
  ["utf-8", [0xef, 0xbb, 0xbf]],
  ["utf-16le", [0xff, 0xfe]],
  ["utf-16be", [0xfe, 0xff]],
];

/** What the first bytes of a file say: its encoding, how long its byte-order mark is, and whether it is text at all. */
export interface Sniffed {
  encoding: TextEncoding;
  bomLength: number;
  binary: boolean;
}

/**
 * Reads the start of a file. A byte-order mark decides the encoding, and
 * such a file is text (UTF-16 is half NUL bytes). Without one, the file is
 * UTF-8, and binary when a NUL byte comes in the first BINARY_SNIFF_BYTES
 * or when isbinaryfile (a well-kept port of Perl's -B) finds more than 10%
 * control or undecodable bytes in its first 512.
 */
export function sniff(head: Buffer): Sniffed {
  for (const [encoding, mark] of BYTE_ORDER_MARKS) {
    if (head.length >= mark.length && mark.every((byte, i) => head[i] === byte)) {
      return { encoding, bomLength: mark.length, binary: false };
    }
  }
  const start = head.subarray(0, BINARY_SNIFF_BYTES);
  return {
    encoding: "utf-8",
    bomLength: 0,
    binary:
      start.includes(0) || (require("isbinaryfile").isBinaryFileSync as typeof isBinaryFileSync)(start, start.length),
  };
}

/**
 * A converter from the file's encoding to UTF-8, chunk by chunk (a chunk may
 * end inside a character); call it with `end` for the last bytes. UTF-8 goes
 * through as it is, so lines can still be cut by byte count while streaming.
 */
export function toUtf8(encoding: TextEncoding): (bytes: Buffer, end?: boolean) => Buffer {
  if (encoding === "utf-8") return (bytes) => bytes;
  if (encoding === "utf-16le" || encoding === "utf-16be") {
    const decoder = new TextDecoder(encoding, { ignoreBOM: true }); // an unpaired surrogate becomes U+FFFD
    return (bytes, end = false) => Buffer.from(decoder.decode(bytes, { stream: !end }), "utf8");
  }
  // TextDecoder knows no UTF-32: each 4 bytes are one code point.
  const littleEndian = encoding === "utf-32le";
  let pending = Buffer.alloc(0);
  return (bytes, end = false) => {
    const all = Buffer.concat([pending, bytes]);
    const whole = all.length - (all.length % 4);
    const parts: string[] = [];
    for (let i = 0; i < whole; i += 4) {
      const code = littleEndian ? all.readUInt32LE(i) : all.readUInt32BE(i);
      const valid = code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
      parts.push(valid ? String.fromCodePoint(code) : "\uFFFD");
    }
    pending = all.subarray(whole);
    if (end && pending.length > 0) parts.push("\uFFFD"); // a cut-off last character
    return Buffer.from(parts.join(""), "utf8");
  };
}

/**
 * Shows control characters (other than tab) as visible escapes like "\x1b",
 * so a file cannot clear the screen, set a window title or write the clipboard
 * of whoever reads a result, nor hide text from the model. The escapes are
 * escapePath's, so a line and a path look alike; only tab is kept, as in a
 * line it is indentation.
 */
export function escapeControlCharacters(line: string): string {
  // Backslashes are kept as written, too: a line of code is full of them, and escapePath doubles some.
  return line
    .split("\t")
    .map((part) => part.split("\\").map(escapePath).join("\\"))
    .join("\t");
}
