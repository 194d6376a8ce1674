// Compiles the lessons' TypeScript with tsc into a fresh folder and runs one script from it with node:
// `npm run check` and `npm run proxy-demo` start here.
//
// A fresh folder per run, removed afterwards, so two checks at once (two
// terminals, or the tests) never read each other's half-written files.
// Usage: node lessons/run.mjs check|proxy-demo [ARGS…]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** A compile folder older than this was left by a run that was killed: it is removed. */
const STALE_MS = 10 * 60_000;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cache = path.join(repo, "node_modules", ".cache");
const [script, ...args] = process.argv.slice(2);
if (!["check", "proxy-demo"].includes(script)) {
  process.stderr.write("Usage: node lessons/run.mjs check|proxy-demo [ARGS…]\n");
  process.exit(2);
}

fs.mkdirSync(cache, { recursive: true });
for (const name of fs.readdirSync(cache).filter((n) => n.startsWith("scout-lessons-"))) {
  const dir = path.join(cache, name);
  if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
}
const out = fs.mkdtempSync(path.join(cache, "scout-lessons-"));
try {
  // Type errors are printed, but the script still runs: tsc emits what it can, and the cases say the rest.
  const tsc = path.join(repo, "node_modules", "typescript", "bin", "tsc");
  spawnSync(process.execPath, [tsc, "-p", path.join(repo, "lessons"), "--outDir", out], { stdio: "inherit" });
  const run = spawnSync(process.execPath, [path.join(out, "lessons", `${script}.js`), ...args], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
