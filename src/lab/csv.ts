// The lab report as CSV, one row per variant, question and run, for a spreadsheet or a notebook: the same
// figures as --json, flat.
import { escapePath } from "../guards/escape.js";
import type { LabReport } from "./report.js";

export const CSV_COLUMNS = [
  "variant",
  "question",
  "run",
  "right",
  "model_calls",
  "input_tokens",
  "output_tokens",
  "tool_result_tokens",
  "path",
  "why",
] as const;

/** A field quoted when it holds a comma, a quote or a line break (RFC 4180); control characters escaped. */
function field(value: string | number | boolean): string {
  const text = typeof value === "string" ? escapePath(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatCsv(report: LabReport): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const variant of report.variants)
    for (const question of variant.questions)
      for (const [r, run] of question.runs.entries())
        lines.push(
          [
            variant.name,
            question.id,
            r + 1,
            run.right,
            run.modelCalls,
            run.inputTokens,
            run.outputTokens,
            run.toolResultTokens,
            run.path.join(" > "),
            run.why,
          ]
            .map(field)
            .join(","),
        );
  return `${lines.join("\n")}\n`;
}
