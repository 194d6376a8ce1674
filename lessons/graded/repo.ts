// Where the repository is, for the check and its graders: a file of its own, so the check's process, which only
// supervises, finds it without loading the graders and the Scout code they run.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository: the nearest folder above this file with a package.json (this file also runs compiled, from node_modules/.cache). */
export const REPO_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();
export const SAMPLE_PROJECT = path.join(REPO_ROOT, "lessons", "sample-project");
