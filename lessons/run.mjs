// Runs one of the lessons' TypeScript scripts with node, compiling only the .ts files it imports: `npm run check` and `npm run proxy-demo` start here.
//
// First it gives the learner a working copy of any starting file missing from
// lessons/build/ (lessons/working-copies.mjs). The .ts files are compiled as
// they are imported, by lessons/typescript-hooks.mjs, and cached until they change.
// Usage: node lessons/run.mjs check|proxy-demo [ARGS…]
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeWorkingCopies } from "./working-copies.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [script, ...args] = process.argv.slice(2);
if (!["check", "proxy-demo"].includes(script)) {
  process.stderr.write("Usage: node lessons/run.mjs check|proxy-demo [ARGS…]\n");
  process.exit(2);
}

makeWorkingCopies();
const hooks = path.join(here, "typescript-hooks.mjs");
const run = spawnSync(process.execPath, ["--import", hooks, path.join(here, `${script}.ts`), ...args], {
  stdio: "inherit",
});
process.exitCode = run.status ?? 1;
