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
const SKIPPED = new Set([path.join(ROOT, "lessons", "build"), path.join(ROOT, "lessons", "sample-project")]);

/** Every .ts file under a folder (not .d.ts), but in the skipped folders and node_modules; [] where unreadable. */
function tsFiles(dir) {
  if (SKIPPED.has(dir) || path.basename(dir) === "node_modules") return [];
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // warming is a speed-up: install goes on without it
  }
  return entries.flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

const files = [...tsFiles(path.join(ROOT, "lessons")), ...tsFiles(path.join(ROOT, "src"))];
for (const file of files) {
  try {
    await compiled(file);
  } catch {
    // A file that does not compile is not kept: the check that imports it says so, with its line.
  }
}
