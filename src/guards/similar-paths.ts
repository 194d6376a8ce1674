// Which visible files a model probably meant when the path it gave does not exist: the one file whose name
// differs only in invisible or look-alike characters, the same name elsewhere, another extension, or a near
// spelling; found by a walk bounded in entries and time.
import fs from "node:fs";
import path from "node:path";
import type { WorkspaceView as Workspace } from "./workspace-view.js";
import { escapePath } from "./escape.js";
import { insertNewest, mtimeNsOf } from "./newest-first.js";

/** At most this many similar paths are suggested. */
export const MAX_SUGGESTIONS = 3;
/**
 * At most this many folder entries are read while looking (files and folders, visible or not): a hint is not
 * worth walking a huge tree for, and a folder of a million entries took 9.8 s and 415 MB when read whole.
 */
export const MAX_ENTRIES_READ = 20_000;
/** Looking for suggestions stops after this long, with what it found. */
export const SUGGEST_TIMEOUT_MS = 1_000;
/** Entries read from a folder at a time: a huge folder is streamed, never held whole. */
const READ_BATCH = 256;

interface Candidate {
  rel: string;
  mtimeNs: bigint;
}

/** What the walk found, and why it stopped early, if it did: said in read_file's message. */
export interface Suggestions {
  paths: string[];
  stopped?: "entries" | "time";
}

/**
 * Up to MAX_SUGGESTIONS visible files: first those with the same name in
 * another folder or case, or the same stem with another extension, newest
 * first; then names a small edit distance away ("ap.ts" for "app.ts",
 * "sluggs.py" for "slugs.py"), nearest first. Protected and hidden files are
 * never among them: only what the search tools may see is compared.
 */
export async function suggestSimilarPaths(
  workspace: Workspace,
  rel: string,
  signal?: AbortSignal,
): Promise<Suggestions> {
  const name = lookAlikeKey(path.posix.basename(rel)).toLowerCase();
  const stem = name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name;
  if (stem === "") return { paths: [] };
  const maxDistance = name.length <= 4 ? 1 : 2;
  const sameStem: Candidate[] = [];
  const near: Candidate[][] = Array.from({ length: maxDistance + 1 }, () => []);
  const stopped = await walkVisibleFiles(workspace, signal, (fileRel, abs) => {
    const other = lookAlikeKey(path.posix.basename(fileRel)).toLowerCase();
    const distance = other === stem || other.startsWith(`${stem}.`) ? 0 : 1 + editDistance(name, other, maxDistance);
    if (distance > maxDistance + 1) return;
    if (!workspace.isVisible(fileRel)) return; // the dearer test, made only for a name that is near
    const candidate = { rel: fileRel, mtimeNs: mtimeNsOf(abs) ?? 0n };
    insertNewest(distance === 0 ? sameStem : near[distance - 1], candidate, MAX_SUGGESTIONS);
  });
  return { paths: [...sameStem, ...near.flat()].slice(0, MAX_SUGGESTIONS).map((file) => file.rel), stopped };
}

/**
 * Reads the workspace folder by folder, nearest first, streaming each folder (never holding one whole), and
 * calls onFile with each regular file in a visible folder. Stops after MAX_ENTRIES_READ entries,
 * SUGGEST_TIMEOUT_MS or Ctrl-C, saying which (Ctrl-C as "time": the caller is stopping anyway).
 */
