// What the tool schemas cost: a schema is sent with every request, so it costs on every model call; `scout tokens`
// and /tokens measure it with whichever Counter they are given.
import { SYSTEM_PROMPT, tools as scoutTools } from "../core/scout.js";
import { toolSchemas } from "../core/tool.js";
import { type Counter, type CountRequest, estimateTokens } from "./count.js";
import { formatCount } from "../guards/format.js";
import {
  MODEL_SIZES_DATE,
  TOOL_PROMPT_SOURCE,
  tokenizerNote,
  tokenizerRatio,
  toolPromptTokens,
} from "./model-sizes.js";
import { dollars, formatDollars, PRICES_DATE, priceOf } from "./prices.js";
import { escapePath } from "../guards/escape.js";

/** The one user message every row of the table is counted with. */
export const FIXED_QUESTION = "Where is main defined?";

type ToolSchema = ReturnType<typeof toolSchemas>[number];

export const EXACT_NOTE = "exact: the API's count_tokens endpoint (free; its counts are the API's own estimate)";
export const ESTIMATE_NOTE =
  "estimate: local @anthropic-ai/tokenizer, the tokenizer of older Claude models, approximate for current ones; the API's hidden tool-use prompt is its own row, from the published table";

export interface SchemaCosts {
  mode: "exact" | "estimate";
  note: string;
  model: string;
  question: string;
  /** System prompt + the question, no tools. */
  baseline: number;
  /** The published size of the hidden tool-use system prompt for this model (tool_choice auto), if known. */
  hiddenPrompt?: number;
  /** Tools added one at a time, in registry order (estimated rows start after the hidden prompt). */
  tools: { name: string; cumulative: number; marginal: number }[];
  /** All tool schemas together: the last cumulative count minus the baseline (the hidden prompt included). */
  total: number;
  /** Each schema, split into description and input_schema: exact by subtraction with a key, else estimated. */
  parts: { name: string; description: Size; input_schema: Size; properties: ({ name: string } & Size)[] }[];
  /** count_tokens requests made (0 offline). */
  requests: number;
}
export interface Size {
  chars: number;
  tokens: number;
}

/**
 * Counts the baseline and each cumulative tool set (1 + tools requests); with
 * a key, one more request per tool, the same set with that tool's description
 * left out, splits its cost into description and the rest by subtraction.
 */
export async function measureSchemaCosts(
  count: Counter,
  mode: SchemaCosts["mode"],
  model: string,
  only?: string,
): Promise<SchemaCosts> {
  const schemas = toolSchemas(scoutTools).filter((tool) => !only || tool.name === only);
  let requests = 0;
  const counted = async (tools: ToolSchema[]) => {
    requests++;
    const request: CountRequest = {
      model,
      system: SYSTEM_PROMPT,
      messages: [{ role: "user", content: FIXED_QUESTION }],
      ...(tools.length ? { tools } : {}),
    };
    return count(request);
  };
  const hiddenPrompt = toolPromptTokens(model);
  const baseline = await counted([]);
  // Offline, the local count cannot see the hidden prompt: its published size is added as a row of its own.
  const offset = mode === "estimate" ? (hiddenPrompt ?? 0) : 0;
  let previous = baseline + offset;
  const tools: SchemaCosts["tools"] = [];
  const parts: SchemaCosts["parts"] = [];
  // Estimated, each part counts as the model's tokenizer would (the published ratio), as the rows do.
  const ratio = mode === "estimate" ? tokenizerRatio(model) : 1;
  const size = (text: string, tokens = Math.round(estimateTokens(text) * ratio)): Size => ({
    chars: text.length,
    tokens,
  });
  for (let i = 0; i < schemas.length; i++) {
    const tool = schemas[i];
    const cumulative = (await counted(schemas.slice(0, i + 1))) + offset;
    tools.push({ name: tool.name, cumulative, marginal: cumulative - previous });
    const inputSchema = JSON.stringify(tool.input_schema);
    let description = size(tool.description);
    let rest = size(inputSchema);
    if (mode === "exact") {
      const { description: _, ...bare } = tool;
      const withoutDescription = await counted([...schemas.slice(0, i), bare as ToolSchema]);
      description = size(tool.description, cumulative - withoutDescription);
      rest = size(inputSchema, cumulative - previous - description.tokens);
    }
    parts.push({
      name: tool.name,
      description,
      input_schema: rest,
      properties: Object.entries(tool.input_schema.properties).map(([name, property]) => ({
        name,
        ...size(JSON.stringify(property)),
      })),
    });
    previous = cumulative;
  }
  return {
    mode,
    note: mode === "exact" ? EXACT_NOTE : ESTIMATE_NOTE + tokenizerNote(model),
    model,
    question: FIXED_QUESTION,
    baseline,
    ...(hiddenPrompt === undefined ? {} : { hiddenPrompt }),
    tools,
    total: previous - baseline,
    parts,
    requests: mode === "exact" ? requests : 0,
  };
}

