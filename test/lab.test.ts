// scout lab offline: the shipped question sets, variants that change what they claim, identical runs, and
// bad input refused with exit 2 and a message naming the question and field.
//
// The shipped sets are run whole once each, through the CLI (every answer right); the tests of a report's shape
// and of what a variant changes run a few of a set's questions (FEW, SMALL), and tests that read the same run
// share it (runOnce): a lab run costs some 30 ms of CPU per question and variant. Identical runs, the table,
// CSV, progress and the workspace run the CLI; the report's figures and the refusals' messages run labCommand
// in this process (labHere, inProcess), one refusal of each kind through the CLI too.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labCommand } from "../src/lab/command.js";
import type { LabReport } from "../src/lab/report.js";
import { formatCount } from "../src/guards/format.js";
import { type CliRun, inProcess, makeTree, questionsOf, REPO_ROOT, runCli } from "./helpers.js";

const SAMPLE_SET = "lessons/questions/sample-project.json";
const SRC_SET = "lessons/questions/scout-src.json";
/** No key, so the offline model runs whatever the developer's environment holds. */
const OFFLINE_ENV = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, SCOUT_MODEL: undefined };

/**
 * Questions of the sample set, written to a set of their own that asks in the sample project: one found by a
 * grep and a read_file (few hits), one with many grep hits (a cap bites), one answered by glob (the order
 * shows), one that finds nothing.
 */
const FEW = questionsOf(SAMPLE_SET, ["make-slug-defined", "https-used", "python-files", "no-delete-link"]);
/** Questions of Scout's own src/, where no request reaches 4,096 tokens (the sample set's https-used does). */
const SMALL = questionsOf(SRC_SET, ["run-turn-defined", "models-folder", "no-websocket"]);

async function lab(args: string[], cwd = REPO_ROOT) {
  return runCli(["lab", ...args], { cwd, env: OFFLINE_ENV, timeoutMs: 60_000 });
}

/** One run of `scout lab ARGS` for every test that reads it: the same arguments, the same run. */
const runs = new Map<string, Promise<CliRun>>();
function runOnce(args: string[]): Promise<CliRun> {
  const key = JSON.stringify(args);
  if (!runs.has(key)) runs.set(key, lab(args));
  return runs.get(key)!;
}

async function labJson(args: string[], run = runOnce([...args, "--json"])): Promise<LabReport> {
  const { stderr, code, stdout } = await run;
  expect(stderr).not.toMatch(/scout lab:/);
  expect(code).toBe(0);
  return JSON.parse(stdout);
}

/**
 * `scout lab ARGS` in this process (labCommand, what the CLI runs after its dispatch; inProcess), for the tests of
 * a report's figures and table: each CLI process costs ~0.3 s of CPU before its first question. The shipped sets,
 * identical runs, the table and CSV of DESIGNS, progress and the workspace run the CLI itself.
 */
const labHere = (args: string[]) => inProcess(labCommand, args, OFFLINE_ENV);
const labJsonHere = (args: string[]) => {
  const key = JSON.stringify(["here", ...args]);
  if (!runs.has(key)) runs.set(key, labHere([...args, "--json"]));
  return labJson(args, runs.get(key)!);
};

const question = (report: LabReport, variant: number, id: string) => {
  const found = report.variants[variant].questions.find((q) => q.id === id);
  if (!found) throw new Error(`no question ${id}`);
  return found.runs[0];
};

/** The variants most tests compare with the baseline, in one run (the baseline is run once for all of them). */
const DESIGNS = [
  ...["--variant", "cap=50", "--variant", "descriptions=concise"],
  ...["--variant", "line-numbers=off", "--variant", "sort=path"],
];
/** The index of each of DESIGNS in its report (0 is the baseline). */
const V = { baseline: 0, cap: 1, concise: 2, bare: 3, sorted: 4 };

