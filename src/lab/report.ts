// The report of a lab run, as one JSON-ready object: per variant its totals, its schema cost and its change
// against the baseline, and per question each run's answer, tool path and tokens.
//
// The table, the --json document and the HTML page all print this one
// object, so their numbers cannot disagree.
import path from "node:path";
import { SYSTEM_PROMPT } from "../prompt.js";
import type { Counter } from "../tokens/count.js";
import { PRICES_DATE } from "../tokens/prices.js";
import { hiddenPromptTokens, tokenizerRatio, toolPromptTokens } from "../tokens/model-sizes.js";
import { toolSchemas } from "../tools/index.js";
import type { ToolDesign } from "../tools/tool.js";
import type { QuestionSet } from "./question-set.js";
import { type RunDollars, variantDollars } from "./money.js";
import type { RunRecord } from "./runner.js";
import { toolsOf, type Variant } from "./variants.js";

export const SCHEMA_EXACT_NOTE =
  "exact: the API's count_tokens endpoint, a request with the tools minus one without (includes the API's hidden tool-use prompt)";
/** The offline note: the local tokenizer, plus the published hidden prompt of the model the estimate stands for. */
export function schemaEstimateNote(pricedAs: string, hiddenPrompt: number | undefined): string {
  return (
    "estimate: the schemas' JSON through the local tokenizer (@anthropic-ai/tokenizer), " +
    (hiddenPrompt === undefined
      ? `without the API's hidden tool-use prompt (no published size for ${pricedAs})`
      : `+ the API's hidden tool-use prompt for ${pricedAs} (${hiddenPrompt}, published; also added to every model call's input)`) +
    (tokenizerRatio(pricedAs) === 1
      ? ""
      : `; ${pricedAs} counts ~${Math.round((tokenizerRatio(pricedAs) - 1) * 100)}% more tokens for the same text (published), not applied: a ratio scales every variant alike`)
  );
}
/** The user message the schema counts are made with (any short question would do). */
const COUNT_QUESTION = "Where is main defined?";

/** The figures summed over a variant's questions, for one run (with several runs: the mean, rounded). */
export interface Totals {
  right: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  toolResultTokens: number;
  toolResultTokensByTool: Record<string, number>;
}
type Figure = Exclude<keyof Totals, "toolResultTokensByTool">;
export const FIGURES: Figure[] = ["right", "modelCalls", "inputTokens", "outputTokens", "toolResultTokens"];

export interface VariantReport {
  name: string;
  design: ToolDesign;
  /** `descriptions=FILE.json`: the variant's own wording per tool. */
  descriptions?: Record<string, string>;
  /** What the four tool schemas add to every request. */
  schemaTokens: number;
  totals: Totals;
  /** With several runs: each figure's lowest and highest run. */
  spread: Record<Figure, [number, number]> | null;
  /** With several runs: each figure's mean and sample standard deviation over the runs. */
  stats: Record<Figure, { mean: number; sd: number }> | null;
  /**
   * With several runs, against the baseline run by run (run r of each variant asks the same questions): the mean
   * difference and its 95% confidence interval (Student's t over the runs' differences).
   */
  paired: Record<Figure, { mean: number; low: number; high: number }> | null;
  /** Against the baseline: right answers, model calls and schema tokens as differences, tokens in percent. */
  change: Record<Figure | "schemaTokens", number> | null;
  /**
   * Dollars for the whole set on the report's `priced` model (the mean over runs), without caching and with it
   * (as the API reported; offline, simulated); null when the model has no price.
   */
  dollars: { uncached: number; cached: number | null } | null;
  /** Against the baseline, in percent to one decimal. */
  dollarsChange: { uncached: number; cached: number | null } | null;
  questions: { id: string; question: string; rightRuns: number; runs: RunRecord[] }[];
}

export interface LabReport {
  set: { file: string; title: string; workspace: string; questions: number };
  model: string;
  offline: boolean;
  runs: number;
  schemaCount: { mode: "exact" | "estimate"; note: string };
  /** The model whose prices the dollars use, and the price table's date. */
  priced: { model: string; date: string };
  /** Offline: the Claude model the estimates stand for, and its hidden tool-use prompt added to every request. */
  estimatesFor?: { model: string; hiddenPrompt: number };
  /** How many runs failed with an error (they count as wrong). */
  errors: number;
  variants: VariantReport[];
}

/**
 * The schema tokens of each variant: one count without tools, then one per variant. Estimated (`hiddenFor` the
 * model the estimate stands for), the published hidden tool-use prompt is added, as count_tokens includes it.
 */
