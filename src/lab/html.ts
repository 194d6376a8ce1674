// The lab report as one self-contained HTML page for a screen or a slide: the summary table, charts of tokens and
// right answers per variant, of each variant's change against the baseline and of the tokens of each model call
// per question, and every question's verdicts with the reason for each wrong one.
//
// Self-contained means no script, no font, no image, no stylesheet from
// anywhere: the page is the same offline, in ten years, from a USB stick.
import { formatCount } from "../guards/format.js";
import {
  barChart,
  changeChart,
  clip,
  escapeXml,
  stackedBarChart,
  stepChart,
  TOOL_COLOURS,
  VARIANT_COLOURS,
} from "./charts.js";
import type { LabReport, VariantReport } from "./report.js";

const TOOLS = ["read_file", "list_files", "glob", "grep"];

const STYLE = `
body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1320px; color: #1d1d1f; padding: 0 1rem; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; font-size: 1.25rem; }
.meta, .note { color: #555; } .note { font-size: .9rem; }
table { border-collapse: collapse; margin: .6rem 0; } th, td { padding: .3rem .7rem; border-bottom: 1px solid #ddd; }
th { text-align: left; background: #f4f4f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.change td { color: #555; font-size: .9rem; border-bottom-color: #bbb; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; }
figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: .3rem; }
svg text { font-size: 13px; fill: #1d1d1f; } svg .tick { font-size: 11px; fill: #666; } svg .axis { stroke: #999; }
.steps { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 1rem; }
.step-chart figcaption { font-weight: 400; font-size: .85rem; }
.legend span { display: inline-block; margin-right: 1rem; } .legend i { display: inline-block; width: 12px; height: 12px; margin-right: .3rem; vertical-align: -1px; }
.right { color: #2b7a2b; } .wrong { color: #b3261e; font-weight: 600; } td.path { font-size: .85rem; }
#questions { table-layout: fixed; width: 100%; } #questions th, #questions td { overflow-wrap: anywhere; vertical-align: top; }
#questions th:first-child { width: 14rem; } #summary td:first-child { overflow-wrap: anywhere; } .why { color: #b3261e; font-size: .8rem; margin-top: .2rem; }
`;

/** Characters of a wrong answer's reason shown in the per-question table (the --json report has it whole). */
export const MAX_WHY_CHARS = 300;

/** The start of a self-contained page: its head with `style`, its title as heading, and one line about it. */
export function pageStart(title: string, style: string, meta: string): string[] {
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeXml(title)}</title><style>${style}</style></head><body>`,
    `<h1>${escapeXml(title)}</h1>`,
    `<p class="meta">${escapeXml(meta)}</p>`,
  ];
}

export function renderHtml(report: LabReport): string {
  const { set, variants } = report;
  const title = `scout lab: ${set.title || set.file}`;
  const meta =
    `${set.questions} questions · workspace ${set.workspace} · model ${report.model}` +
    ` (${report.offline ? "offline teaching model: deterministic, tokens estimated" : "Claude: tokens as the API reported them"})` +
    ` · ${report.runs} run${report.runs === 1 ? "" : "s"}${report.runs > 1 ? " (figures are means)" : ""}`;
  const colour = (v: number) => VARIANT_COLOURS[v % VARIANT_COLOURS.length];
  const legend = `<p class="legend">${variants
    .map((v, i) => `<span><i style="background:${colour(i)}"></i>${escapeXml(v.name)}</span>`)
    .join("")}</p>`;
  return [
    ...pageStart(title, STYLE, meta),
    "<h2>Variants</h2>",
    summaryTable(report),
    `<p class="note">Schema tokens per request: ${escapeXml(report.schemaCount.note)}. Tool-result tokens: each result's text through the local tokenizer.</p>`,
    '<div class="charts" id="variant-charts">',
    barChart(
      "Input tokens per variant",
      variants.map((v, i) => ({
        label: v.name,
        value: v.totals.inputTokens,
        colour: colour(i),
        text: formatCount(v.totals.inputTokens),
        data: { variant: v.name, figure: "inputTokens" },
      })),
    ),
    barChart(
      "Right answers per variant",
      variants.map((v, i) => ({
        label: v.name,
        value: v.totals.right,
        colour: colour(i),
        text: `${v.totals.right}/${set.questions}`,
        data: { variant: v.name, figure: "right" },
      })),
      set.questions,
    ),
    stackedBarChart(
      "Tool-result tokens by tool",
      variants.map((v) => ({
        label: v.name,
        text: formatCount(v.totals.toolResultTokens),
        parts: TOOLS.filter((tool) => v.totals.toolResultTokensByTool[tool] !== undefined).map((tool) => ({
          value: v.totals.toolResultTokensByTool[tool],
          colour: TOOL_COLOURS[tool],
          data: { variant: v.name, figure: `toolResultTokens.${tool}` },
        })),
      })),
      TOOLS.map((tool) => [tool, TOOL_COLOURS[tool]]),
    ),
    "</div>",
    ...changeSection(report, colour),
    "<h2>Input tokens of each model call, per question</h2>",
    `<p class="note">One bar per variant's first run at each model call, side by side, rising as tool results pile up in the conversation; every chart on one scale (0 to ${formatCount(stepScale(report))}), so heights compare across questions.</p>`,
    legend,
    '<div class="steps" id="step-charts">',
    ...variants[0].questions.map((question, q) =>
      stepChart(
        `${question.id}: ${question.question}`,
        variants.map((v, i) => ({ name: v.name, colour: colour(i), values: callInputs(v, q) })),
        { question: question.id },
        stepScale(report),
      ),
    ),
    "</div>",
    "<h2>Per question</h2>",
    questionTable(report),
    "</body></html>",
    "",
  ].join("\n");
}

