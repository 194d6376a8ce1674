// Lesson 6's measurement: how many tokens of tool results does it take to
// answer "where is X defined?" and "who calls Y?" questions
//   (a) by reading whole files: every file that mentions the name, read in
//       full with read_file (100 lines per call), and
//   (b) by searching first: one grep for the name as written (the offline model
//       greps the forms a definition takes, which finds fewer lines), then (for
//       "where is") one read_file window of 15 lines around the definition.
// It runs Scout's real tools (dist/, so run `npm run build` first) and counts
// their results with the same local tokenizer as the step log.
//
//   node lessons/measure-search.mjs sample   the lessons' sample project
//   node lessons/measure-search.mjs scout    Scout's own src/ (rounded, see below)
//
// Whole-file reading is counted generously: a reader that cannot search does
// not know which files mention the name, and would read more than these.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { estimateTokens } from "../dist/tokens/count.js";
import { tools } from "../dist/core/scout.js";
import { runTool } from "../dist/core/tool.js";
import { Workspace } from "../dist/core/workspace.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WINDOW = 15; // lines read around a definition
const BEFORE = 4; // of which this many come before it

const SETS = {
  sample: {
    title: "the sample project (lessons/sample-project)",
    root: path.join(REPO, "lessons", "sample-project"),
    path: ".",
    // Exact figures: the sample project never changes unless a lesson changes it.
    round: (n) => n,
    questions: [
      {
        ask: "where is make_slug defined?",
        name: "make_slug",
        pattern: "make_slug",
        definedIn: "src/shortly/slugs.py",
      },
      { ask: "who calls make_slug?", name: "make_slug", pattern: "make_slug\\(" },
      {
        ask: "where is the LinkStore class?",
        name: "LinkStore",
        pattern: "LinkStore",
        definedIn: "src/shortly/store.py",
      },
      {
        ask: "where is MAX_SLUG_LENGTH set?",
        name: "MAX_SLUG_LENGTH",
        pattern: "MAX_SLUG_LENGTH =",
        definedIn: "src/shortly/config.py",
      },
      { ask: "who calls shorten?", name: "shorten", pattern: "shorten\\(" },
      { ask: "where is main defined?", name: "main", pattern: "main", definedIn: "cmd/shortly-stats/main.go" },
    ],
  },
  scout: {
    title: "Scout's own source code (src/)",
    root: REPO,
    path: "src",
    // Scout's code changes often; one significant figure keeps this table
    // true across small edits while still showing the difference.
    round: (n) => (n < 10 ? n : Number(n.toPrecision(1))),
    questions: [
      { ask: "where is runTurn defined?", name: "runTurn", pattern: "runTurn", definedIn: "src/core/loop.ts" },
      { ask: "who calls runTurn?", name: "runTurn", pattern: "runTurn\\(" },
      {
        ask: "where is resolveInWorkspace defined?",
        name: "resolveInWorkspace",
        pattern: "resolveInWorkspace",
        definedIn: "src/core/workspace.ts",
      },
      { ask: "who calls resolveInWorkspace?", name: "resolveInWorkspace", pattern: "resolveInWorkspace\\(" },
      {
        ask: "where is MAX_RESULT_LINES defined?",
        name: "MAX_RESULT_LINES",
        pattern: "MAX_RESULT_LINES",
        definedIn: "src/core/tool.ts",
      },
      { ask: "who calls estimateTokens?", name: "estimateTokens", pattern: "estimateTokens\\(" },
    ],
  },
};

const set = SETS[process.argv[2]];
if (!set) {
  console.error("usage: node lessons/measure-search.mjs sample|scout");
  process.exit(2);
}
const workspace = new Workspace(set.root);
const run = async (name, input) => {
  const result = await runTool(name, input, { workspace }, tools);
  if (result.isError) throw new Error(`${name} ${JSON.stringify(input)}: ${result.content}`);
  return result.content;
};
const tokens = (text) => estimateTokens(text);

/** Every line of a file, 100 lines per read_file call, as a model would have to read it. */
async function readWhole(file) {
  let total = 0;
  for (let offset = 1; ; offset += 100) {
    const text = await run("read_file", { path: file, offset });
    total += tokens(text);
    // The footer, the last line, says whether there is more (a line of the file may quote the footer).
    if (!/call read_file with offset=\d+ to continue\)$/.test(text.split("\n").at(-1))) return total;
  }
}

/** The path:line hits of a grep result. */
const hitsOf = (text) =>
  text.split("\n").flatMap((line) => {
    const m = /^(.+?):(\d+):/.exec(line);
    return m ? [{ file: m[1], line: Number(m[2]), text: line.slice(m[0].length) }] : [];
  });

const rows = [];
for (const q of set.questions) {
  // (a) every file that mentions the name, read whole
  const files = [
    ...new Set(hitsOf(await run("grep", { pattern: `\\b${q.name}\\b`, path: set.path })).map((hit) => hit.file)),
  ];
  let whole = 0;
  for (const file of files) whole += await readWhole(file);
  // (b) one grep, then a window around the definition
  const found = await run("grep", { pattern: q.pattern, path: set.path });
  let searched = tokens(found);
  if (q.definedIn) {
    const definition = new RegExp(
      `\\b(def|class|function|func|const)\\s+${q.name}\\b|^\\s*(export\\s+)?${q.name}\\s*[=(]`,
    );
    const hit = hitsOf(found).find((h) => h.file === q.definedIn && definition.test(h.text));
    if (!hit) throw new Error(`${q.ask}: no hit in ${q.definedIn}`);
    searched += tokens(
      await run("read_file", { path: hit.file, offset: Math.max(1, hit.line - BEFORE), limit: WINDOW }),
    );
  }
  rows.push({ ask: q.ask, files: files.length, whole, searched, steps: q.definedIn ? "grep → read_file" : "grep" });
}

const n = (value) => set.round(value).toLocaleString("en-US");
const approx = set.round(1234) === 1234 ? "" : "~";
const line = (a, b, c, d) => `${a.padEnd(38)}${b.padStart(8)}${c.padStart(14)}${d.padStart(16)}`;
console.log(`Tokens of tool results to answer each question, in ${set.title}`);
console.log(`(local tokenizer estimate${approx ? "; rounded to one significant figure" : ""})`);
console.log("");
console.log(line("question", "files", "whole files", "search → read"));
for (const row of rows) console.log(line(row.ask, String(row.files), approx + n(row.whole), approx + n(row.searched)));
const whole = rows.reduce((sum, row) => sum + row.whole, 0);
const searched = rows.reduce((sum, row) => sum + row.searched, 0);
console.log(line("all questions", "", approx + n(whole), approx + n(searched)));
console.log("");
console.log(
  `Searching first needs about ${set.round(Math.round(whole / searched))}× fewer tokens of tool results${approx ? " (computed before rounding)" : ""}.`,
);
