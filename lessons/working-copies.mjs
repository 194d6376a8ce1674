// Gives the learner a working copy of each shipped starting file (lessons/starters/) that is missing from their folder, lessons/build/.
//
// lessons/build/ is the learner's: git ignores it, so a `git pull` never
// touches their work and npm test never judges it (the tests check the
// starters). A file already there is never overwritten; delete it to start
// that exercise again. Runs from `npm install` (the "prepare" script), from
// `npm run check` and from the lessons test. No dependencies, plain Node.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const STARTERS = path.join(here, "starters");
export const BUILD = path.join(here, "build");

/** Copies every starter missing from lessons/build/; returns the paths copied, relative to lessons/build/. */
export function makeWorkingCopies() {
  const copied = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(STARTERS, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && !fs.existsSync(path.join(BUILD, child))) {
        fs.mkdirSync(path.join(BUILD, rel), { recursive: true });
        // Written whole under a name of its own, then linked into place: a check started at the same time (npm
        // test runs several) that finds the name taken finds a whole copy, never one half written.
        const partial = path.join(BUILD, `${child}.${process.pid}.partial`);
        fs.copyFileSync(path.join(STARTERS, child), partial);
        try {
          fs.linkSync(partial, path.join(BUILD, child));
          copied.push(child);
        } catch (error) {
          if (error.code !== "EEXIST") throw error; // another check made it first: that is the copy
        } finally {
          fs.rmSync(partial, { force: true });
        }
      }
    }
  };
  if (fs.existsSync(STARTERS)) walk("");
  return copied;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) makeWorkingCopies();
