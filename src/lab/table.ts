// The lab report as a plain-text table for the terminal: variants with their change against the baseline,
// tool-result tokens by tool, then every question with each variant's verdict, tool path and tokens.
import { formatCount } from "../guards/format.js";
import { formatDollars } from "../tokens/prices.js";
import type { LabReport, VariantReport } from "./report.js";
import { escapePath } from "../guards/escape.js";

/** The tools in the order the tables show them. */
const TOOL_ORDER = ["read_file", "list_files", "glob", "grep"];

/** `differs`: list only the questions whose verdict (right runs) is not the same for every variant. */
export function formatReport(report: LabReport, { differs = false } = {}): string {
  const { set, variants } = report;
  const approx = report.schemaCount.mode === "estimate" ? "~" : "";
  const nameWidth = Math.max(24, ...variants.map((v) => v.name.length + 4));
  const row = (label: string, cells: string[], widths: number[]) =>
    (label.padEnd(nameWidth) + cells.map((cell, i) => cell.padStart(widths[i])).join("")).trimEnd();

  const lines = [
    `scout lab: ${escapePath(set.title || set.file)}`,
    `${set.questions} questions · workspace ${escapePath(set.workspace)} · model ${escapePath(report.model)}` +
      ` (${report.offline ? `offline: deterministic, tokens estimated${report.estimatesFor ? ` for ${escapePath(report.estimatesFor.model)}` : ""}` : "Claude: tokens as the API reported them"})` +
      ` · ${report.runs} run${report.runs === 1 ? "" : "s"}${report.runs > 1 ? " (mean; lowest–highest, standard deviation, and the run-by-run difference from the baseline with its 95% interval)" : ""}`,
    "",
  ];
  const header = ["right", "calls", "input tok", "output tok", "tool results", "schema/request"];
  const rows: [string, string[]][] = [];
  for (const variant of variants) {
    const t = variant.totals;
    rows.push([
      variant.name,
      [
        `${t.right}/${set.questions}`,
        formatCount(t.modelCalls),
        formatCount(t.inputTokens),
        formatCount(t.outputTokens),
        formatCount(t.toolResultTokens),
        approx + formatCount(variant.schemaTokens),
      ],
    ]);
    if (variant.spread) {
      const s = variant.spread;
      const range = ([low, high]: [number, number]) => `${formatCount(low)}–${formatCount(high)}`;
      rows.push([
        "  lowest–highest",
        [
          range(s.right),
          range(s.modelCalls),
          range(s.inputTokens),
          range(s.outputTokens),
          range(s.toolResultTokens),
          "",
        ],
      ]);
    }
    if (variant.stats) {
      const sd = (figure: keyof NonNullable<VariantReport["stats"]>) => decimal(variant.stats![figure].sd);
      rows.push([
        "  standard deviation",
        [sd("right"), sd("modelCalls"), sd("inputTokens"), sd("outputTokens"), sd("toolResultTokens"), ""],
      ]);
    }
    if (variant.change) {
      const c = variant.change;
      rows.push([
        "  vs baseline",
        [
          signed(c.right),
          signed(c.modelCalls),
          `${signed(c.inputTokens, 1)}%`,
          `${signed(c.outputTokens, 1)}%`,
          `${signed(c.toolResultTokens, 1)}%`,
          signed(c.schemaTokens),
        ],
      ]);
    }
    if (variant.paired) {
      const p = variant.paired;
      const cell = (figure: keyof NonNullable<VariantReport["paired"]>) =>
        `${signedDecimal(p[figure].mean)} [${decimal(p[figure].low)}, ${decimal(p[figure].high)}]`;
      rows.push([
        "  paired Δ, 95%",
        [cell("right"), cell("modelCalls"), cell("inputTokens"), cell("outputTokens"), cell("toolResultTokens"), ""],
      ]);
    }
  }
  // Each column as wide as its widest cell, and two spaces between columns, so no two figures ever touch.
  const widths = header.map((title, i) => 2 + Math.max(title.length, ...rows.map(([, cells]) => cells[i].length)));
  lines.push(row("variant", header, widths));
  for (const [label, cells] of rows) lines.push(row(label, cells, widths));
  lines.push("", `  schema/request: ${report.schemaCount.note}`);
  lines.push("  tool results: each result's text through the local tokenizer; sent again with every later request");
  if (report.errors)
    lines.push(`  ${report.errors} run${report.errors === 1 ? "" : "s"} failed with an error (counted wrong)`);

  lines.push("", ...dollarLines(report, nameWidth));

  const tools = TOOL_ORDER.filter((tool) => variants.some((v) => v.totals.toolResultTokensByTool[tool] !== undefined));
  lines.push("", "Tool-result tokens by tool:");
  lines.push(
    row(
      "variant",
      tools,
      tools.map(() => 12),
    ),
  );
  for (const variant of variants)
    lines.push(
      row(
        variant.name,
        tools.map((tool) => formatCount(variant.totals.toolResultTokensByTool[tool] ?? 0)),
        tools.map(() => 12),
      ),
    );

  const differing = (q: number) => new Set(variants.map((v) => v.questions[q].rightRuns)).size > 1;
  const shown = variants[0].questions.map((_, q) => q).filter((q) => !differs || differing(q));
  lines.push(
    "",
    `Per question (✓ right, ✗ wrong · tool path · input / output tokens of the first run)${differs ? `, only the ${shown.length} whose verdict differs between variants` : ""}:`,
  );
  for (const [q, question] of variants[0].questions.entries()) {
    if (!shown.includes(q)) continue;
    lines.push(`${question.id}: ${escapePath(question.question)}`);
    for (const variant of variants) lines.push(questionLine(variant, q, report.runs, nameWidth));
  }
  return lines.join("\n");
}