describe("the shipped question sets", { timeout: 120_000 }, () => {
  for (const set of [SAMPLE_SET, SRC_SET]) {
    it(`${set}: the offline baseline answers every question right`, async () => {
      const report = await labJson([set]);
      const wrong = report.variants[0].questions
        .filter((q) => q.rightRuns !== 1)
        .map((q) => `${q.id}: ${q.runs[0].why}\n${q.runs[0].answer}`);
      expect(wrong).toEqual([]);
      expect(report.variants[0].totals.right).toBe(report.set.questions);
    });
  }

  it("the sample set has at least 20 questions, of every kind the issue names", () => {
    const set = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, SAMPLE_SET), "utf8"));
    const ids: string[] = set.questions.map((q: { id: string }) => q.id);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    for (const kind of [/-defined$/, /-used$/, /-files$/, /-folder$/, /^no-/])
      expect(ids.filter((id) => kind.test(id)).length, String(kind)).toBeGreaterThanOrEqual(3);
  });

  it("two offline runs print the same report, byte for byte", async () => {
    const [first, second] = await Promise.all([runOnce([FEW, ...DESIGNS, "--json"]), lab([FEW, ...DESIGNS, "--json"])]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).variants).toHaveLength(5);
    expect(second.stdout).toBe(first.stdout);
  });
});

