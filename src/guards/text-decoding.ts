// Which files are text, and how their bytes become lines: byte-order marks (UTF-8, UTF-16, UTF-32,
// little- and big-endian) and binary detection.

/** A NUL byte in this many leading bytes marks a file as binary, as it does for rg (a file of control bytes is text, escaped). */
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
 * such a file is text (UTF-16 is half NUL bytes), unless it is a UTF-16 mark
 * with no NUL byte after it: "FF FE" then ASCII is no UTF-16 (every ASCII
 * character, a newline or a space too, is a NUL byte and a letter there),
 * and decoded so it would be garbage. Without a mark, the file is UTF-8, and
 * binary when a NUL byte comes in the first BINARY_SNIFF_BYTES: rg's rule,
 * so read_file opens every file grep shows a line of.
 */
export function sniff(head: Buffer): Sniffed {
  for (const [encoding, mark] of BYTE_ORDER_MARKS) {
    if (head.length >= mark.length && mark.every((byte, i) => head[i] === byte)) {
      const utf16 = encoding === "utf-16le" || encoding === "utf-16be";
      if (utf16 && head.length > mark.length && !head.subarray(mark.length, BINARY_SNIFF_BYTES).includes(0)) break;
      return { encoding, bomLength: mark.length, binary: false };
    }
  }
  return { encoding: "utf-8", bomLength: 0, binary: head.subarray(0, BINARY_SNIFF_BYTES).includes(0) };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * UTF-8 bytes as text, each byte that is not part of a valid character written as "\xNN" (as escapePath
 * writes a control character), so Latin-1 "caf\xe9" reads the same in read_file and in grep, and the
 * model sees which byte it is. `cut` says the bytes end inside a line cut while reading: a character
 * cut in two there is dropped, not shown as bytes.
 */
export function decodeShowingInvalid(bytes: Uint8Array, cut = false): string {
  const whole = cut ? bytes.subarray(0, bytes.length - cutCharacterLength(bytes)) : bytes;
  try {
    return strictUtf8.decode(whole);
  } catch {
    // some byte is not UTF-8: decoded one character at a time below
  }
  const parts: string[] = [];
  for (let i = 0; i < whole.length; ) {
    const length = sequenceLength(whole[i]);
    let char: string | undefined;
    if (length > 0 && i + length <= whole.length) {
      try {
        char = strictUtf8.decode(whole.subarray(i, i + length));
      } catch {
        char = undefined;
      }
    }
    if (char === undefined) {
      parts.push(`\\x${whole[i].toString(16).padStart(2, "0")}`);
      i++;
    } else {
      parts.push(char);
      i += length;
    }
  }
  return parts.join("");
}

/** How many bytes a UTF-8 character starting with this byte has, or 0 when no character starts so. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** How many bytes at the end are the start of a character that the cut left incomplete (0 to 3). */
function cutCharacterLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if (byte < 0x80 || byte >= 0xc0) return sequenceLength(byte) > back ? back : 0; // a lead byte, or ASCII
  }
  return 0;
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
