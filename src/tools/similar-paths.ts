// Which visible files a model probably meant when the path it gave does not exist: the same name
// elsewhere, another extension, or a near spelling.
import path from "node:path";
import type { Workspace } from "../workspace/workspace.js";
import { forEachVisibleFile, insertNewest } from "./newest-first.js";
import fs from "node:fs";

/** At most this many similar paths are suggested. */
export const MAX_SUGGESTIONS = 3;
/** At most this many files are compared: a hint is not worth walking a huge tree for. */
const MAX_FILES_COMPARED = 20_000;
/** Looking for suggestions stops after this long, with what it found. */
const SUGGEST_TIMEOUT_MS = 1_000;

interface Candidate {
  rel: string;
  mtimeNs: bigint;
}

/**
 * Up to MAX_SUGGESTIONS visible files: first those with the same name in
 * another folder or case, or the same stem with another extension, newest
 * first; then names a small edit distance away ("ap.ts" for "app.ts",
 * "sluggs.py" for "slugs.py"), nearest first. Protected and hidden files are
 * never among them: only what the search tools may see is compared.
 */
export async function suggestSimilarPaths(workspace: Workspace, rel: string, signal?: AbortSignal): Promise<string[]> {
  const name = path.posix.basename(rel).toLowerCase();
  const stem = name.includes(".") ? name.slice(0, name.lastIndexOf(".")) : name;
  if (stem === "") return [];
  const maxDistance = name.length <= 4 ? 1 : 2;
  const sameStem: Candidate[] = [];
  const near: Candidate[][] = Array.from({ length: maxDistance + 1 }, () => []);
  /** 0 for the same stem, else the edit distance; over maxDistance for a name too far. */
  const distanceTo = (other: string) =>
    other === stem || other.startsWith(`${stem}.`) ? 0 : 1 + editDistance(name, other, maxDistance);
  let compared = 0;
  let distance = 0; // of the name keep last let through, which is the file onFile is then given
  // Past the cap the walk is stopped, not left to run to the deadline finding nothing more.
  const capped = new AbortController();
  const walk = {
    signal: signal ? AbortSignal.any([signal, capped.signal]) : capped.signal,
    deadline: Date.now() + SUGGEST_TIMEOUT_MS,
    // Names are compared before visibility is checked, which is the dearer test.
    keep: (other: string) => {
      if (++compared > MAX_FILES_COMPARED) {
        capped.abort();
        return false;
      }
      distance = distanceTo(baseName(other));
      return distance <= maxDistance + 1;
    },
  };
  try {
    await forEachVisibleFile(workspace, ".", "**/*", walk, (file) => {
      const candidate = { rel: file.rel, mtimeNs: mtimeOf(file.abs) };
      insertNewest(distance === 0 ? sameStem : near[distance - 1], candidate, MAX_SUGGESTIONS);
    });
  } catch {
    // a walk that failed suggests what it found so far
  }
  return [...sameStem, ...near.flat()].slice(0, MAX_SUGGESTIONS).map((file) => file.rel);
}

function baseName(rel: string): string {
  return path.posix.basename(rel).toLowerCase();
}

function mtimeOf(abs: string): bigint {
  try {
    return fs.lstatSync(abs, { bigint: true }).mtimeNs;
  } catch {
    return 0n;
  }
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
