// What this session has used in tokens: a tool's results stay in the history, so they cost on
// every later call; the step log and /tokens show it.
import type { StepEvent } from "../agent.js";
import { estimateTokens, formatCount } from "./count.js";

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
