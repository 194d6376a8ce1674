#!/usr/bin/env node
// The program `scout` runs: it answers `scout --version` itself, and runs every other command from
// dist/bundle.cjs, all of Scout's modules in one CommonJS file, made by esbuild when Scout is built (src/build.cts).
//
// Why a bundle: Node 20 reads each ES module in several trips to its thread pool, and Scout's REPL loads
// ~50 of them before its prompt. Why compiled here, with V8's code cache: V8 parses all 460 KB of the bundle
// before its first line runs (~9 ms); the cache, written at build time, holds that work done (~3 ms to read).
// With both, `scout tool read_file` takes ~1.27× the time of `node -e 0`, against ~1.6× for the modules
// (npm run bench; issue 28, lessons/reference.md). The bundle is the same code: dist/cli.js runs the modules
// unbundled (`node dist/cli.js`), and the tests import them. Each module's code in the bundle still runs only
// when it is first imported. dist/cli.js stays executable too: npx keeps the bin it first linked for a folder,
// and a Scout built before the bundle linked it.
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");
import vm = require("node:vm");
import zlib = require("node:zlib");

const BUNDLE = path.join(__dirname, "bundle.cjs");
/** V8's code cache for the bundle: 4 bytes of the bundle file's CRC-32, then V8's data (writeCodeCache, at build time). */
const CODE_CACHE = path.join(__dirname, "bundle.cjs.v8-cache");
/** The command the build runs to fill the cache: what start-up, the workspace and one tool call compile. */
const CACHE_TRAINING_RUN = ["tool", "read_file", '{"path":"package.json"}'];

/** What became of the code cache: V8 took it, V8 refused it (another Node), it was for another bundle, or none. */
export type CodeCacheUse = "used" | "rejected by V8" | "for another bundle" | "none";

/**
 * The bundle compiled as Node's CommonJS loader would, from the code cache when it is this bundle's.
 * V8 checks only the source's length and its own version and flags, so the cache carries the bundle's
 * CRC-32 too (as Node 22's own compile cache does): an edited bundle of the same length is compiled afresh.
 */
export function compileBundle(useCache = true): { script: vm.Script; cache: CodeCacheUse; crc: number } {
  const bytes = fs.readFileSync(BUNDLE);
  const crc = zlib.crc32(bytes);
  const text = bytes.toString("utf8");
  const source = text.startsWith("#!") ? text.slice(text.indexOf("\n")) : text; // the loader drops a #! line too
  const saved = useCache ? readIfThere(CODE_CACHE) : undefined;
  const ours = saved !== undefined && saved.length > 4 && saved.readUInt32BE(0) === crc;
  const script = new vm.Script(nodeModule.wrap(source), {
    filename: BUNDLE,
    cachedData: ours ? saved.subarray(4) : undefined,
  });
  const cache =
    saved === undefined ? "none" : !ours ? "for another bundle" : script.cachedDataRejected ? "rejected by V8" : "used";
  return { script, cache, crc };
}

/** Runs the compiled bundle as the module dist/bundle.cjs, listed in require.cache as require() would list it. */
function runBundle(script: vm.Script): void {
  const bundle = new nodeModule(BUNDLE, module);
  bundle.filename = BUNDLE;
  require.cache[BUNDLE] = bundle;
  script.runInThisContext()(bundle.exports, nodeModule.createRequire(BUNDLE), bundle, BUNDLE, __dirname);
  bundle.loaded = true;
}

/** For the build: runs CACHE_TRAINING_RUN from a bundle compiled afresh, and at exit saves what V8 compiled. */
export function writeCodeCache(): void {
  const { script, crc } = compileBundle(false);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(crc);
  process.on("exit", () => fs.writeFileSync(CODE_CACHE, Buffer.concat([header, script.createCachedData()])));
  process.argv = [process.execPath, BUNDLE, ...CACHE_TRAINING_RUN];
  runBundle(script);
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined; // not built yet, or removed: V8 compiles as it would without it
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  // A learner's --loop, --tool or --adapter file imports Scout's modules (src/learner-code.ts), so Scout runs
  // as those same modules then: one copy of each, shared (one TurnQuit, one tool registry, one UnreadableInput).
  // (Nor could the bundle import() the file: code compiled from a cache cannot, on Node 20; src/build.cts.)
  const learnerCode = args.some((arg) => /^--(loop|tool|adapter)(=|$)/.test(arg));

  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    console.log(`scout ${require("../package.json").version}`); // the bundle is not even read
  } else if (learnerCode) {
    import("./cli.js");
  } else {
    // Node 22.8+ caches what it compiles (src/cli.ts says more): here, the packages the bundle requires.
    (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
    runBundle(compileBundle().script);
  }
}