describe("variants change what they claim", { timeout: 120_000 }, () => {
  it("cap=50 lowers the tool-result tokens of a question with many hits, and says so in the table", async () => {
    const report = await labJson([FEW, ...DESIGNS]);
    expect(report.variants[V.cap].name).toBe("cap=50");
    const [baseline, capped] = [question(report, 0, "https-used"), question(report, V.cap, "https-used")];
    expect(capped.toolResultTokensByTool.grep).toBeLessThan(baseline.toolResultTokensByTool.grep);
    expect(capped.toolResultTokens).toBeLessThan(baseline.toolResultTokens);
    expect(capped.inputTokens).toBeLessThan(baseline.inputTokens);
    // A question with a handful of hits is not touched.
    expect(question(report, V.cap, "make-slug-defined")).toEqual(question(report, 0, "make-slug-defined"));
    expect(report.variants[V.cap].change!.toolResultTokens).toBeLessThan(0);

    const table = (await runOnce([FEW, ...DESIGNS])).stdout;
    const [base, cap] = [report.variants[0], report.variants[V.cap]];
    expect(table).toContain(`${base.totals.right}/${report.set.questions}`);
    expect(table).toMatch(new RegExp(`^baseline .* ${formatCount(base.totals.inputTokens)} `, "m"));
    expect(table).toMatch(new RegExp(`^cap=50 .* ${formatCount(cap.totals.toolResultTokens)} `, "m"));
    // The first "vs baseline" row is cap=50's, the first variant.
    expect(table).toMatch(new RegExp(`^cap=50 .*\n  vs baseline .* ${cap.change!.toolResultTokens.toFixed(1)}%`, "m"));
  });

  it("descriptions=concise lowers the schema tokens, and so every request's input tokens", async () => {
    const report = await labJson([FEW, ...DESIGNS]);
    const [baseline, concise] = [report.variants[0], report.variants[V.concise]];
    expect(concise.name).toBe("descriptions=concise");
    expect(report.schemaCount.mode).toBe("estimate");
    expect(concise.schemaTokens).toBeLessThan(baseline.schemaTokens);
    expect(concise.change!.schemaTokens).toBe(concise.schemaTokens - baseline.schemaTokens);
    expect(concise.totals.inputTokens).toBeLessThan(baseline.totals.inputTokens);
    expect(concise.totals.toolResultTokens).toBe(baseline.totals.toolResultTokens); // same calls, same results
  });

  it("offline, counts the hidden tool-use prompt as scout tokens does: in the schema cost and in every call's input", async () => {
    // Haiku 4.5: its hidden prompt is published, and its tokenizer is the local one (no ratio).
    const report = await labJsonHere([SMALL, "--model", "claude-haiku-4-5"]);
    const tokens = await runCli(["tokens", "--json", "--offline", "--model", "claude-haiku-4-5"], { env: OFFLINE_ENV });
    const costs = JSON.parse(tokens.stdout);
    expect(report.estimatesFor).toEqual({ model: costs.model, hiddenPrompt: costs.hiddenPrompt });
    expect(report.variants[0].schemaTokens).toBe(costs.total); // the same tools, the same figure in both views
    // A model without a published hidden prompt: the same run, 496 fewer tokens on each model call.
    const bare = await labJsonHere([SMALL, "--model", "claude-imaginary-9"]);
    const [withHidden, without] = [report.variants[0].totals, bare.variants[0].totals];
    expect(withHidden.inputTokens - without.inputTokens).toBe(costs.hiddenPrompt * withHidden.modelCalls);
    expect(report.variants[0].schemaTokens - bare.variants[0].schemaTokens).toBe(costs.hiddenPrompt);
    expect(bare.schemaCount.note).toContain("no published size for claude-imaginary-9");
  });

  it("line-numbers=off shrinks read_file's results; sort=path changes the order glob lists", async () => {
    const report = await labJson([FEW, ...DESIGNS]);
    const [baseline, bare] = [report.variants[0], report.variants[V.bare]];
    expect([bare.name, report.variants[V.sorted].name]).toEqual(["line-numbers=off", "sort=path"]);
    expect(bare.totals.toolResultTokensByTool.read_file).toBeLessThan(baseline.totals.toolResultTokensByTool.read_file);
    const listed = (answer: string) => answer.split("\n").filter((line) => line.startsWith("- "));
    const byMtime = listed(question(report, 0, "python-files").answer);
    const sorted = listed(question(report, V.sorted, "python-files").answer);
    expect(sorted).toEqual([...byMtime].sort());
    expect(sorted).not.toEqual(byMtime);
  });

  it("offline, prices every model call of the set, and simulates caching over the set as one session", async () => {
    const report = await labJsonHere([SMALL, "--model", "claude-haiku-4-5"]);
    const calls = report.variants[0].questions.flatMap((q) => q.runs[0].steps.filter((s) => s.kind === "model"));
    // claude-haiku-4-5: $1 per million input tokens, $5 per million output.
    const micro = calls.reduce((sum, s) => sum + (s.kind === "model" ? s.inputTokens * 1 + s.outputTokens * 5 : 0), 0);
    expect(report.variants[0].dollars!.uncached).toBeCloseTo(micro / 1e6, 6);
    // Haiku 4.5 caches nothing under 4,096 tokens, and no request of this set reaches it: the same dollars.
    expect(report.variants[0].dollars!.cached).toBeCloseTo(micro / 1e6, 6);
    // Opus 4.8 caches from 1,024: the stable prefix (~1,250) is read back on every call after the first.
    const opus = await labJsonHere([SMALL, "--model", "claude-opus-4-8"]);
    expect(opus.variants[0].dollars!.cached!).toBeLessThan(opus.variants[0].dollars!.uncached * 0.7);
  });

  it("descriptions=FILE.json sends your own wording for the tools it names, and refuses a bad file by name", async () => {
    const dir = makeTree({
      "mine.json": JSON.stringify({ grep: "Search file contents with a regex." }),
      "typo.json": JSON.stringify({ grpe: "x" }),
    });
    const mine = path.join(dir, "mine.json");
    const report = await labJsonHere([FEW, "--variant", `descriptions=${mine}`]);
    const [baseline, own] = report.variants;
    expect(own.descriptions).toEqual({ grep: "Search file contents with a regex." });
    expect(own.schemaTokens).toBeLessThan(baseline.schemaTokens);
    expect(own.totals.inputTokens).toBeLessThan(baseline.totals.inputTokens);
    expect(own.questions[0].runs[0].path).toEqual(baseline.questions[0].runs[0].path); // the offline model reads no schema
    const typo = await labHere([FEW, "--variant", `descriptions=${path.join(dir, "typo.json")}`]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown tool "grpe"');
    const missing = await labHere([FEW, "--variant", "descriptions=nope.json"]);
    expect(missing.stderr).toContain("cannot read nope.json: no such file");
  });

  it("--differs lists only the questions whose verdict differs between variants", async () => {
    // cap=10 makes read_file refuse its window, yet every answer stays right: no verdict differs.
    const same = (await labHere([FEW, "--variant", "cap=10", "--differs"])).stdout;
    expect(same).toContain("only the 0 whose verdict differs between variants");
    expect(same).not.toMatch(/^make-slug-defined:/m);
    const all = (await labHere([FEW, "--variant", "cap=10"])).stdout;
    expect(all).toMatch(/^make-slug-defined:/m);
  });

  it("--csv: one row per variant, question and run, the same figures as --json", async () => {
    const report = await labJson([FEW, ...DESIGNS]);
    const csv = (await lab([FEW, ...DESIGNS, "--csv"])).stdout.trimEnd().split("\n");
    expect(csv[0]).toBe(
      "variant,question,run,right,model_calls,input_tokens,output_tokens,tool_result_tokens,path,why",
    );
    expect(csv).toHaveLength(1 + report.variants.length * report.set.questions);
    const first = report.variants[V.cap].questions[0];
    expect(csv[1 + V.cap * report.set.questions]).toBe(
      [
        "cap=50",
        first.id,
        1,
        first.runs[0].right,
        first.runs[0].modelCalls,
        first.runs[0].inputTokens,
        first.runs[0].outputTokens,
        first.runs[0].toolResultTokens,
        first.runs[0].path.join(" > "),
        first.runs[0].why,
      ].join(","),
    );
    expect((await lab([FEW, "--csv", "--json"])).code).toBe(2);
  });

  it("offline, --model names the Claude model the estimates stand for, as in the REPL", async () => {
    const report = await labJsonHere([SMALL, "--model", "claude-opus-4-8"]);
    expect(report.offline).toBe(true);
    expect(report.estimatesFor).toEqual({ model: "claude-opus-4-8", hiddenPrompt: 290 });
  });

  it("offline, model=NAME stands for that model: its hidden prompt on every call, its tokenizer, its prices", async () => {
    const report = await labJsonHere([FEW, "--model", "claude-opus-4-8", "--variant", "model=claude-haiku-4-5"]);
    const [base, variant] = report.variants;
    expect(variant.model).toBe("claude-haiku-4-5");
    // Opus 4.8: 290 hidden tokens a call, the newer tokenizer (×1.30); Haiku 4.5: 496, the local one (×1).
    const scale = 1 / 1.3;
    for (const [q, question] of base.questions.entries()) {
      const baseSteps = question.runs[0].steps.filter((step) => step.kind === "model");
      const steps = variant.questions[q].runs[0].steps.filter((step) => step.kind === "model");
      expect(steps).toHaveLength(baseSteps.length);
      for (const [i, step] of steps.entries()) {
        expect(step.inputTokens, question.id).toBe(Math.round((baseSteps[i].inputTokens - 290) * scale) + 496);
        expect(step.outputTokens, question.id).toBe(Math.round(baseSteps[i].outputTokens * scale));
      }
    }
    // Priced at Haiku 4.5's $1 in and $5 out per million tokens, the baseline at Opus 4.8's $5 and $25.
    const t = variant.totals;
    expect(variant.dollars?.uncached).toBeCloseTo((t.inputTokens * 1 + t.outputTokens * 5) / 1e6, 6);
    const b = base.totals;
    expect(base.dollars?.uncached).toBeCloseTo((b.inputTokens * 5 + b.outputTokens * 25) / 1e6, 6);
    expect(report.schemaCount.note).toContain("a model= variant carries its own model's hidden prompt");
    const bad = await labHere([FEW, "--variant", "model=$(rm)"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'model must be a model name: letters, digits and . _ - : @ /, at most 100 characters, got "$(rm)"',
    );
  });

  it("--runs 2: the lowest–highest row keeps every column apart", async () => {
    const table = (await labHere([FEW, "--runs", "2", "--variant", "cap=50"])).stdout;
    const spreadRows = table.split("\n").filter((line) => line.startsWith("  lowest–highest"));
    expect(spreadRows).toHaveLength(2);
    for (const line of spreadRows) {
      const cells = line.trim().split(/ {2,}/);
      expect(cells.slice(1), line).toHaveLength(5);
      for (const cell of cells.slice(1)) expect(cell, line).toMatch(/^[\d,.]+–[\d,.]+$/);
    }
  });

  it("--runs 2 offline: every run the same, so the spread is nil", async () => {
    const report = await labJsonHere([FEW, "--runs", "2"]);
    const [baseline] = report.variants;
    expect(report.runs).toBe(2);
    expect(baseline.spread!.inputTokens).toEqual([baseline.totals.inputTokens, baseline.totals.inputTokens]);
    for (const q of baseline.questions) {
      expect(q.rightRuns).toBe(2);
      expect(q.runs[1]).toEqual(q.runs[0]);
    }
  });
});

describe("progress on stderr", { timeout: 60_000 }, () => {
  it("on a terminal: one line, rewritten after each question, erased at the end", async () => {
    const run = await runCli(["lab", FEW], { env: OFFLINE_ENV, launch: "pty", timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const n = JSON.parse(fs.readFileSync(FEW, "utf8")).questions.length;
    for (let done = 1; done <= n; done++) expect(run.stdout).toContain(`\r\x1b[Klab: ${done}/${n} · baseline · `);
    expect(run.stdout).toMatch(/\r\x1b\[Kscout lab: shortly, the lessons' sample project/);
    expect(run.stdout).not.toContain("(variant 1)");
  });

  it("piped: one line as each variant starts, the same every run", async () => {
    const expected = [
      "lab: baseline (variant 1)…",
      "lab: cap=50 (variant 2)…",
      "lab: descriptions=concise (variant 3)…",
      "lab: line-numbers=off (variant 4)…",
      "lab: sort=path (variant 5)…",
      "",
    ].join("\n");
    expect((await runOnce([FEW, ...DESIGNS])).stderr).toBe(expected);
    expect((await runOnce([FEW, ...DESIGNS, "--json"])).stderr).toBe(expected);
  });
});

describe("the workspace", { timeout: 60_000 }, () => {
  it("is the set's folder by default, or --cwd; a control character in a question is shown escaped", async () => {
    const root = makeTree({ "a.py": "def alpha():\n    pass\n", "b/beta.py": "BETA = 1\n" });
    const setFile = path.join(makeTree({}), "set.json");
    fs.writeFileSync(
      setFile,
      JSON.stringify({
        questions: [
          { id: "alpha", question: "Where is alpha defined?\u001b[31m", expect: { locations: ["a.py:/def alpha/"] } },
        ],
      }),
    );
    const run = await lab([setFile, "--cwd", root]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("alpha: Where is alpha defined?\\x1b[31m");
    expect(run.stdout).not.toContain("\u001b");
    expect(run.stdout).toMatch(/^baseline\s+1\/1 /m);
    // Without --cwd the workspace is the set's own folder, where a.py is not.
    expect((await lab([setFile])).stderr).toMatch(
      /question "alpha": "expect.locations\[0\]" "a.py:\/def alpha\/": no such file/,
    );
  });
});

describe("bad input: exit 2, a message that names what is wrong", { timeout: 60_000 }, () => {
  const root = makeTree({ "a.py": "def alpha():\n    pass\n", ".env": "SECRET=1\n" });
  const set = (data: unknown) => {
    const file = path.join(root, `set-${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
    return file;
  };
  const good = { id: "alpha", question: "Where is alpha defined?", expect: { locations: ["a.py:1"] } };
  const cases: [string, () => string[], RegExp][] = [
    ["no set given", () => [], /which question set\?/],
    ["a missing file", () => [path.join(root, "nope.json")], /nope\.json: no such file/],
    ["invalid JSON", () => [set("{ questions: ")], /not valid JSON/],
    ["no questions", () => [set({ questions: [] })], /"questions" must be a non-empty array/],
    ["an unknown field", () => [set({ questions: [good], workspaces: "." })], /unknown field "workspaces"/],
    [
      "a question without id",
      () => [set({ questions: [good, { question: "q?", expect: { pattern: "x" } }] })],
      /question #2: "id" must be/,
    ],
    [
      "a repeated id",
      () => [set({ questions: [good, good] })],
      /question "alpha": "id" is used by an earlier question/,
    ],
    [
      "a bad location",
      () => [set({ questions: [{ ...good, expect: { locations: ["a.py:1", "a.py"] } }] })],
      /question "alpha": "expect.locations\[1\]" must be "path:line" or "path:\/regex\/", got "a.py"/,
    ],
    [
      "a line pattern that matches nothing",
      () => [set({ questions: [{ ...good, expect: { locations: ["a.py:/def beta/"] } }] })],
      /question "alpha": "expect.locations\[0\]" "a.py:\/def beta\/": no line of a.py matches \/def beta\//,
    ],
    [
      "a protected file as a location",
      () => [set({ questions: [{ ...good, expect: { locations: [".env:1"] } }] })],
      /"expect.locations\[0\]" ".env:1": .*protected/,
    ],
    [
      "a location outside the workspace",
      () => [set({ questions: [{ ...good, expect: { locations: ["../x.py:1"] } }] })],
      /"expect.locations\[0\]" "..\/x.py:1": .*outside/,
    ],
    [
      "a bad pattern",
      () => [set({ questions: [{ ...good, expect: { pattern: "(" } }] })],
      /question "alpha": "expect.pattern" is not a valid regular expression/,
    ],
    [
      "an empty expect",
      () => [set({ questions: [{ ...good, expect: {} }] })],
      /question "alpha": "expect" needs locations, pattern or both/,
    ],
    [
      "an unknown knob",
      () => [set({ questions: [good] }), "--variant", "cap=50,colour=red"],
      /unknown knob "colour"; known knobs: cap=N \(10–500\), descriptions=concise\|full\|FILE\.json, line-numbers=on\|off, model=NAME \(a Claude model\), sort=mtime\|path/,
    ],
    [
      "a cap out of range",
      () => [set({ questions: [good] }), "--variant", "cap=5"],
      /cap must be a whole number from 10 to 500, got "5"/,
    ],
    [
      "a bad value",
      () => [set({ questions: [good] }), "--variant", "sort=size"],
      /sort must be mtime or path, got "size"/,
    ],
    [
      "a variant twice",
      () => [set({ questions: [good] }), "--variant", "cap=50", "--variant", "cap=50"],
      /is given twice/,
    ],
    ["--runs 0", () => [set({ questions: [good] }), "--runs", "0"], /--runs must be a whole number from 1 to 20/],
    [
      "--html into a missing folder",
      () => [set({ questions: [good] }), "--html", path.join(root, "no/such/page.html")],
      /--html .*: the folder .* does not exist/,
    ],
    ["--html naming a folder", () => [set({ questions: [good] }), "--html", root], /--html .*: is a directory/],
    [
      "a control character in a path",
      () => [path.join(root, "bad\u001b[2Jname.json")],
      /bad\\x1b\[2Jname\.json: no such file/,
    ],
    ["an unknown option", () => [set({ questions: [good] }), "--colour"], /unknown option --colour\n/],
  ];
  const refused = (run: CliRun, message: RegExp) => {
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/^scout lab: /);
    expect(run.stdout).toBe("");
    expect(run.code).toBe(2);
  };
  it.each(cases)("%s", async (_name, args, message) =>
    refused(await inProcess(labCommand, args(), OFFLINE_ENV), message),
  );
  // The CLI's own exit status and streams, for one case of each kind: an option, the set, a variant, --html, a path.
  const THROUGH_THE_CLI = ["no set given", "an unknown option", "a bad location", "an unknown knob"];
  const viaCli = cases.filter(
    ([name]) => THROUGH_THE_CLI.includes(name) || name.startsWith("--html") || name.includes("control"),
  );
  it.each(viaCli)("through the CLI: %s", async (_name, args, message) => refused(await lab(args()), message));
});
