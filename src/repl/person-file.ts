// What the REPL's own files (the history, saved sessions) need beyond src/person-file.ts: reading only a file's tail, and rewriting it by rename.
//
// Never through a symbolic link, only a regular file (a FIFO would block,
// /dev/zero never ends), opened without blocking, read up to a bound, and
// written to a new 0600 file renamed over the old one, so a file that was
// 0644 does not stay so and a link put there is refused, not followed. A
// whole file is read with src/person-file.ts's readPersonFile.
import fs from "node:fs";
import path from "node:path";

/** Why `file` is no file to keep a person's data in, or undefined when it is a regular file. */
function notRegular(file: string, stat: fs.Stats): Error | undefined {
  if (stat.isFile()) return undefined;
  const what = stat.isSymbolicLink() ? "a symbolic link" : stat.isDirectory() ? "a folder" : "not a regular file";
  return new Error(`${file} is ${what}`);
}

/** The file's last `maxBytes`, from the first whole line: never through a link, never blocking, only a regular file. */
export function readTail(file: string, maxBytes: number): string {
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${file} is a symbolic link`);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    const refused = notRegular(file, stat);
    if (refused) throw refused;
    const length = Math.min(stat.size, maxBytes);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, stat.size - length);
    const text = buffer.toString("utf8", 0, read);
    return length < stat.size ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a new 0600 file beside `file` and renames it over: a link or a FIFO found there is refused, not followed. */
export function writeReplacing(file: string, text: string): void {
  const existing = fs.lstatSync(file, { throwIfNoEntry: false });
  const refused = existing && notRegular(file, existing);
  if (refused) throw refused;
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      fs.writeSync(fd, text);
      fs.fchmodSync(fd, 0o600); // whatever the umask
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
