// Compiles, once, every TypeScript file an `npm run check` may import (lessons/ and src/, not a learner's
// lessons/build/ nor the sample project) into the hooks' cache, so that a first check does not compile them.
//
// npm install runs it (the prepare script). Without it, the first check on a fresh clone compiled some 50 files
// and took ~5 s instead of ~1 s; several first checks at once (npm test runs them side by side) each compiled
// them all, and with both cores busy ran past their time limits.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compiled } from "./typescript-hooks.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Not compiled: the learner's own working copies, and the sample project the lessons explore (never imported). */
const SKIPPED = /^lessons\/(build|sample-project)\/|(^|\/)node_modules\//;

for (const top of ["lessons", "src"]) {
  let names = [];
  try {
    names = fs.readdirSync(path.join(ROOT, top), { recursive: true });
  } catch {
    continue; // warming is a speed-up: install goes on without it
  }
  for (const name of names) {
    const rel = `${top}/${name.split(path.sep).join("/")}`;
    if (!rel.endsWith(".ts") || rel.endsWith(".d.ts") || SKIPPED.test(rel)) continue;
    try {
      await compiled(path.join(ROOT, rel));
    } catch {
      // A file that does not compile is not kept: the check that imports it says so, with its line.
    }
  }
}
