// What the tool schemas cost in tokens: a schema is sent with every request, so it costs on every
// model call; `scout tokens` and /tokens measure it with whichever Counter they are given.
import { SYSTEM_PROMPT } from "../prompt.js";
import { toolSchemas } from "../tools/index.js";
import { type Counter, type CountRequest, estimateTokens, formatCount } from "./count.js";

/** The one user message every row of the table is counted with. */
export const FIXED_QUESTION = "Where is main defined?";

type ToolSchema = ReturnType<typeof toolSchemas>[number];

export const EXACT_NOTE = "exact: the API's count_tokens endpoint (free; its counts are the API's own estimate)";
export const ESTIMATE_NOTE =
  "estimate: local @anthropic-ai/tokenizer, the tokenizer of older Claude models, approximate for current ones; the API's hidden tool-use prompt is not counted";

export interface SchemaCosts {
  mode: "exact" | "estimate";
  note: string;
  model: string;
  question: string;
  /** System prompt + the question, no tools. */
  baseline: number;
  /** Tools added one at a time, in registry order. */
  tools: { name: string; cumulative: number; marginal: number }[];
  /** All tool schemas together: the last cumulative count minus the baseline. */
  total: number;
  /** Each schema alone, split into description and input_schema (always estimated locally). */
  parts: { name: string; description: Size; input_schema: Size; properties: ({ name: string } & Size)[] }[];
}
export interface Size {
  chars: number;
  tokens: number;
}

/** Counts the baseline and each cumulative tool set: one count per row, 1 + number of tools in all. */
export async function measureSchemaCosts(
  count: Counter,
  mode: SchemaCosts["mode"],
  model: string,
  only?: string,
): Promise<SchemaCosts> {
  const schemas = toolSchemas().filter((tool) => !only || tool.name === only);
  const request = (tools: ToolSchema[]): CountRequest => ({
    model,
    system: SYSTEM_PROMPT,
    messages: [{ role: "user", content: FIXED_QUESTION }],
    ...(tools.length ? { tools } : {}),
  });
  const baseline = await count(request([]));
  const tools: SchemaCosts["tools"] = [];
  let previous = baseline;
  for (let i = 0; i < schemas.length; i++) {
    const cumulative = await count(request(schemas.slice(0, i + 1)));
    tools.push({ name: schemas[i].name, cumulative, marginal: cumulative - previous });
    previous = cumulative;
  }
  const size = (text: string): Size => ({ chars: text.length, tokens: estimateTokens(text) });
  const parts = schemas.map((tool) => ({
    name: tool.name,
    description: size(tool.description),
    input_schema: size(JSON.stringify(tool.input_schema)),
    properties: Object.entries(tool.input_schema.properties).map(([name, property]) => ({
      name,
      ...size(JSON.stringify(property)),
    })),
  }));
  return {
    mode,
    note: mode === "exact" ? EXACT_NOTE : ESTIMATE_NOTE,
    model,
    question: FIXED_QUESTION,
    baseline,
    tools,
    total: previous - baseline,
    parts,
  };
}

/** The table `scout tokens` prints; the same numbers as --json. */
export function formatSchemaCosts(costs: SchemaCosts): string {
  const approx = costs.mode === "estimate" ? "~" : "";
  const row = (label: string, cumulative: string, marginal: string) =>
    `${label.padEnd(22)}${cumulative.padStart(12)}${marginal.padStart(12)}`.trimEnd();
  const lines = [
    `Tool schema token costs (${costs.mode}) · model ${costs.model}`,
    `  ${costs.note}`,
    `  every row: the system prompt + one user message ("${costs.question}")`,
    "",
    row("", "cumulative", "marginal"),
    row("baseline (no tools)", approx + formatCount(costs.baseline), ""),
    ...costs.tools.map((tool, i) =>
      row(
        `+ ${tool.name}`,
        approx + formatCount(tool.cumulative),
        `+${formatCount(tool.marginal)}${i === 0 && costs.mode === "exact" ? " *" : ""}`,
      ),
    ),
    row("all tool schemas", "", `${approx}${formatCount(costs.total)}`),
    "",
  ];
  if (costs.mode === "exact")
    lines.push(
      "* the first tool's row also carries the hidden tool-use system prompt the API adds when any tool is present.",
      "",
    );
  lines.push(
    "Each schema alone (local estimate): description vs input_schema",
    `${"".padEnd(14)}${"description".padStart(22)}${"input_schema".padStart(22)}`,
  );
  const size = (s: Size) => `${formatCount(s.chars)} chars ~${formatCount(s.tokens)} tok`;
  for (const part of costs.parts)
    lines.push(`${part.name.padEnd(14)}${size(part.description).padStart(22)}${size(part.input_schema).padStart(22)}`);
  if (costs.parts.length === 1) {
    lines.push("", `${costs.parts[0].name}'s input_schema, property by property (local estimate):`);
    for (const property of costs.parts[0].properties)
      lines.push(`  ${property.name.padEnd(12)}${size(property).padStart(22)}`);
  }
  return lines.join("\n");
}
