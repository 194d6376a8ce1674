#!/usr/bin/env node
// The program `scout` runs: it answers `scout --version` itself, and runs every other command from
// dist/bundle.cjs, all of Scout's modules in one CommonJS file, made by esbuild when Scout is built (src/build.cts).
//
// Why a bundle: Node 20 reads each ES module in several trips to its thread pool, and Scout's REPL loads
// ~50 of them before its prompt. Why compiled here, with V8's code cache: V8 parses all 690 KB of the bundle
// before its first line runs (~9 ms); the cache, written at build time, holds that work done (~3 ms to read).
// With both, `scout tool read_file` takes ~1.25× the time of `node -e 0`, against ~1.6× for the modules
// (npm run bench; issue 28, lessons/reference.md). The bundle is the same code: dist/cli.js runs the modules
// unbundled (`node dist/cli.js`), and the tests import them. Each module's code in the bundle still runs only
// when it is first imported. dist/cli.js stays executable too: npx keeps the bin it first linked for a folder,
// and a Scout built before the bundle linked it.
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");
import vm = require("node:vm");
import zlib = require("node:zlib");

export const BUNDLE = path.join(__dirname, "bundle.cjs");
/**
 * V8's code cache for the bundle, written at build time (writeCodeCache): a first line of JSON saying what it
 * was made for, then V8's data. V8 checks a cache against the source's length and its own version and flags
 * only, and in a release build never checks the data itself (damaged data crashed Node), so the line holds
 * the bundle file's CRC-32, Node's version, the options Node was started with and the data's CRC-32.
 */
export const CODE_CACHE = path.join(__dirname, "bundle.cjs.v8-cache");
interface CacheHeader {
  bundleCrc: number;
  node: string;
  options: string;
  dataCrc: number;
}
/**
 * NODE_OPTIONS and node's own options. V8 refuses a cache made under other V8 flags, and then compiles the
 * whole bundle: on Node 22.8+, Node's own compile cache (through require) is faster than that.
 */
const nodeOptions = () => [process.env.NODE_OPTIONS ?? "", ...process.execArgv].filter(Boolean).join(" ");
/** What the header says of a cache of `data` for `bundle`, made by this Node as it was started. */
function headerFor(bundle: Buffer, data: Buffer): CacheHeader {
  return { bundleCrc: zlib.crc32(bundle), node: process.version, options: nodeOptions(), dataCrc: zlib.crc32(data) };
}
/** The command the build runs to fill the cache: what start-up, the workspace and one tool call compile. */
const CACHE_TRAINING_RUN = ["tool", "read_file", '{"path":"package.json"}'];

/** Why the code cache was not used, when it was not. */
type Unused = "none" | "for another bundle" | "for another Node or options" | "damaged";
/** What becomes of the code cache: V8 takes it, V8 refuses it (it checks more than the header), or it is not offered. */
export type CodeCacheUse = "used" | "rejected by V8" | Unused;

/** The code cache's data when it was written for this bundle file, by this Node so started, and is whole; else why not. */
function savedCodeCache(bundle: Buffer): { data: Buffer } | { unused: Unused } {
  let saved: Buffer;
  try {
    if (!fs.statSync(CODE_CACHE).isFile()) return { unused: "none" }; // a folder, or a FIFO that would never end
    saved = fs.readFileSync(CODE_CACHE);
  } catch {
    return { unused: "none" }; // not built yet, removed, or unreadable
  }
  const end = saved.indexOf(10); // the header line's "\n"
  let header: Partial<CacheHeader> = {};
  try {
    header = JSON.parse(saved.subarray(0, Math.max(end, 0)).toString()) ?? {}; // "null" too
  } catch {} // not JSON: damaged, as below
  const data = saved.subarray(end + 1);
  const ours = headerFor(bundle, data);
  if (end < 0 || header.dataCrc !== ours.dataCrc) return { unused: "damaged" };
  if (header.bundleCrc !== ours.bundleCrc) return { unused: "for another bundle" };
  if (header.node !== ours.node || header.options !== ours.options) return { unused: "for another Node or options" };
  return { data };
}

/** The bundle compiled as Node's CommonJS loader would, from V8's code cache when one is given. */
function compileBundle(bundle: Buffer, cachedData?: Buffer): vm.Script {
  const text = bundle.toString("utf8");
  const source = text.startsWith("#!") ? text.slice(text.indexOf("\n")) : text; // the loader drops a #! line too
  return new vm.Script(nodeModule.wrap(source), { filename: BUNDLE, cachedData });
}

/** Runs the compiled bundle as the module dist/bundle.cjs, listed in require.cache as require() would list it. */
function runBundle(script: vm.Script): void {
  const bundle = new nodeModule(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = module.paths; // the same folder's
  require.cache[BUNDLE] = bundle;
  script.runInThisContext()(bundle.exports, nodeModule.createRequire(BUNDLE), bundle, BUNDLE, __dirname);
  bundle.loaded = true;
}

/** Runs the bundle: from the code cache when it is this bundle's, else through Node's own loader, as before it. */
function startBundle(): void {
  let bundle: Buffer;
  try {
    bundle = fs.readFileSync(BUNDLE);
  } catch {
    console.error(`scout: ${BUNDLE} cannot be read: build Scout first (npm run build)`);
    process.exit(1);
  }
  const saved = savedCodeCache(bundle);
  // V8 may still refuse the data (it checks more than the header does): then it has compiled the bundle afresh.
  if ("data" in saved) runBundle(compileBundle(bundle, saved.data));
  else require(BUNDLE); // and on Node 22.8+, Node's compile cache
}

/** What the bin makes of the code cache now (for the tests). */
export function codeCacheUse(): CodeCacheUse {
  const bundle = fs.readFileSync(BUNDLE);
  const saved = savedCodeCache(bundle);
  if (!("data" in saved)) return saved.unused;
  return compileBundle(bundle, saved.data).cachedDataRejected ? "rejected by V8" : "used";
}

/** For the build: runs CACHE_TRAINING_RUN from the bundle compiled afresh, and at exit saves what V8 compiled. */
export function writeCodeCache(): void {
  const bundle = fs.readFileSync(BUNDLE);
  const script = compileBundle(bundle);
  process.on("exit", () => {
    const data = script.createCachedData();
    fs.writeFileSync(CODE_CACHE, Buffer.concat([Buffer.from(`${JSON.stringify(headerFor(bundle, data))}\n`), data]));
  });
  process.argv = [process.execPath, BUNDLE, ...CACHE_TRAINING_RUN];
  runBundle(script);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  // A learner's --loop, --tool or --adapter file imports Scout's modules (src/learner-code.ts), so Scout runs
  // as those same modules then: one copy of each, shared (one TurnQuit, one tool registry, one UnreadableInput).
  // (Nor could the bundle import() the file: src/build.cts.)
  const learnerCode = args.some((arg) => /^--(loop|tool|adapter)(=|$)/.test(arg));

  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    console.log(`scout ${require("../package.json").version}`); // the bundle is not even read
  } else if (learnerCode) {
    import("./cli.js");
  } else {
    // Node 22.8+ caches what it compiles (src/cli.ts says more): the packages the bundle requires, or the bundle.
    (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
    startBundle();
  }
}
