// The lab's arithmetic over runs: totals per run, their mean, sample standard deviation and range, and the paired difference from the baseline with a 95% interval.
import type { RunRecord } from "./runner.js";

/** The figures summed over a variant's questions, for one run (with several runs: the mean, rounded). */
export interface Totals {
  right: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  toolResultTokens: number;
  toolResultTokensByTool: Record<string, number>;
}
export type Figure = Exclude<keyof Totals, "toolResultTokensByTool">;
export const FIGURES: Figure[] = ["right", "modelCalls", "inputTokens", "outputTokens", "toolResultTokens"];

export function totalsOf(runs: RunRecord[]): Totals {
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
export function meanOf(perRun: Totals[]): Totals {
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

export function statsOf(perRun: Totals[]): Record<Figure, { mean: number; sd: number }> {
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
export function pairedOf(
  baseline: Totals[],
  variant: Totals[],
): Record<Figure, { mean: number; low: number; high: number }> {
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

export function spreadOf(perRun: Totals[]): Record<Figure, [number, number]> {
  const range = (figure: Figure): [number, number] => {
    const values = perRun.map((totals) => totals[figure]);
    return [Math.min(...values), Math.max(...values)];
  };
  return Object.fromEntries(FIGURES.map((figure) => [figure, range(figure)])) as Record<Figure, [number, number]>;
}
