// What `npm run build` does after tsc: it bundles dist/ into dist/bundle.cjs, the file `scout` runs
// (src/scout.cts says why), and writes V8's code cache for it.
//
// The bundle is ASCII (test/bundle.test.ts checks): esbuild escapes strings, not regular expressions nor
// the comments it keeps, so src/ writes those with \u escapes. One other character anywhere and Node reads
// all 690 KB as two bytes a character, ~1 ms more at every start.
import childProcess = require("node:child_process");
import fs = require("node:fs");
import path = require("node:path");
import type esbuild = require("esbuild"); // required in build(): the training run (WRITE_CODE_CACHE) needs none
import bin = require("./scout.cjs");

const DIST = __dirname;
/** Whether a file is one of Scout's own modules in dist/, not a package's. */
const isScoutsOwn = (file: string) => file.startsWith(DIST + path.sep);
/** The argument that makes this file the build's training run instead of the build (see the end of build()). */
const WRITE_CODE_CACHE = "--write-code-cache";

/**
 * esbuild gives every `import fs from "node:fs"` its own copy of the module's exports (27 files import
 * node:fs, 23 node:path), and the copying took ~4 ms of every start. Routed through one small module per
 * built-in, the importers share one copy, as they share one module when Node loads them unbundled.
 */
const oneCopyOfEachBuiltin: esbuild.Plugin = {
  name: "one-copy-of-each-builtin",
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.namespace === "builtin" ? { path: args.path, external: true } : { path: args.path, namespace: "builtin" },
    );
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => {
      const name = JSON.stringify(args.path);
      return { contents: `export * from ${name}; export { default } from ${name};` };
    });
  },
};

/**
 * Packages stay in node_modules, required when first used, as from the modules; but these are bundled, and so is
 * everything they require. Each still runs only when it is first required or imported.
 * - The ones published only as ES modules, since the bundle cannot import() them. A vm.Script (src/scout.cts) can
 *   import() only with Node's USE_MAIN_CONTEXT_DEFAULT_LOADER, which prints an experimental warning, and on Node 20
 *   not even then once it is compiled from a code cache ("A dynamic import callback was not specified"). Each keeps
 *   an import.meta.url of its own file, found when the bundle runs: rg's package finds its platform's rg from its
 *   own folder, wherever npm (or pnpm) put it.
 * - glob's fast-glob with the 17 packages it requires (braces, which the patterns use, among them): 73 files
 *   that Node read, resolved and compiled one by one at a glob's first call (~20 ms: issue 28); and every
 *   tool's ignore. Bundled, they are part of the one file read at start-up.
 */
const BUNDLED_PACKAGES = new Set(["marked", "@vscode/ripgrep", "fast-glob", "braces", "ignore"]);
const packagesStayOutside: esbuild.Plugin = {
  name: "packages-stay-outside",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === "entry-point") return undefined; // dist/cli.js, whose path may not start with "/"
      if (args.kind === "require-resolve") return { external: true }; // packageFileUrl's too: resolved as the bundle runs
      if (!isScoutsOwn(args.importer)) return undefined; // a bundled package's own: bundled too (or a built-in)
      const name = /^(@[^/]+\/)?[^/]+/.exec(args.path)?.[0] ?? args.path;
      return BUNDLED_PACKAGES.has(name) ? undefined : { external: true }; // undefined: esbuild bundles it
    });
  },
};

/**
 * An ES module requires a CommonJS package through `createRequire(import.meta.url)`, which esbuild cannot see
 * through. Without that line, its require() calls are the bundle's own: esbuild bundles the packages of
 * BUNDLED_PACKAGES, each run at its first require(), and the others stay the runtime require of a file in dist/,
 * as before.
 */
