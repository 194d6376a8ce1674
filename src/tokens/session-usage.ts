// What this session has used in tokens and dollars: a tool's results stay in the history, so they cost on
// every later call; the step log, /tokens and the exit line show it.
import type { MessageParam, ModelRequest, StepEvent, Usage } from "../core/loop.js";
import { describeUsage, type Pricing, sumUsage } from "./cost.js";
import { estimateTokens } from "./count.js";
import { formatCount } from "../guards/format.js";
import { dollars, formatDollars, priceOf } from "./prices.js";
import { escapePath } from "../guards/escape.js";

/** A turn's usage, priced at the model that answered it (after /model, earlier turns keep their prices). */
export interface PricedUsage {
  usage: Usage;
  pricing?: Pricing;
}

/** What this session has cost so far: per turn, per tool's results, and the last request sent (for /request). */
export class SessionUsage {
  turns: PricedUsage[] = [];
  tools = new Map<string, { calls: number; tokens: number }>();
  /** The last request the loop sent to the model, as the model got it. */
  lastRequest?: ModelRequest;
  /** The messages of every request this session sent, for /context (where the tokens went). */
  requests: MessageParam[][] = [];

  /** Feed it every step event, with the prices of the model that is answering. */
  record = (event: StepEvent, pricing?: Pricing): void => {
    if (event.type === "model_request") {
      this.lastRequest = event.request;
      this.requests.push([...event.request.messages]);
    }
    if (event.type === "turn_end") this.turns.push({ usage: { ...event.result.usage }, pricing });
    if (event.type !== "tool_result") return;
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
    for (const [i, turn] of this.turns.entries())
      lines.push(`  turn ${i + 1}: ${describeUsage(turn.usage, turn.pricing)}`);
    if (this.turns.length > 1) lines.push(`  in all: ${describeTurns(this.turns)}`);
    for (const [name, tool] of this.tools) {
      lines.push(
        `  ${name.padEnd(11)} ${tool.calls} call${tool.calls === 1 ? "" : "s"} · results ~${formatCount(tool.tokens)} tokens (~${formatCount(Math.round(tool.tokens / tool.calls))} per call)`,
      );
    }
    return lines.join("\n");
  }

  /** The exit line ("session: 2 turns", "7,833 input tokens", ..., "$0.0096", joined by middle dots), or "" when no turn ran. */
  exitLine(): string {
    const n = this.turns.length;
    return n === 0 ? "" : `session: ${n} turn${n === 1 ? "" : "s"} · ${describeTurns(this.turns)}`;
  }
}

/** Turns added up: one model's as describeUsage says it; several models' tokens, then their dollars summed. */
function describeTurns(turns: PricedUsage[]): string {
  const total = sumUsage(turns.map((turn) => turn.usage));
  const models = new Set(turns.map((turn) => turn.pricing?.model));
  if (models.size === 1) return describeUsage(total, turns[0].pricing);
  let cost = 0;
  const unknown = new Set<string>();
  for (const { usage, pricing } of turns) {
    const price = pricing && priceOf(pricing.model);
    if (price) cost += dollars(usage, price);
    else if (pricing) unknown.add(escapePath(pricing.model));
  }
  const estimate = turns.some((turn) => turn.pricing?.estimate) ? "~" : "";
  const priced = `${estimate}${formatDollars(cost)} (${models.size} models, each turn at its own prices)`;
  const missing = unknown.size ? ` + turns with no known price (${[...unknown].join(", ")})` : "";
  return `${describeUsage(total)} · ${priced}${missing}`;
}
