// What a shared test case is, and real temporary folders for cases that run outside vitest too.
//
// The cases under lessons/cases/ check Scout's own code in `npm test` and a
// learner's version of the same piece in `npm run check` (lessons/check.ts),
// so both are held to exactly the same tests. They live in lessons/, not test/,
// because the course uses them (its graders and check import nothing from test/),
// and they use node:assert, not vitest, because the check runs them without vitest.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** One test of a piece of the agent (the loop, a tool, a model adapter), given the piece to test. */
export interface Case<Subject> {
  name: string;
  /** What to look at when the case fails: printed by the check, never by npm test. */
  hint: string;
  run(subject: Subject): Promise<void>;
}

/** A file's content, or a file with a modification time (seconds since the epoch). */
export type TreeFile = string | Buffer | { content: string | Buffer; mtime: number };

/** Writes `files` (paths with "/") under `root`, creating parent folders as needed; test/helpers.ts's makeTree too. */
export function writeTree(root: string, files: Record<string, TreeFile>): void {
  for (const [rel, spec] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const timed = typeof spec === "object" && !Buffer.isBuffer(spec);
    fs.writeFileSync(abs, timed ? spec.content : spec);
    if (timed) fs.utimesSync(abs, spec.mtime, spec.mtime);
  }
}

/**
 * Runs `fn` in a real temporary folder holding `files` (paths with "/"),
 * and removes the folder afterwards, whatever happened.
 */
export async function withTree<T>(files: Record<string, TreeFile>, fn: (root: string) => Promise<T>): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "scout-case-"));
  try {
    writeTree(root, files);
    return await fn(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Sets a file's or folder's modification time (seconds since the epoch). */
export function setMtime(root: string, rel: string, seconds: number): void {
  fs.utimesSync(path.join(root, rel), seconds, seconds);
}