/** The table `scout tokens` prints; the same numbers as --json. */
export function formatSchemaCosts(costs: SchemaCosts): string {
  const exact = costs.mode === "exact";
  const approx = exact ? "" : "~";
  const row = (label: string, cumulative: string, marginal: string) =>
    `${label.padEnd(26)}${cumulative.padStart(12)}${marginal.padStart(12)}`.trimEnd();
  const hidden = costs.hiddenPrompt;
  const model = escapePath(costs.model);
  const lines = [
    `Tool schema token costs (${costs.mode}) · model ${model}`,
    `  ${costs.note}`,
    `  every row: the system prompt + one user message ("${costs.question}")${exact ? `; ${costs.requests} count_tokens requests` : ""}`,
    "",
    row("", "cumulative", "marginal"),
    row("baseline (no tools)", approx + formatCount(costs.baseline), ""),
  ];
  if (!exact)
    lines.push(
      row(
        "+ hidden tool-use prompt",
        hidden === undefined ? "unknown" : `~${formatCount(costs.baseline + hidden)}`,
        hidden === undefined ? "" : `+${formatCount(hidden)}`,
      ),
    );
  for (const [i, tool] of costs.tools.entries())
    lines.push(
      row(
        `+ ${tool.name}`,
        approx + formatCount(tool.cumulative),
        `+${formatCount(tool.marginal)}${i === 0 && exact ? " *" : ""}`,
      ),
    );
  lines.push(row("all tools, per request", "", `${approx}${formatCount(costs.total)}`));
  const price = priceOf(costs.model);
  if (price) {
    const perRequest = dollars({ input_tokens: costs.total, output_tokens: 0 }, price);
    const cachedPer1000 = dollars(
      { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: costs.total * 1000 },
      price,
    );
    lines.push(
      `  in dollars (${model} input price, ${PRICES_DATE}): ${approx}${formatDollars(perRequest)} per request, ` +
        `${approx}${formatDollars(perRequest * 1000)} per 1,000 requests; read from the prompt cache, ${approx}${formatDollars(cachedPer1000)} per 1,000`,
    );
  } else lines.push(`  in dollars: price unknown for ${model}`);
  lines.push("");
  const published =
    hidden === undefined
      ? `no published size for ${model}, so it is not counted`
      : `${formatCount(hidden)} tokens for ${model}, as published (${MODEL_SIZES_DATE}) at ${TOOL_PROMPT_SOURCE}`;
  lines.push(
    exact
      ? "* the first tool's row also carries the hidden tool-use system prompt the API adds when any tool is present:"
      : "The hidden tool-use prompt the API adds whenever tools are sent:",
    `  ${published}.`,
    "",
  );
  lines.push(
    exact
      ? "Each schema (exact, by subtraction: the same request without that tool's description): description vs the rest (name, input_schema, framing)"
      : "Each schema alone (local estimate): description vs input_schema",
    `${"".padEnd(14)}${"description".padStart(22)}${"input_schema".padStart(22)}`,
  );
  const sizeText = (s: Size) => `${formatCount(s.chars)} chars ${approx}${formatCount(s.tokens)} tok`;
  for (const [i, part] of costs.parts.entries())
    lines.push(
      `${part.name.padEnd(14)}${sizeText(part.description).padStart(22)}${sizeText(part.input_schema).padStart(22)}${i === 0 && exact ? " *" : ""}`,
    );
  if (costs.parts.length === 1) {
    lines.push("", `${costs.parts[0].name}'s input_schema, property by property (local estimate):`);
    for (const property of costs.parts[0].properties)
      lines.push(
        `  ${property.name.padEnd(12)}${`${formatCount(property.chars)} chars ~${formatCount(property.tokens)} tok`.padStart(22)}`,
      );
  }
  return lines.join("\n");
}
