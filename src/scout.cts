#!/usr/bin/env node
// The program `scout` runs: it answers `scout --version` itself, and runs every other command from
// dist/bundle.cjs, all of Scout's modules in one CommonJS file, made by esbuild when Scout is built.
//
// Why a bundle: Node 20 reads each ES module in several trips to its thread pool, and Scout's REPL loads
// ~50 of them before its prompt; from one CommonJS file the prompt comes up in 1.40-1.51× the time `node`
// takes to print a line, against ~1.70× (npm run bench; issue 28, lessons/reference.md). The bundle is
// the same code: dist/cli.js runs the modules unbundled (`node dist/cli.js`), and the tests import them. Each module's
// code in the bundle still runs only when it is first imported. dist/cli.js stays executable too: npx keeps
// the bin it first linked for a folder, and a Scout built before the bundle linked it.
import nodeModule = require("node:module");

const args = process.argv.slice(2);
// A learner's --loop, --tool or --adapter file imports Scout's modules (src/learner-code.ts), so Scout runs
// as those same modules then: one copy of each, shared (one TurnQuit, one tool registry, one UnreadableInput).
const learnerCode = args.some((arg) => /^--(loop|tool|adapter)(=|$)/.test(arg));

if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  console.log(`scout ${require("../package.json").version}`); // the bundle is not even read
} else if (learnerCode) {
  import("./cli.js");
} else {
  // Node 22.8+ caches what it compiles (src/cli.ts says more), the bundle included: enabled before it loads.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  require("./bundle.cjs");
}
