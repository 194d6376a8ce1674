// The bin runs the bundle from V8's code cache (src/scout.cts, src/build.cts): only a cache made for this very bundle.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEARNER_FILES, REPO_ROOT, makeTree, runCli } from "./helpers.js";

const binOf = (root: string) => path.join(root, "dist", "scout.cjs");
/**
 * What the bin makes of the code cache, asked in a fresh process: V8 keeps what it compiled in memory,
 * so in this one a second compile would not even read the cache.
 */
function cacheUse(root: string): string {
  const ask = `console.log(require(${JSON.stringify(binOf(root))}).compileBundle().cache)`;
  return execFileSync(process.execPath, ["-e", ask], { encoding: "utf8" }).trim();
}
/** The bundle's CRC-32, as the bin computes it (src/scout.cts). */
const crcOf = (root: string) =>
  (createRequire(import.meta.url)(binOf(root)) as { compileBundle(useCache: boolean): { crc: number } }).compileBundle(
    false,
  ).crc;

/** A copy of Scout as built (package.json and dist/, node_modules linked), whose bundle a test may change. */
function copyOfScout(): string {
  const root = makeTree(
    { "package.json": fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8") },
    "scout-copy-",
  );
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
  return root;
}

const workspace = makeTree({ "a.txt": "one line\n" });
const readA = (scout: string) =>
  runCli(["tool", "read_file", '{"path":"a.txt"}'], { cwd: workspace, cli: binOf(scout) });

describe("the bin's bundle and its code cache", () => {
  it("has a code cache, written by the build for this bundle, which V8 takes", () => {
    expect(cacheUse(REPO_ROOT)).toBe("used");
  });

  it("is not used for a bundle edited since, even one of the same length (V8 checks only the length)", async () => {
    const scout = copyOfScout();
    const bundle = path.join(scout, "dist", "bundle.cjs");
    const text = fs.readFileSync(bundle, "utf8");
    const footer = `(lines \${offset}-`; // read_file's footer, compiled in the build's cache run
    expect(text).toContain(footer);
    fs.writeFileSync(bundle, text.replace(footer, footer.replace("lines", "LINES")));
    expect(cacheUse(scout)).toBe("for another bundle");
    const run = await readA(scout);
    expect(run.stdout).toContain("(LINES 1-1 of 1)");
  });

  it("changes nothing but the time when V8 refuses it, or when there is none", async () => {
    const scout = copyOfScout();
    const cacheFile = path.join(scout, "dist", "bundle.cjs.v8-cache");
    const header = Buffer.alloc(4);
    header.writeUInt32BE(crcOf(scout)); // this bundle's, so V8 is asked
    fs.writeFileSync(cacheFile, Buffer.concat([header, Buffer.from("not what V8 wrote".repeat(100))]));
    expect(cacheUse(scout)).toBe("rejected by V8");
    const refused = await readA(scout);
    fs.rmSync(cacheFile);
    expect(cacheUse(scout)).toBe("none");
    const none = await readA(scout);
    for (const run of [refused, none])
      expect([run.code, run.stdout, run.stderr]).toEqual([0, "1\tone line\n(lines 1-1 of 1)\n", ""]);
  });

  it("is refused at build time to a bundle that would import() a package: code from a cache cannot, on Node 20", async () => {
    const scout = copyOfScout();
    fs.appendFileSync(path.join(scout, "dist", "cli.js"), '\nexport const late = () => import("fast-glob");\n');
    const build = await runCli([], { cli: path.join(scout, "dist", "build.cjs"), cwd: scout });
    expect(build.code).toBe(1);
    expect(build.stderr).toContain("the bundle cannot import() fast-glob: add it to ES_MODULE_PACKAGES");
  });

  it("is ASCII text, read by Node as one byte a character: a regular expression or a kept comment in src/ can break that", () => {
    // esbuild escapes strings as ASCII, not regular expressions nor the comments it keeps; one other character
    // anywhere makes the whole 460 KB text two bytes a character (~1.5 ms to read, against ~0.5).
    const learners = LEARNER_FILES.map((file) => `dist/${file.replace(/\.ts$/, ".js")}`);
    let module = "";
    const found: string[] = [];
    for (const line of fs.readFileSync(path.join(REPO_ROOT, "dist", "bundle.cjs"), "utf8").split("\n")) {
      module = /^\/\/ ((?:dist|node_modules)\/\S+)$/.exec(line)?.[1] ?? module; // esbuild's line before each module
      if (/[^\x00-\x7f]/.test(line) && !learners.includes(module)) found.push(`${module}: ${line.trim().slice(0, 80)}`);
    }
    expect(found).toEqual([]);
  });
});
