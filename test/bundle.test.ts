// The bin runs the bundle from V8's code cache (src/scout.cts, src/build.cts): only a cache made for this very bundle.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { LEARNER_FILES, REPO_ROOT, makeTree, runCli } from "./helpers.js";

const binOf = (root: string) => path.join(root, "dist", "scout.cjs");
/**
 * What the bin makes of the code cache, asked in a fresh process: V8 keeps what it compiled in memory,
 * so in this one a second compile would not even read the cache. A script, not `node -e`: Node's options
 * are part of what the cache was made for.
 */
function cacheUse(root: string): string {
  const ask = makeTree({ "ask.cjs": `console.log(require(${JSON.stringify(binOf(root))}).codeCacheUse());\n` });
  return execFileSync(process.execPath, [path.join(ask, "ask.cjs")], { encoding: "utf8" }).trim();
}

/** A copy of Scout as built (package.json and dist/, node_modules linked), whose bundle a test may change. */
function copyOfScout(modules = path.join(REPO_ROOT, "node_modules")): string {
  const root = makeTree(
    { "package.json": fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8") },
    "scout-copy-",
  );
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"), { recursive: true });
  fs.symlinkSync(modules, path.join(root, "node_modules"));
  return root;
}

/** Writes a code cache file: the build's header line (from `built`) with `header`'s changes and `data`'s CRC-32, then `data`. */
function writeCache(root: string, built: Buffer, data: Buffer, header: Record<string, unknown>) {
  const line = JSON.stringify({
    ...JSON.parse(built.subarray(0, built.indexOf(10)).toString()),
    dataCrc: zlib.crc32(data),
    ...header,
  });
  fs.writeFileSync(path.join(root, "dist", "bundle.cjs.v8-cache"), Buffer.concat([Buffer.from(`${line}\n`), data]));
}

const workspace = makeTree({ "a.txt": "one line\n" });
const readA = (scout: string) =>
  runCli(["tool", "read_file", '{"path":"a.txt"}'], { cwd: workspace, cli: binOf(scout) });
const READ_A = [0, "1\tone line\n(lines 1-1 of 1)\n", ""];

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

  it("changes nothing but the time when it is damaged, for another Node or other options, refused by V8, or missing", async () => {
    const scout = copyOfScout();
    const cacheFile = path.join(scout, "dist", "bundle.cjs.v8-cache");
    const saved = fs.readFileSync(cacheFile);
    const damaged = Buffer.from(saved);
    damaged.fill(0xff, 200, 264); // V8 does not check its data: run, these bytes crashed Node (exit 139)
    fs.writeFileSync(cacheFile, damaged);
    const runs = [[cacheUse(scout), await readA(scout)]];
    const data = saved.subarray(saved.indexOf(10) + 1);
    writeCache(scout, saved, data, { node: "v0.0.0" });
    runs.push([cacheUse(scout), await readA(scout)]);
    writeCache(scout, saved, data, { options: "--max-old-space-size=100" });
    runs.push([cacheUse(scout), await readA(scout)]);
    writeCache(scout, saved, Buffer.from("not what V8 wrote".repeat(100)), {});
    runs.push([cacheUse(scout), await readA(scout)]);
    fs.writeFileSync(cacheFile, `null\n${data}`);
    runs.push([cacheUse(scout), await readA(scout)]);
    fs.rmSync(cacheFile);
    runs.push([cacheUse(scout), await readA(scout)]);
    const seen = runs.map(([use, run]) => [use, typeof run === "string" ? run : [run.code, run.stdout, run.stderr]]);
    expect(seen).toEqual([
      ["damaged", READ_A],
      ["for another Node or options", READ_A],
      ["for another Node or options", READ_A], // other options
      ["rejected by V8", READ_A],
      ["damaged", READ_A], // a header line of null
      ["none", READ_A],
    ]);
  });

  it("is refused at build time to a bundle that would import() a package: a vm.Script cannot", async () => {
    const scout = copyOfScout();
    fs.appendFileSync(path.join(scout, "dist", "cli.js"), '\nexport const late = () => import("readline-sync");\n');
    const build = await runCli([], { cli: path.join(scout, "dist", "build.cjs"), cwd: scout });
    expect(build.code).toBe(1);
    expect(build.stderr).toContain("the bundle cannot import() readline-sync: add it to BUNDLED_PACKAGES");
  });

  it("is refused at build time, and left unbuilt, when a package it should hold is required past esbuild's sight", async () => {
    // braces, required where esbuild cannot see: fast-glob's own braces is bundled, but this require would stay outside.
    const hiddenBy = {
      'createRequire(import.meta.url)("braces")': "guards/patterns.js requires braces past esbuild's sight",
      'createRequire(new URL(import.meta.url))("braces")':
        "the bundle does not hold braces where Scout's modules require it",
    };
    for (const [call, refusal] of Object.entries(hiddenBy)) {
      const scout = copyOfScout();
      const patterns = path.join(scout, "dist", "guards", "patterns.js");
      const source = fs.readFileSync(patterns, "utf8");
      expect(source).toContain('require("braces")');
      fs.writeFileSync(patterns, source.replace('require("braces")', call));
      const build = await runCli([], { cli: path.join(scout, "dist", "build.cjs"), cwd: scout });
      // No bundle nor cache is left to run, the last build's included: the bin says what to do.
      const left = ["bundle.cjs", "bundle.cjs.v8-cache"].filter((file) =>
        fs.existsSync(path.join(scout, "dist", file)),
      );
      const run = await runCli(["tool", "read_file", '{"path":"a.txt"}'], { cwd: workspace, cli: binOf(scout) });
      expect([call, build.code, build.stderr.includes(refusal), left, run.code]).toEqual([call, 1, true, [], 1]);
      expect(run.stderr).toContain("build Scout first (npm run build)");
    }
  });

  it("calls import() only in learner-code.js, which the bin never runs from the bundle (it runs the modules then)", () => {
    const calls = modulesWhere(/(?<![\w$.])import\(/);
    expect(calls).toEqual(["dist/learner-code.js"]);
  });

  it("keeps rg's package's own folder: grep finds rg where npm nested it under @vscode/ripgrep, and after a move", async () => {
    const repoModules = path.join(REPO_ROOT, "node_modules");
    const platform = `@vscode/ripgrep-${process.platform}-${process.arch}`;
    const modules = makeTree({}, "scout-modules-");
    for (const name of fs.readdirSync(repoModules).filter((name) => name !== "@vscode"))
      fs.symlinkSync(path.join(repoModules, name), path.join(modules, name));
    fs.cpSync(path.join(repoModules, "@vscode", "ripgrep"), path.join(modules, "@vscode", "ripgrep"), {
      recursive: true,
    });
    fs.mkdirSync(path.join(modules, "@vscode", "ripgrep", "node_modules", "@vscode"), { recursive: true });
    fs.symlinkSync(
      path.join(repoModules, platform),
      path.join(modules, "@vscode", "ripgrep", "node_modules", platform),
    );
    const scout = copyOfScout(modules);
    expect((await runCli([], { cli: path.join(scout, "dist", "build.cjs"), cwd: scout })).code).toBe(0);
    const grep = await runCli(["tool", "grep", '{"pattern":"one"}'], { cwd: workspace, cli: binOf(scout) });
    // And from Scout's folder moved after the build: rg's package is found as the bundle runs.
    const moved = path.join(`${scout}-moved`, "one-folder-deeper");
    fs.mkdirSync(`${scout}-moved`);
    fs.renameSync(scout, moved);
    const grepMoved = await runCli(["tool", "grep", '{"pattern":"one"}'], { cwd: workspace, cli: binOf(moved) });
    fs.renameSync(moved, scout); // where the tree's clean-up will look
    fs.rmdirSync(`${scout}-moved`);
    for (const run of [grep, grepMoved])
      expect([run.code, run.stdout, run.stderr]).toEqual([0, "a.txt:1:one line\n", ""]);
  });

  it("is ASCII text, read by Node as one byte a character: a regular expression or a kept comment in src/ can break that", () => {
    // esbuild escapes strings as ASCII, not regular expressions nor the comments it keeps; one other character
    // anywhere makes the whole 460 KB text two bytes a character (~1.5 ms to read, against ~0.5).
    const learners = LEARNER_FILES.map((file) => `dist/${file.replace(/\.ts$/, ".js")}`);
    expect(modulesWhere(/[^\x00-\x7f]/).filter((module) => !learners.includes(module))).toEqual([]);
  });
});

/** The bundled modules (esbuild names each on a line of its own before its code) with a line that matches. */
function modulesWhere(pattern: RegExp): string[] {
  let module = "";
  const found = new Set<string>();
  for (const line of fs.readFileSync(path.join(REPO_ROOT, "dist", "bundle.cjs"), "utf8").split("\n")) {
    module = /^\/\/ ((?:dist|node_modules)\/\S+)$/.exec(line)?.[1] ?? module;
    if (pattern.test(line)) found.add(module);
  }
  return [...found];
}