/** Each variant's dollars, without and with caching, and their change against the baseline. */
function dollarLines(report: LabReport, nameWidth: number): string[] {
  const { model, date } = report.priced;
  const how = report.offline
    ? "offline: the estimates priced, caching simulated over the set as one session"
    : "as the API reported, cache reads and writes included";
  const head = `Dollars (${escapePath(model)} prices, ${date}; ${how}):`;
  if (report.variants.some((v) => !v.dollars)) return [head, `  price unknown for ${escapePath(model)}`];
  const approx = report.offline ? "~" : "";
  const money = (value: number | null | undefined) =>
    value === null || value === undefined ? "unknown" : approx + formatDollars(value);
  const percent = (value: number | null | undefined) =>
    value === null || value === undefined ? "" : `${signed(value, 1)}%`;
  const widths = [17, 13, 15, 13];
  const row = (label: string, cells: string[]) =>
    (label.padEnd(nameWidth) + cells.map((cell, i) => cell.padStart(widths[i])).join("")).trimEnd();
  const lines = [head, row("variant", ["without caching", "vs baseline", "with caching", "vs baseline"])];
  for (const v of report.variants)
    lines.push(
      row(v.name, [
        money(v.dollars?.uncached),
        percent(v.dollarsChange?.uncached),
        money(v.dollars?.cached),
        percent(v.dollarsChange?.cached),
      ]),
    );
  return lines;
}

function questionLine(variant: VariantReport, q: number, runs: number, nameWidth: number): string {
  const { rightRuns, runs: records } = variant.questions[q];
  const first = records[0];
  const mark = runs === 1 ? (first.right ? "✓" : "✗") : `${rightRuns}/${runs}`;
  const tokens = `${formatCount(first.inputTokens)} / ${formatCount(first.outputTokens)}`;
  const why = first.right ? "" : `  (${escapePath(first.why)})`;
  return `  ${variant.name.padEnd(nameWidth - 3)} ${mark.padEnd(5)}${first.path.join(" → ").padEnd(44)}${tokens.padStart(14)}${why}`.trimEnd();
}

/** 4,812 or 12.5: whole figures grouped, others to one decimal. */
function decimal(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : value.toFixed(1);
}

function signedDecimal(value: number): string {
  return value < 0 ? decimal(value) : `+${decimal(value)}`;
}

/** +3, -2, +0; with digits, +4.5 and -12.0. */
function signed(value: number, digits = 0): string {
  const text = digits ? value.toFixed(digits) : formatCount(value);
  return value < 0 || text.startsWith("-") ? text : `+${text}`;
}