async function walkVisibleFiles(
  workspace: Workspace,
  signal: AbortSignal | undefined,
  onFile: (rel: string, abs: string) => void,
): Promise<Suggestions["stopped"]> {
  const deadline = Date.now() + SUGGEST_TIMEOUT_MS;
  const waiting = ["."];
  let read = 0;
  for (let next = 0; next < waiting.length; next++) {
    const relDir = waiting[next];
    const absDir = relDir === "." ? workspace.root : path.join(workspace.root, relDir);
    let dir: fs.Dir;
    try {
      dir = await fs.promises.opendir(absDir, { bufferSize: READ_BATCH });
    } catch {
      continue; // unreadable or gone: nothing to suggest from there
    }
    try {
      for await (const entry of dir) {
        if (++read > MAX_ENTRIES_READ) return "entries";
        if (Date.now() > deadline || signal?.aborted) return "time";
        const rel = relDir === "." ? entry.name : `${relDir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (workspace.isVisible(rel, true)) waiting.push(rel); // never a symlink: Dirent says what the entry is
        } else if (entry.isFile()) onFile(rel, path.join(absDir, entry.name));
      }
    } catch {
      // a folder that vanished mid-read suggests what it gave
    }
  }
  return undefined;
}

/**
 * The one visible regular file in the folder of `rel` whose name is the asked-for name once both are made
 * alike (see lookAlikeKey), or undefined when there is none or more than one. macOS screenshots hold U+202F
 * before "PM", copied names U+00A0, NFD accents or curly apostrophes; a model types plain ones.
 */
export async function findLookAlike(workspace: Workspace, rel: string): Promise<string | undefined> {
  const slash = rel.lastIndexOf("/");
  const relDir = slash === -1 ? "." : rel.slice(0, slash);
  const wanted = lookAlikeKey(rel.slice(slash + 1));
  const folder = workspace.resolveInWorkspace(relDir);
  if (!folder.ok) return undefined;
  const realDir = workspace.toRelative(folder.abs);
  const found: string[] = [];
  let dir: fs.Dir;
  try {
    dir = await fs.promises.opendir(folder.abs, { bufferSize: READ_BATCH });
  } catch {
    return undefined;
  }
  let read = 0;
  try {
    for await (const entry of dir) {
      if (++read > MAX_ENTRIES_READ) return undefined; // not sure it is the only one: no guess
      if (!entry.isFile() || lookAlikeKey(entry.name) !== wanted) continue;
      const entryRel = realDir === "." ? entry.name : `${realDir}/${entry.name}`;
      if (workspace.isVisible(entryRel)) found.push(relDir === "." ? entry.name : `${relDir}/${entry.name}`);
      if (found.length > 1) return undefined;
    }
  } catch {
    return undefined;
  }
  return found[0];
}

/** Curly quotes and primes, as their plain ASCII look-alikes. */
const QUOTES: Record<string, string> = { "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'" };
for (const curly of "“”„‟″") QUOTES[curly] = '"';
/** All of them, from the table, not written out again: one list (and the bundle stays ASCII, src/build.cts). */
const CURLY = Object.keys(QUOTES).join("");
const CURLY_QUOTE = new RegExp(`[${CURLY}]`, "g");
/** Any character that is invisible or looks like another: Unicode spaces, format characters, combining marks, curly quotes. */
const LOOK_ALIKE = new RegExp(`[\\p{Zs}\\p{Cf}\\p{M}${CURLY}]`, "gu");

/** A name as a person sees it: NFC, every Unicode space a plain space, curly quotes straight. */
export function lookAlikeKey(name: string): string {
  return name
    .normalize("NFC")
    .replace(/\p{Zs}/gu, " ")
    .replace(CURLY_QUOTE, (quote) => QUOTES[quote]);
}

/**
 * A name as read_file prints it in a suggestion or a footer: escapePath's escapes, and every character that is
 * invisible or looks like another (Unicode spaces, format characters, combining accents, curly quotes) as
 * \uXXXX, so "4.42.48\u202fPM.png" does not print exactly like what the model asked for.
 */
export function showLookAlikes(name: string): string {
  return escapePath(name).replace(LOOK_ALIKE, (char) =>
    char === " " ? char : `\\u${char.codePointAt(0)?.toString(16).padStart(4, "0")}`,
  );
}

/**
 * The Levenshtein distance of two names (insertions, deletions and
 * substitutions), or max + 1 as soon as it must be more than max.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(substitution, previous[j] + 1, row[j - 1] + 1));
      rowMin = Math.min(rowMin, row[j]);
    }
    if (rowMin > max) return max + 1;
    previous = row;
  }
  return Math.min(previous[b.length], max + 1);
}