export async function countSchemaTokens(
  variants: Variant[],
  count: Counter,
  model: string,
  hiddenFor?: string,
): Promise<number[]> {
  const request = { model, system: SYSTEM_PROMPT, messages: [{ role: "user" as const, content: COUNT_QUESTION }] };
  const without = await count(request);
  const counts: number[] = [];
  for (const variant of variants) {
    const tools = toolSchemas(toolsOf(variant));
    const hidden = hiddenFor === undefined ? 0 : hiddenPromptTokens(hiddenFor, tools.length);
    counts.push((await count({ ...request, tools })) - without + hidden);
  }
  return counts;
}

export function buildReport(input: {
  set: QuestionSet;
  variants: Variant[];
  records: RunRecord[][][];
  schemaTokens: number[];
  schemaMode: "exact" | "estimate";
  model: string;
  offline: boolean;
  runs: number;
  /** Offline: the Claude model whose hidden prompt the estimates carry. */
  estimatesFor?: string;
  /** Per variant, the tokens the system breakpoint caches (tools, hidden prompt, system prompt), for the offline simulation. */
  stablePrefix?: number[];
}): LabReport {
  const { set, variants, records, runs } = input;
  const reports = variants.map((variant, v): VariantReport => {
    const perRun = Array.from({ length: runs }, (_, r) => totalsOf(records[v].map((question) => question[r])));
    const priced = input.estimatesFor ?? input.model;
    const money = Array.from({ length: runs }, (_, r) =>
      variantDollars(
        records[v].map((question) => question[r]),
        priced,
        input.offline,
        input.stablePrefix?.[v] ?? 0,
      ),
    );
    return {
      name: variant.name,
      design: variant.design,
      ...(variant.descriptions ? { descriptions: variant.descriptions } : {}),
      schemaTokens: input.schemaTokens[v],
      totals: meanOf(perRun),
      spread: runs > 1 ? spreadOf(perRun) : null,
      stats: runs > 1 ? statsOf(perRun) : null,
      paired: null,
      change: null,
      dollars: meanDollars(money),
      dollarsChange: null,
      questions: set.questions.map((question, q) => ({
        id: question.id,
        question: question.question,
        rightRuns: records[v][q].filter((run) => run.right).length,
        runs: records[v][q],
      })),
    };
  });
  const [baseline] = reports;
  const perRunOf = (v: number) =>
    Array.from({ length: runs }, (_, r) => totalsOf(records[v].map((question) => question[r])));
  if (runs > 1)
    for (const [v, report] of reports.entries()) if (v > 0) report.paired = pairedOf(perRunOf(0), perRunOf(v));
  for (const report of reports.slice(1)) {
    report.change = changeOf(baseline, report);
    report.dollarsChange = dollarsChangeOf(baseline.dollars, report.dollars);
  }
  return {
    // The workspace relative to where Scout runs, so a report reads the same on every machine.
    set: {
      file: set.file,
      title: set.title,
      workspace: path.relative(process.cwd(), set.workspace).split(path.sep).join("/") || ".",
      questions: set.questions.length,
    },
    model: input.model,
    offline: input.offline,
    runs,
    priced: { model: input.estimatesFor ?? input.model, date: PRICES_DATE },
    schemaCount: {
      mode: input.schemaMode,
      note:
        input.schemaMode === "exact"
          ? SCHEMA_EXACT_NOTE
          : schemaEstimateNote(input.estimatesFor ?? input.model, toolPromptTokens(input.estimatesFor ?? input.model)),
    },
    ...(input.estimatesFor === undefined
      ? {}
      : {
          estimatesFor: {
            model: input.estimatesFor,
            hiddenPrompt: hiddenPromptTokens(input.estimatesFor, 1),
          },
        }),
    errors: records.flat(2).filter((run) => run.error !== undefined).length,
    variants: reports,
  };
}

/** The mean dollars over runs, to the millionth; null when any run has no price. */
function meanDollars(money: (RunDollars | null)[]): VariantReport["dollars"] {
  if (money.some((m) => m === null)) return null;
  const runs = money as RunDollars[];
  const mean = (values: number[]) => Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1e6) / 1e6;
  const cached = runs.every((m) => m.cached !== null) ? mean(runs.map((m) => m.cached as number)) : null;
  return { uncached: mean(runs.map((m) => m.uncached)), cached };
}

function dollarsChangeOf(
  baseline: VariantReport["dollars"],
  variant: VariantReport["dollars"],
): VariantReport["dollarsChange"] {
  if (!baseline || !variant) return null;
  const percent = (before: number, after: number) =>
    before === 0 ? 0 : Math.round(((after - before) / before) * 1000) / 10;
  return {
    uncached: percent(baseline.uncached, variant.uncached),
    cached: baseline.cached === null || variant.cached === null ? null : percent(baseline.cached, variant.cached),
  };
}