const MODULE_REQUIRE = "const require = createRequire(import.meta.url);";
/** `createRequire(import.meta.url)("name")` in one go, as a module does for a package it requires once: out of esbuild's sight. */
const INLINE_REQUIRE = /createRequire\(import\.meta\.url\)\(\s*["'`]((?:@[^/"'`]+\/)?[^/"'`]+)/g;
const requireIsTheBundles: esbuild.Plugin = {
  name: "require-is-the-bundles",
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!isScoutsOwn(args.path)) return undefined;
      const source = await fs.promises.readFile(args.path, "utf8");
      const hidden = [...source.matchAll(INLINE_REQUIRE)]
        .map((match) => match[1])
        .filter((name) => BUNDLED_PACKAGES.has(name));
      if (hidden.length) {
        const file = path.relative(DIST, args.path);
        throw new Error(`${file} requires ${hidden.join(", ")} past esbuild's sight: use the module's own require`);
      }
      return source.includes(MODULE_REQUIRE)
        ? { contents: source.replace(MODULE_REQUIRE, ""), loader: "js" }
        : undefined;
    });
  },
};

/** Each bundled package file gets an import.meta.url of its own file (packageFileUrl), not the bundle's. */
const packageFilesKeepTheirUrl: esbuild.Plugin = {
  name: "package-files-keep-their-url",
  setup(build) {
    build.onLoad({ filter: /\.m?js$/ }, async (args) => {
      if (isScoutsOwn(args.path)) return undefined; // Scout's own: the bundle's URL is theirs
      const source = await fs.promises.readFile(args.path, "utf8");
      if (!source.includes("import.meta")) return undefined;
      // esbuild's own define, file by file, so a string that mentions import.meta.url is left alone.
      const { code } = await build.esbuild.transform(source, {
        define: { "import.meta.url": "packageFileUrl" },
        format: "esm",
        loader: "js",
      });
      // esbuild would make any other import.meta field undefined, and say nothing for a package's file.
      if (code.includes("import.meta")) throw new Error(`${args.path} uses import.meta beyond its url`);
      return { contents: `const packageFileUrl = ${packageFileUrl(args.path)};\n${code}` };
    });
  },
};

/**
 * An expression for a bundled package file's URL, found from its package's entry point as `require` resolves
 * it when the bundle runs (a package whose entry point differs by --conditions would need more).
 */
function packageFileUrl(file: string): string {
  const name = packageNameOf(file);
  let entry: string;
  try {
    entry = require.resolve(name, { paths: [DIST] });
  } catch (error) {
    throw new Error(
      `${name}: require.resolve finds no entry point, which the bundle needs: ${(error as Error).message}`,
    );
  }
  const rel = path.relative(path.dirname(entry), file).split(path.sep).join("/");
  const entryUrl = `require("node:url").pathToFileURL(require.resolve(${JSON.stringify(name)})).href`;
  return `new URL(${JSON.stringify(rel)}, ${entryUrl}).href`;
}

/** The name in the nearest package.json above a file that has one (a nested {"type": "module"} has none). */
function packageNameOf(file: string): string {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    const name = fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name;
    if (name) return name;
  }
  throw new Error(`no package.json with a name above ${file}`);
}

/** Why a bundle cannot be used, or undefined: it would import() a package, or a package it should hold stays outside. */
function bundleProblem(metafile: esbuild.Metafile): string | undefined {
  // A name written out, that is: a computed import(name) is not in the metafile (test/bundle.test.ts finds those).
  const imported = Object.values(metafile.inputs).flatMap((input) => input.imports);
  const dynamic = imported.filter((i) => i.kind === "dynamic-import" && i.external).map((i) => i.path);
  if (dynamic.length) return `the bundle cannot import() ${dynamic.join(", ")}: add it to BUNDLED_PACKAGES`;
  // Each package must be bundled where Scout's own modules ask for it, even if another package bundles it too:
  // a module that requires it past esbuild's sight in one go is refused as it loads (INLINE_REQUIRE); this
  // catches a package that no module requires where esbuild sees it.
  const ownImports = Object.entries(metafile.inputs)
    .filter(([input]) => isScoutsOwn(path.resolve(input))) // esbuild names them from the working folder
    .flatMap(([, input]) => input.imports);
  const bundledHere = (name: string) =>
    ownImports.some((i) => !i.external && (i.original === name || i.original?.startsWith(`${name}/`)));
  const outside = [...BUNDLED_PACKAGES].filter((name) => !bundledHere(name));
  if (outside.length)
    return `the bundle does not hold ${outside.join(", ")} where Scout's modules require it: see BUNDLED_PACKAGES`;
  return undefined;
}

async function build(): Promise<void> {
  // A build that fails leaves no bundle, rather than the last one: the bin then says to build Scout, instead of
  // running old code beside the modules tsc has just rewritten.
  for (const file of [bin.BUNDLE, bin.CODE_CACHE]) fs.rmSync(file, { force: true });
  const { metafile, outputFiles } = await (require("esbuild") as typeof esbuild).build({
    entryPoints: [path.join(DIST, "cli.js")],
    outfile: bin.BUNDLE,
    write: false, // written once the checks below pass
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    // Every module of Scout's own has the bundle's import.meta.url (the architecture test checks what relies on it).
    define: { "import.meta.url": "bundleUrl" },
    banner: { js: "'use strict'; const bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [oneCopyOfEachBuiltin, packagesStayOutside, requireIsTheBundles, packageFilesKeepTheirUrl],
    metafile: true,
    logLevel: "warning",
  });
  const problem = bundleProblem(metafile);
  if (problem) throw new Error(problem);
  for (const output of outputFiles) fs.writeFileSync(output.path, output.contents);
  // The bin, and the modules' CLI: npx keeps the bin it first linked for a folder (src/scout.cts).
  for (const bin of ["scout.cjs", "cli.js"]) fs.chmodSync(path.join(DIST, bin), 0o755);
  // The cache is V8's work on this bundle, by this Node: made by running it once, its output not wanted. The run
  // is this file again, so that Node has no command-line options of its own, as `scout` has none; NODE_OPTIONS it
  // inherits, and a `scout` run with other NODE_OPTIONS requires the bundle instead (src/scout.cts).
  const training = childProcess.spawnSync(process.execPath, [__filename, WRITE_CODE_CACHE], {
    cwd: path.dirname(DIST), // Scout's own folder, whose package.json the run reads
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (training.status !== 0) throw new Error(`writing the bundle's code cache failed (exit ${training.status})`);
}

if (process.argv[2] === WRITE_CODE_CACHE) {
  bin.writeCodeCache();
} else {
  build().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
