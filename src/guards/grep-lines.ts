// What grep shows of the files rg found: only files it may show and that exist, paths escaped, lines clipped.
import path from "node:path";
import { escapeFileLine, escapePath } from "./escape.js";
import { type FileLines, type Line, mtimeNsOf } from "./newest-first.js";
import type { RgFile, RgOutcome } from "./ripgrep.js";
import { canRead } from "./search-path.js";

import { clipLine } from "./result-budget.js";

export interface ShowOptions {
  root: string;
  /** Whether grep may show a file: visible, and inside the searched path. */
  shows: (file: string) => boolean;
  context: number;
  byMtime: boolean;
  /** Each shown line is clipped to this many characters. */
  maxChars: number;
  /** Called for a shown file in which rg saw a NUL byte. */
  onBinary: () => void;
}

/**
 * The files rg found, as the lines grep prints: "path:line:text" for a hit,
 * "path-line-text" for context, and "--" between groups of one file when
 * there is context (those between files are added later). A file that
 * vanished since rg read it is dropped.
 */
export async function* filesShown(files: AsyncIterable<RgFile>, options: ShowOptions): AsyncGenerator<FileLines> {
  for await (const { file, lines, binary } of files) {
    const mtimeNs = options.shows(file) ? mtimeOf(options.root, file, options.byMtime) : undefined;
    if (mtimeNs === undefined) continue;
    if (binary) options.onBinary();
    const name = escapePath(file); // one line per entry, whatever the name holds
    const shown: Line[] = [];
    let lastLine = 0;
    for (const { lineNumber, hit, text, cut } of lines) {
      if (options.context > 0 && shown.length > 0 && lineNumber > lastLine + 1) shown.push("--");
      lastLine = lineNumber;
      const mark = hit ? ":" : "-";
      // Escaped as read_file escapes the same line: a file's ESC or BEL reaches no one raw.
      const clipped = clipLine(escapeFileLine(text), options.maxChars, cut);
      shown.push({ file, hit, text: `${name}${mark}${lineNumber}${mark}${clipped}` });
    }
    yield { file, mtimeNs, lines: shown };
  }
}

/** The footer naming what rg could not read (only paths grep would show), or nothing. */
export function unreadableNote({ unreadable: { count, first } }: RgOutcome): string[] {
  if (count === 0 || !first) return [];
  const what = `${count} file${count === 1 ? "" : "s"} or folder${count === 1 ? "" : "s"}`;
  return [`(rg could not read ${what}${count === 1 ? ":" : ", e.g."} ${escapePath(first.file)}: ${first.reason})`];
}

/** Whether Scout can read a path itself: rg's complaint about one it can read is not believed. */
export function isReadable(abs: string): boolean {
  return canRead(abs);
}

/**
 * A file's mtime to the nanosecond, as rg sorted by it; undefined when there
 * is no such file. In path order every file counts as equally new (0), so
 * the tie-break by path decides.
 */
function mtimeOf(root: string, file: string, byMtime: boolean): bigint | undefined {
  const mtimeNs = mtimeNsOf(path.join(root, file));
  return mtimeNs === undefined || byMtime ? mtimeNs : 0n;
}
