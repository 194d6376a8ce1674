// Lets node run the lessons' TypeScript as it is: each .ts file is stripped of its types (TypeScript's transpileModule) as it is imported.
//
// `node --import ./lessons/typescript-hooks.mjs lessons/check.ts` registers the
// hooks below. Only the files a check imports are compiled, one by one, with no
// type check, and each result is kept in node_modules/.cache/scout-ts/ until
// its file changes, under its name and content (the output depends on nothing
// else, not on its folder, so a copy of the repository reuses it; the check's
// tests run copies): a check takes about a second instead of the 10 s that
// compiling all of lessons/ with tsc took. Types are checked by your editor and by
// `npx tsc -p test --noEmit` (which npm test runs on the shipped files).
// A syntax error is still reported, with its file and line.
import crypto from "node:crypto";
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";

// Imported on the main thread (with --import, or by lessons/run.mjs), this file registers itself; node then loads
// it again, in its hooks thread, for resolve and load. (`scout --loop` registers it by URL, with options: it never runs here.)
if (isMainThread) register(import.meta.url);

/** With `useDist`, a learner's `../../src/X.js` is Scout's running dist/X.js, so both share one module (scout --loop). */
let useDist = false;
export async function initialize(data) {
  useDist = Boolean(data?.useDist);
}

const SRC = new URL("../src/", import.meta.url);
const DIST = new URL("../dist/", import.meta.url);
const CACHE = fileURLToPath(new URL("../node_modules/.cache/scout-ts/", import.meta.url));
let typescript;

/** `./x.js` from a .ts file means `./x.ts` when only that exists, as tsc's NodeNext resolution has it. */
export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL?.endsWith(".ts") && /^\.{1,2}\/.*\.js$/.test(specifier)) {
    const target = new URL(specifier, context.parentURL);
    const dist = new URL(target.href.replace(`${SRC.href}`, DIST.href));
    if (useDist && target.href.startsWith(SRC.href) && fs.existsSync(dist))
      return { url: dist.href, shortCircuit: true };
    const ts = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
    if (!fs.existsSync(new URL(specifier, context.parentURL)) && fs.existsSync(ts))
      return { url: ts.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  return { format: "module", source: await compiled(fileURLToPath(url)), shortCircuit: true };
}

/** A .ts file as JavaScript: from the cache, or compiled and then kept there. lessons/warm-checks.mjs fills it. */
export async function compiled(file) {
  const source = fs.readFileSync(file, "utf8");
  // transpileModule's output, its source map included, depends on the file's name and text only, not its folder.
  const cached = path.join(
    CACHE,
    `${crypto.createHash("sha256").update(path.basename(file)).update("\0").update(source).digest("hex")}.js`,
  );
  if (fs.existsSync(cached)) return fs.readFileSync(cached, "utf8");
  typescript ??= (await import("typescript")).default;
  const output = typescript.transpileModule(source, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
      sourceMap: false,
      inlineSourceMap: true,
    },
  });
  const error = output.diagnostics?.find((d) => d.category === typescript.DiagnosticCategory.Error);
  if (error) {
    const { line, character } = error.file.getLineAndCharacterOfPosition(error.start ?? 0);
    const message = typescript.flattenDiagnosticMessageText(error.messageText, " ");
    throw new SyntaxError(`${file}:${line + 1}:${character + 1}: ${message}`);
  }
  // Written whole, then renamed: two checks at once never read half a file.
  fs.mkdirSync(CACHE, { recursive: true });
  const partial = `${cached}.${process.pid}.${crypto.randomUUID()}`;
  fs.writeFileSync(partial, output.outputText);
  fs.renameSync(partial, cached);
  return output.outputText;
}
