// A file a person names (--trace, --html, a question set, the history file): opened so that it cannot block, checked to be a regular file, bounded in size.
//
// A path from a person may name a FIFO (open() waits for the other end
// forever), a device (/dev/zero never ends, /dev/full refuses every write), a
// socket or a folder, directly or through a symlink. Each is opened with
// O_NONBLOCK, so open() returns at once, and then checked with fstat on what
// was opened, so a swap between a check and the open changes nothing. Every
// failure is a PersonFileError whose message starts with the option that
// named the file, so the CLI prints one line, never a stack or a raw errno.
import fs from "node:fs";

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_TRUNC, O_WRONLY } = fs.constants;

/** Why a person's file could not be used; the message names the option or variable ("--trace out.jsonl: …"). */
export class PersonFileError extends Error {}

export interface PersonFileOptions {
  /** What named the file, for messages: "--trace", "SCOUT_HISTORY" ("" when the file's own name says enough). */
  option: string;
  /** Refuse a symlink instead of following it (O_NOFOLLOW), e.g. for a file that is rewritten. */
  noFollow?: boolean;
}

/** Reads a whole regular file of at most `maxBytes`, never more (a file that grows while read is cut off and refused). */
export function readPersonFile(file: string, options: PersonFileOptions & { maxBytes: number }): string {
  const fd = openRegular(file, O_RDONLY, options, "read");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, options.maxBytes + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > options.maxBytes)
        throw new PersonFileError(`${named(file, options)}: over ${options.maxBytes} bytes; not read`);
    }
    return Buffer.concat(chunks).toString("utf8");
  } catch (error) {
    throw asPersonFileError(error, file, options, "read");
  } finally {
    fs.closeSync(fd);
  }
}

/** Replaces a regular file's content with `text` (creating it with `mode`, and setting `mode` when given). */
export function writePersonFile(file: string, text: string, options: PersonFileOptions & { mode?: number }): void {
  const appender = new PersonFileAppender(file, { ...options, truncate: true });
  try {
    appender.write(text);
  } finally {
    appender.close();
  }
}

/**
 * A regular file opened for appending, one write per record. It never blocks and
 * never writes past `maxBytes` (counting what the file held before); a failed write
 * throws a PersonFileError naming the option.
 */
export class PersonFileAppender {
  private fd: number | undefined;
  /** Bytes in the file so far: what it held when opened, plus what was written. */
  private size: number;
  private readonly maxBytes: number;

  /** `mode`: the permissions it is created with, and set to when it already existed (0600 for a file holding secrets). */
  constructor(
    readonly file: string,
    private readonly options: PersonFileOptions & { mode?: number; maxBytes?: number; truncate?: boolean },
  ) {
    const flags = O_WRONLY | O_CREAT | (options.truncate ? O_TRUNC : O_APPEND);
    this.fd = openRegular(file, flags, options, "write", options.mode ?? 0o644);
    try {
      if (options.mode !== undefined) fs.fchmodSync(this.fd, options.mode); // the umask, or an older file's mode
      this.size = fs.fstatSync(this.fd).size;
    } catch (error) {
      this.close();
      throw asPersonFileError(error, file, options, "write");
    }
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Appends `text` in one system call; throws a PersonFileError when it fails or would pass `maxBytes`. */
  write(text: string): void {
    if (this.fd === undefined) throw new PersonFileError(`${named(this.file, this.options)}: already closed`);
    const bytes = Buffer.from(text, "utf8");
    if (this.size + bytes.length > this.maxBytes)
      throw new PersonFileError(
        `${named(this.file, this.options)}: reached its cap of ${this.maxBytes} bytes; nothing more is written`,
      );
    try {
      let done = 0;
      while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done);
    } catch (error) {
      throw asPersonFileError(error, this.file, this.options, "write");
    }
    this.size += bytes.length;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Opens without blocking, then checks (on what was opened) that it is a regular file. */
function openRegular(
  file: string,
  flags: number,
  options: PersonFileOptions,
  doing: "read" | "write",
  mode?: number,
): number {
  let fd: number;
  try {
    fd = fs.openSync(file, flags | O_NONBLOCK | (options.noFollow ? O_NOFOLLOW : 0), mode);
  } catch (error) {
    throw asPersonFileError(error, file, options, doing);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new PersonFileError(`${named(file, options)}: ${kindOf(stat)}, not a regular file`);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw asPersonFileError(error, file, options, doing);
  }
}

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a file";
}

/** Errno codes in words; the code itself is kept, for searching. */
const REASONS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "not permitted",
  EISDIR: "a directory",
  ENOTDIR: "a part of the path is not a folder",
  ELOOP: "a symbolic link (or a loop of them)",
  ENXIO: "a named pipe with no reader, or a device",
  ENOSPC: "no space left on the device",
  EDQUOT: "over the disk quota",
  EROFS: "a read-only file system",
  EFBIG: "the file is too large",
  EPIPE: "the reader went away",
  EIO: "an input/output error",
  ENAMETOOLONG: "the name is too long",
};

function asPersonFileError(error: unknown, file: string, options: PersonFileOptions, doing: string): PersonFileError {
  if (error instanceof PersonFileError) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = code ? `${REASONS[code] ?? "failed"} (${code})` : message;
  return new PersonFileError(`${named(file, options)}: ${doing === "write" ? "cannot write it: " : ""}${reason}`);
}

/** "--trace out.jsonl", or the file alone when no option named it. */
function named(file: string, options: PersonFileOptions): string {
  return options.option ? `${options.option} ${file}` : file;
}