/** The input tokens of each model call of a variant's first run of question q. */
function callInputs(v: VariantReport, q: number): number[] {
  return v.questions[q].runs[0].steps.flatMap((s) => (s.kind === "model" ? [s.inputTokens] : []));
}

/** The largest model call of any first run: the one scale of every per-question chart. */
function stepScale(report: LabReport): number {
  return Math.max(1, ...report.variants.flatMap((v) => v.questions.flatMap((_, q) => callInputs(v, q))));
}

/** Each variant's change against the baseline, as bars from zero: the table's "vs baseline" rows, drawn. */
function changeSection(report: LabReport, colour: (v: number) => string): string[] {
  const others = report.variants.slice(1);
  if (others.length === 0) return [];
  const pct = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(1)}%`;
  const on = others.some((v) => v.model) ? " (each variant at its model's prices)" : ` on ${report.priced.model}`;
  const chart = (title: string, figure: string, value: (v: VariantReport) => number | null | undefined) => {
    const bars = others.flatMap((v, i) => {
      const n = value(v);
      return n === null || n === undefined
        ? []
        : [{ label: v.name, value: n, colour: colour(i + 1), text: pct(n), data: { variant: v.name, figure } }];
    });
    return bars.length ? [changeChart(title, bars)] : [];
  };
  return [
    "<h2>Change against the baseline</h2>",
    `<p class="note">Each chart is scaled to its largest change, so a difference of 1–3% is still a bar; the number at each bar's end is the table's.</p>`,
    '<div class="charts" id="change-charts">',
    ...chart("Input tokens", "change.inputTokens", (v) => v.change?.inputTokens),
    ...chart("Tool-result tokens", "change.toolResultTokens", (v) => v.change?.toolResultTokens),
    ...chart(`Dollars${on}, without caching`, "dollarsChange.uncached", (v) => v.dollarsChange?.uncached),
    ...chart(`Dollars${on}, with caching`, "dollarsChange.cached", (v) => v.dollarsChange?.cached),
    "</div>",
  ];
}

function summaryTable(report: LabReport): string {
  const approx = report.schemaCount.mode === "estimate" ? "~" : "";
  const cell = (v: VariantReport, figure: string, text: string) =>
    `<td class="num" data-variant="${escapeXml(v.name)}" data-figure="${figure}">${escapeXml(text)}</td>`;
  const head =
    "<tr><th>variant</th><th>right</th><th>model calls</th><th>input tokens</th><th>output tokens</th><th>tool-result tokens</th><th>schema tokens / request</th></tr>";
  const rows = report.variants.map((v) => {
    const t = v.totals;
    const main =
      `<tr><td>${escapeXml(v.name)}</td>${cell(v, "right", `${t.right}/${report.set.questions}`)}` +
      `${cell(v, "modelCalls", formatCount(t.modelCalls))}${cell(v, "inputTokens", formatCount(t.inputTokens))}` +
      `${cell(v, "outputTokens", formatCount(t.outputTokens))}${cell(v, "toolResultTokens", formatCount(t.toolResultTokens))}` +
      `${cell(v, "schemaTokens", approx + formatCount(v.schemaTokens))}</tr>`;
    const small = (label: string, cells: string[]) =>
      `<tr class="change"><td>${label}</td>${cells.map((text) => `<td class="num">${text}</td>`).join("")}</tr>`;
    const range = ([low, high]: [number, number]) => `${formatCount(low)}–${formatCount(high)}`;
    const s = v.spread;
    const spread = s
      ? small(
          "lowest–highest",
          [s.right, s.modelCalls, s.inputTokens, s.outputTokens, s.toolResultTokens].map(range).concat(""),
        )
      : "";
    if (!v.change) return main + spread;
    const c = v.change;
    const pct = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(1)}%`;
    const diff = (n: number) => `${n >= 0 ? "+" : ""}${formatCount(n)}`;
    const change = [
      diff(c.right),
      diff(c.modelCalls),
      pct(c.inputTokens),
      pct(c.outputTokens),
      pct(c.toolResultTokens),
    ];
    return main + spread + small("vs baseline", [...change, diff(c.schemaTokens)]);
  });
  return `<table id="summary">${head}${rows.join("")}</table>`;
}

function questionTable(report: LabReport): string {
  const head = `<tr><th>question</th>${report.variants.map((v) => `<th>${escapeXml(v.name)}</th>`).join("")}</tr>`;
  const rows = report.variants[0].questions.map((question, q) => {
    const cells = report.variants.map((v) => {
      const { rightRuns, runs } = v.questions[q];
      const first = runs[0];
      const mark = report.runs === 1 ? (first.right ? "✓" : "✗") : `${rightRuns}/${report.runs}`;
      // Why a wrong answer is wrong, on the page itself: a tooltip is not on a slide.
      const why = first.right ? "" : `<div class="why">${escapeXml(clip(first.why, MAX_WHY_CHARS))}</div>`;
      return (
        `<td class="path" data-variant="${escapeXml(v.name)}" data-question="${escapeXml(question.id)}" data-input-tokens="${first.inputTokens}">` +
        `<span class="${first.right ? "right" : "wrong"}">${mark}</span> ${escapeXml(first.path.join(" → "))}` +
        ` · ${formatCount(first.inputTokens)} in${why}</td>`
      );
    });
    return `<tr><td><b>${escapeXml(question.id)}</b><br>${escapeXml(question.question)}</td>${cells.join("")}</tr>`;
  });
  return `<table id="questions">${head}${rows.join("")}</table>`;
}
