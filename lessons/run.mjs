// Runs one of the lessons' TypeScript scripts with node, compiling only the .ts files it imports: `npm run check` and `npm run proxy-demo` start here.
//
// First it gives the learner a working copy of any starting file missing from
// lessons/build/ (lessons/working-copies.mjs). Then it registers
// lessons/typescript-hooks.mjs, which compiles the .ts files as they are
// imported, each cached until it changes, and imports the script, in this same
// process: as `node --import ./lessons/typescript-hooks.mjs lessons/SCRIPT.ts ARGS…` would run it.
// Usage: node lessons/run.mjs check|proxy-demo [ARGS…]
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { makeWorkingCopies } from "./working-copies.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [script, ...args] = process.argv.slice(2);
if (!["check", "proxy-demo"].includes(script)) {
  process.stderr.write("Usage: node lessons/run.mjs check|proxy-demo [ARGS…]\n");
  process.exit(2);
}

makeWorkingCopies();
await import("./typescript-hooks.mjs"); // importing it registers the hooks, for the imports after it
const file = path.join(here, `${script}.ts`);
process.argv = [process.argv[0], file, ...args]; // what the script reads, as if node had started it
await import(pathToFileURL(file).href);
