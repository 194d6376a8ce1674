// The report of a lab run, as one JSON-ready object: per variant its totals, its schema cost and its change
// against the baseline, and per question each run's answer, tool path and tokens.
//
// The table, the --json document and the HTML page all print this one
// object, so their numbers cannot disagree.
import path from "node:path";
import { SYSTEM_PROMPT } from "../core/scout.js";
import type { Counter } from "../tokens/count.js";
import { PRICES_DATE } from "../tokens/prices.js";
import { hiddenPromptTokens, tokenizerRatio, toolPromptTokens } from "../tokens/model-sizes.js";
import { toolSchemas } from "../core/tool.js";
import type { ToolDesign } from "./designs.js";
import type { QuestionSet } from "./question-set.js";
import { type RunDollars, variantDollars } from "./money.js";
import type { RunRecord } from "./runner.js";
import { type Figure, meanOf, pairedOf, spreadOf, statsOf, type Totals, totalsOf } from "./statistics.js";
import { toolsOf, type Variant } from "./variants.js";

export { FIGURES, type Totals } from "./statistics.js";

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
