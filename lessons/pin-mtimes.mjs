// Pins the modification times of lessons/sample-project from the committed
// list lessons/sample-project.mtimes.json (relative path -> seconds since the
// epoch). list_files, glob and grep sort newest first, so without this a
// fresh clone (where every file is as new as the checkout) would print its
// results in another order than the lessons show.
//
// Runs from `npm install` (the "prepare" script) and from the lessons test.
// Safe to run any number of times; never fails an install: a missing entry
// is reported and skipped. No dependencies, plain Node.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "sample-project");
const listFile = path.join(here, "sample-project.mtimes.json");

if (!fs.existsSync(listFile) || !fs.existsSync(root)) process.exit(0);
const mtimes = JSON.parse(fs.readFileSync(listFile, "utf8"));

// Deepest paths first: a folder's own time is set after everything inside it.
const entries = Object.entries(mtimes).sort(([a], [b]) => b.split("/").length - a.split("/").length);
let missing = 0;
for (const [rel, seconds] of entries) {
  const abs = path.join(root, rel);
  try {
    // A symlink gets its own time; utimes would follow it and touch the file it points at.
    if (fs.lstatSync(abs).isSymbolicLink()) fs.lutimesSync(abs, seconds, seconds);
    else fs.utimesSync(abs, seconds, seconds);
  } catch {
    missing++;
    console.error(`pin-mtimes: skipped ${path.posix.join("lessons/sample-project", rel)} (not found)`);
  }
}
if (missing)
  console.error(`pin-mtimes: ${missing} of ${entries.length} paths were not found; lesson outputs may differ`);
