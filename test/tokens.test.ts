// Token costs, offline: the estimate mode is labelled, stable, and its arithmetic adds up.
import { describe, expect, it } from "vitest";
import { SessionUsage, estimateCounter, measureSchemaCosts, type Counter } from "../src/tokens.js";
import { tools } from "../src/tools/index.js";
import { runCli } from "./helpers.js";

const offlineEnv = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined };

describe("measureSchemaCosts", () => {
  it("adds the tools one at a time, in registry order, with one count per row", async () => {
    const seen: number[] = [];
    // A fake counter with known sizes: 100 for the baseline, 10 × (position + 1) per tool.
    const counter: Counter = async ({ tools: sent = [] }) => {
      seen.push(sent.length);
      return 100 + sent.reduce((sum, _tool, i) => sum + 10 * (i + 1), 0);
    };
    const costs = await measureSchemaCosts(counter, "exact", "m");
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(costs.baseline).toBe(100);
    expect(costs.tools).toEqual([
      { name: "read_file", cumulative: 110, marginal: 10 },
      { name: "list_files", cumulative: 130, marginal: 20 },
      { name: "glob", cumulative: 160, marginal: 30 },
      { name: "grep", cumulative: 200, marginal: 40 },
    ]);
    expect(costs.total).toBe(100);
  });

  it("splits each schema into description and input_schema, in characters and tokens", async () => {
    const costs = await measureSchemaCosts(estimateCounter, "estimate", "m", "grep");
    const grep = tools.find((tool) => tool.name === "grep")!;
    expect(costs.parts).toHaveLength(1);
    expect(costs.parts[0].description.chars).toBe(grep.description.length);
    expect(costs.parts[0].input_schema.chars).toBe(JSON.stringify(grep.input_schema).length);
    expect(costs.parts[0].properties.map((p) => p.name)).toEqual(["pattern", "path", "include", "context"]);
  });
});

describe("scout tokens (offline)", () => {
  it("prints a table labelled as an estimate, the same on every run", async () => {
    const first = await runCli(["tokens"], { env: offlineEnv });
    const second = await runCli(["tokens"], { env: offlineEnv });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Tool schema token costs (estimate)");
    expect(first.stdout).toContain("approximate for current ones");
    expect(first.stdout).not.toContain("(exact)");
    expect(second.stdout).toBe(first.stdout);
  });

  it("--json carries the same numbers as the table", async () => {
    const table = (await runCli(["tokens"], { env: offlineEnv })).stdout;
    const json = JSON.parse((await runCli(["tokens", "--json"], { env: offlineEnv })).stdout);
    expect(table).toMatch(new RegExp(`baseline \\(no tools\\)\\s+~${json.baseline}\\n`));
    for (const tool of json.tools) {
      expect(table).toMatch(new RegExp(`\\+ ${tool.name}\\s+~${tool.cumulative.toLocaleString("en-US")}\\s+\\+${tool.marginal}\\n`));
    }
    expect(json.total).toBe(json.tools.at(-1).cumulative - json.baseline);
    expect(table).toMatch(new RegExp(`all tool schemas\\s+~${json.total.toLocaleString("en-US")}\\n`));
  });

  it("refuses an unknown --tool with a usage error", async () => {
    const run = await runCli(["tokens", "--tool", "rm"], { env: offlineEnv });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown tool "rm"');
  });
});

describe("SessionUsage", () => {
  it("tallies turns and, per tool, calls and estimated result tokens", () => {
    const usage = new SessionUsage();
    const result = { content: "a.ts:1:hello", isError: false };
    usage.record({ type: "tool", step: 1, name: "grep", input: {}, result, ms: 1 });
    usage.record({ type: "tool", step: 2, name: "grep", input: {}, result, ms: 1 });
    usage.record({ type: "turn", result: { text: "", stopReason: "end_turn", modelCalls: 2, toolCalls: ["grep", "grep"], usage: { input_tokens: 1200, output_tokens: 30 } } });
    expect(usage.tools.get("grep")?.calls).toBe(2);
    expect(usage.format()).toMatch(/turn 1: 1,200 input · 30 output tokens\n {2}grep {8}2 calls · results ~\d+ tokens/);
  });
});
