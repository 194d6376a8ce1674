// The one order glob, list_files and grep promise: newest first by modification time, ties by path.
import fs from "node:fs";

/** A file's modification time to the nanosecond (its own, not a link's target's), or undefined once it is gone. */
export function mtimeNsOf(abs: string): bigint | undefined {
  try {
    return fs.lstatSync(abs, { bigint: true }).mtimeNs;
  } catch {
    return undefined;
  }
}

/**
 * Compares two entries by mtime (in nanoseconds, newest first), then by
 * name, so the order is the same on every machine: negative when a comes
 * first.
 */
export function newestFirst(aMtimeNs: bigint, aName: string, bMtimeNs: bigint, bName: string): number {
  if (aMtimeNs !== bMtimeNs) return aMtimeNs > bMtimeNs ? -1 : 1;
  return aName < bName ? -1 : aName > bName ? 1 : 0;
}

/** One output line: a hit or context line of a file, or "--" between groups. */
export type Line = { file: string; hit: boolean; text: string } | "--";
/** What rg printed for one file, in file order. */
export interface FileLines {
  file: string;
  mtimeNs: bigint;
  lines: Line[];
}

/**
 * Puts rg's output in the promised order, newest file first and ties by
 * path, keeping little more than the cap. rg sorts by mtime, but files with
 * the same mtime come in directory order, which differs between machines, so
 * each run of files with equal mtimes is held back and sorted by path.
 */
export class NewestFirstLines {
  private placed: FileLines[] = [];
  private ties: FileLines[] = [];
  private cut = false;
  constructor(
    private readonly separateFiles: boolean,
    private readonly cap: number,
  ) {}

  /** Adds the next file rg printed; false once no file after it can be shown. */
  add(next: FileLines): boolean {
    if (this.ties.length > 0 && this.ties[0].mtimeNs !== next.mtimeNs) {
      this.placed.push(...this.ties);
      this.ties = [];
      if (this.size(this.placed) > this.cap) return false;
    }
    this.ties.push(next);
    this.ties.sort((a, b) => (a.file < b.file ? -1 : 1));
    // A tied file that would start past the cap is dropped now, so memory stays bounded.
    while (this.ties.length > 1 && this.size([...this.placed, ...this.ties.slice(0, -1)]) >= this.cap) {
      this.ties.pop();
      this.cut = true;
    }
    return true;
  }

  /** The lines to show, with "--" between files when there is context, and whether any were cut. */
  finish(): { lines: Line[]; cut: boolean } {
    const all = [...this.placed, ...this.ties].flatMap((file, i) =>
      i > 0 && this.separateFiles ? ["--" as const, ...file.lines] : file.lines,
    );
    const lines = all.slice(0, this.cap);
    if (lines.at(-1) === "--") lines.pop();
    return { lines, cut: this.cut || all.length > this.cap };
  }

  private size(files: FileLines[]): number {
    const separators = this.separateFiles ? Math.max(0, files.length - 1) : 0;
    return files.reduce((sum, file) => sum + file.lines.length, separators);
  }
}

/** How many lines or files a result keeps, and in which order: newest first ("mtime"), or by path. */
export interface ResultLimits {
  cap: number;
  sort: "mtime" | "path";
}

/** A file as the newest-first lists keep it. */
export interface FoundFile {
  rel: string;
  mtimeNs: bigint;
}

/** Newest first, ties by path; the list never holds more than `cap` files. */
export function insertNewest(list: FoundFile[], file: FoundFile, cap: number): void {
  let i = list.length;
  while (i > 0 && newestFirst(file.mtimeNs, file.rel, list[i - 1].mtimeNs, list[i - 1].rel) < 0) i--;
  if (i >= cap) return;
  list.splice(i, 0, file);
  if (list.length > cap) list.pop();
}
