// What tools cost in tokens. A tool's schema is sent with every request, so
// it costs on every model call; its results stay in the history, so they
// cost on every later call. `scout tokens` measures the first, the step log
// and /tokens the second.
//
// Two ways to count: exact, with the API's free count_tokens endpoint (whose
// numbers are themselves the API's estimate), or an offline estimate with
// @anthropic-ai/tokenizer, the tokenizer of older Claude models, which is
// only approximate for current ones. Every figure says which it is.
import { createRequire } from "node:module";
import type { StepEvent } from "./agent.js";
import { exactCounter } from "./models/claude.js";
import { SYSTEM_PROMPT } from "./prompt.js";
import { toolSchemas } from "./tools/index.js";

/** The one user message every row of the table is counted with. */
export const FIXED_QUESTION = "Where is main defined?";

interface Encoder {
  encode(text: string, allowedSpecial: "all"): Uint32Array;
}
let encoder: Encoder | undefined;

/**
 * Estimated tokens of a text, counted as the package's countTokens does, but
 * with one encoder kept for the whole run: building it costs ~100 ms, and
 * countTokens builds a new one on every call. It loads on first use, so
 * start-up stays fast.
 */
export function estimateTokens(text: string): number {
  encoder ??= (createRequire(import.meta.url)("@anthropic-ai/tokenizer") as { getTokenizer(): Encoder }).getTokenizer();
  return encoder.encode(text.normalize("NFKC"), "all").length;
}

type ToolSchema = ReturnType<typeof toolSchemas>[number];
export interface CountRequest {
  model: string;
  system: string;
  messages: { role: "user"; content: string }[];
  tools?: ToolSchema[];
}
/** Counts the input tokens of one request, exactly (API) or by estimate. */
export type Counter = (request: CountRequest) => Promise<number>;

export const EXACT_NOTE = "exact: the API's count_tokens endpoint (free; its counts are the API's own estimate)";
export const ESTIMATE_NOTE =
  "estimate: local @anthropic-ai/tokenizer, the tokenizer of older Claude models, approximate for current ones; the API's hidden tool-use prompt is not counted";

/** The offline counter: the texts the request carries, tokenized locally. */
export const estimateCounter: Counter = async ({ system, messages, tools = [] }) =>
  estimateTokens(system) +
  messages.reduce((sum, m) => sum + estimateTokens(m.content), 0) +
  tools.reduce((sum, t) => sum + estimateTokens(JSON.stringify(t)), 0);

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

/** The schema costs for `scout tokens` and /tokens: exact through the API, or estimated offline. */
export function schemaCosts(exact: boolean, model: string, only?: string): Promise<SchemaCosts> {
  return measureSchemaCosts(exact ? exactCounter() : estimateCounter, exact ? "exact" : "estimate", model, only);
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

/** What this session has cost so far: per turn, and per tool's results. */
export class SessionUsage {
  turns: { input_tokens: number; output_tokens: number }[] = [];
  tools = new Map<string, { calls: number; tokens: number }>();

  /** Feed it every step event. */
  record = (event: StepEvent): void => {
    if (event.type === "turn") this.turns.push({ ...event.result.usage });
    if (event.type !== "tool") return;
    const tool = this.tools.get(event.name) ?? { calls: 0, tokens: 0 };
    tool.calls++;
    tool.tokens += estimateTokens(event.result.content);
    this.tools.set(event.name, tool);
  };

  /** `offline`: the offline model estimates its own usage; Claude's comes from the API. */
  format(offline: boolean): string {
    if (this.turns.length === 0) return "This session: no turns yet.";
    const source = offline ? "the offline model's own estimates" : "as the API reported it";
    const lines = [`This session (model usage: ${source}; tool results: estimated locally):`];
    for (const [i, turn] of this.turns.entries()) {
      lines.push(
        `  turn ${i + 1}: ${formatCount(turn.input_tokens)} input · ${formatCount(turn.output_tokens)} output tokens`,
      );
    }
    for (const [name, tool] of this.tools) {
      lines.push(
        `  ${name.padEnd(11)} ${tool.calls} call${tool.calls === 1 ? "" : "s"} · results ~${formatCount(tool.tokens)} tokens (~${formatCount(Math.round(tool.tokens / tool.calls))} per call)`,
      );
    }
    return lines.join("\n");
  }
}

/** 4812 → "4,812", the same on every machine whatever its locale. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}