function totalsOf(runs: RunRecord[]): Totals {
  const totals: Totals = {
    right: 0,
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    toolResultTokens: 0,
    toolResultTokensByTool: {},
  };
  for (const run of runs) {
    totals.right += run.right ? 1 : 0;
    totals.modelCalls += run.modelCalls;
    totals.inputTokens += run.inputTokens;
    totals.outputTokens += run.outputTokens;
    totals.toolResultTokens += run.toolResultTokens;
    for (const [tool, tokens] of Object.entries(run.toolResultTokensByTool))
      totals.toolResultTokensByTool[tool] = (totals.toolResultTokensByTool[tool] ?? 0) + tokens;
  }
  return totals;
}

/** The mean of each figure over the runs, rounded to whole tokens (right answers to one decimal). */
function meanOf(perRun: Totals[]): Totals {
  const mean = (values: number[], digits = 0) =>
    Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10 ** digits) / 10 ** digits;
  const tools = [...new Set(perRun.flatMap((totals) => Object.keys(totals.toolResultTokensByTool)))].sort();
  return {
    right: mean(
      perRun.map((t) => t.right),
      1,
    ),
    modelCalls: mean(perRun.map((t) => t.modelCalls)),
    inputTokens: mean(perRun.map((t) => t.inputTokens)),
    outputTokens: mean(perRun.map((t) => t.outputTokens)),
    toolResultTokens: mean(perRun.map((t) => t.toolResultTokens)),
    toolResultTokensByTool: Object.fromEntries(
      tools.map((tool) => [tool, mean(perRun.map((t) => t.toolResultTokensByTool[tool] ?? 0))]),
    ),
  };
}

/** Two-sided 95% critical values of Student's t, by degrees of freedom (1 to MAX_RUNS − 1 = 19). */
const T_95 = [
  0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12,
  2.11, 2.101, 2.093,
];

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Mean and sample standard deviation (n − 1), unrounded. */
function meanSd(values: number[]): { mean: number; sd: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((sum, x) => sum + (x - mean) ** 2, 0) / Math.max(1, values.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

function statsOf(perRun: Totals[]): Record<Figure, { mean: number; sd: number }> {
  const rounded = (figure: Figure) => {
    const { mean, sd } = meanSd(perRun.map((t) => t[figure]));
    return { mean: round2(mean), sd: round2(sd) };
  };
  return Object.fromEntries(FIGURES.map((figure) => [figure, rounded(figure)])) as Record<
    Figure,
    { mean: number; sd: number }
  >;
}

/** The run-by-run differences from the baseline: their mean, and mean ± t × sd / √n. */
function pairedOf(baseline: Totals[], variant: Totals[]): Record<Figure, { mean: number; low: number; high: number }> {
  const n = baseline.length;
  const paired = (figure: Figure) => {
    const differences = variant.map((t, r) => t[figure] - baseline[r][figure]);
    const { mean, sd } = meanSd(differences);
    const half = (T_95[Math.min(n - 1, T_95.length - 1)] * sd) / Math.sqrt(n);
    return { mean: round2(mean), low: round2(mean - half), high: round2(mean + half) };
  };
  return Object.fromEntries(FIGURES.map((figure) => [figure, paired(figure)])) as Record<
    Figure,
    { mean: number; low: number; high: number }
  >;
}

function spreadOf(perRun: Totals[]): Record<Figure, [number, number]> {
  const range = (figure: Figure): [number, number] => {
    const values = perRun.map((totals) => totals[figure]);
    return [Math.min(...values), Math.max(...values)];
  };
  return Object.fromEntries(FIGURES.map((figure) => [figure, range(figure)])) as Record<Figure, [number, number]>;
}

/** Differences for counts (right answers, calls, schema tokens); percent, to one decimal, for token sums. */
function changeOf(baseline: VariantReport, variant: VariantReport): Record<Figure | "schemaTokens", number> {
  const percent = (figure: Figure) => {
    const before = baseline.totals[figure];
    return before === 0 ? 0 : Math.round(((variant.totals[figure] - before) / before) * 1000) / 10;
  };
  return {
    right: Math.round((variant.totals.right - baseline.totals.right) * 10) / 10,
    modelCalls: variant.totals.modelCalls - baseline.totals.modelCalls,
    inputTokens: percent("inputTokens"),
    outputTokens: percent("outputTokens"),
    toolResultTokens: percent("toolResultTokens"),
    schemaTokens: variant.schemaTokens - baseline.schemaTokens,
  };
}
