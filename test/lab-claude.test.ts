// scout lab with Claude: the real CLI and the real SDK against our Messages-API server on 127.0.0.1, for exact
// schema counts, each variant's own tools in its requests, and waiting out a rate limit.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LabReport } from "../src/lab/report.js";
import { makeTools } from "../src/lab/designs.js";
import { toolSchemas } from "../src/core/tool.js";
import { DEFAULT_DESIGN } from "../src/lab/designs.js";
import { type ApiServer, apiError, count, reply, startApiServer, text } from "../lessons/cases/api-server.js";
import { makeTree, runCli } from "./helpers.js";

let api: ApiServer;
let setFile: string;
beforeEach(async () => {
  api = await startApiServer();
  const root = makeTree({ "a.py": "def alpha():\n    pass\n" });
  setFile = path.join(root, "set.json");
  fs.writeFileSync(
    setFile,
    JSON.stringify({
      questions: [{ id: "alpha", question: "Where is alpha defined?", expect: { locations: ["a.py:/def alpha/"] } }],
    }),
  );
});
afterEach(() => api.close());

const lab = (args: string[]) =>
  runCli(["lab", setFile, "--model", "claude-test", ...args], {
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
    timeoutMs: 60_000,
  });

describe("scout lab with Claude", { timeout: 60_000 }, () => {
  it("--runs 2 --concurrency 1: mean, standard deviation and the paired difference with its 95% interval", async () => {
    api.scriptCount(count(500), count(1_200), count(1_200));
    const answer = (input: number) =>
      reply([text("alpha is defined at a.py:1.")], "end_turn", { input_tokens: input, output_tokens: 10 });
    // One worker: baseline run 1, run 2, then cap=50 run 1, run 2.
    api.script(answer(100), answer(300), answer(150), answer(330));
    const run = await lab(["--variant", "cap=50", "--runs", "2", "--concurrency", "1", "--json"]);
    expect(run.code).toBe(0);
    const [baseline, capped] = (JSON.parse(run.stdout) as LabReport).variants;
    expect(baseline.stats!.inputTokens).toEqual({ mean: 200, sd: 141.42 });
    // Differences 50 and 30: mean 40, sd 14.14; t(1) = 12.706, so 40 ± 12.706 × 14.142 / √2 = 40 ± 127.06.
    expect(capped.paired!.inputTokens).toEqual({ mean: 40, low: -87.06, high: 167.06 });
    expect(capped.paired!.right).toEqual({ mean: 0, low: 0, high: 0 });
    const bad = await lab(["--concurrency", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--concurrency must be a whole number from 1 to 16");
  });

  it("--differs keeps a question whose verdict differs between variants", async () => {
    api.scriptCount(count(500), count(1_200), count(1_200));
    api.script(reply([text("alpha is defined at a.py:1.")]), reply([text("I could not find it.")]));
    const run = await lab(["--variant", "cap=50", "--concurrency", "1", "--differs"]);
    expect(run.stdout).toContain("only the 1 whose verdict differs between variants");
    expect(run.stdout).toMatch(/^alpha: Where is alpha defined\?/m);
  });

  it("prices each variant in dollars from the usage the API reported, cache reads and writes included", async () => {
    api.scriptCount(count(500), count(1_200));
    const usage = {
      input_tokens: 100,
      output_tokens: 50,
      cache_read_input_tokens: 3000,
      cache_creation_input_tokens: 1000,
    };
    api.script(reply([text("alpha is defined at a.py:1.")], "end_turn", usage));
    const run = await runCli(["lab", setFile, "--model", "claude-haiku-4-5", "--json"], {
      env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const report: LabReport = JSON.parse(run.stdout);
    // claude-haiku-4-5: $1 in, $1.25 write, $0.10 read, $5 out. As run: 100 + 1,250 + 300 + 250 = 1,900 µ$;
    // without caching, all 4,100 input tokens plain: 4,100 + 250 = 4,350 µ$.
    expect(report.priced.model).toBe("claude-haiku-4-5");
    expect(report.variants[0].dollars).toEqual({ uncached: 0.00435, cached: 0.0019 });
    api.scriptCount(count(500), count(1_200));
    api.script(reply([text("alpha is defined at a.py:1.")], "end_turn", usage));
    const table = (
      await runCli(["lab", setFile, "--model", "claude-imaginary-9"], {
        env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
        timeoutMs: 60_000,
      })
    ).stdout;
    expect(table).toContain("price unknown for claude-imaginary-9");
  });

  it("model=NAME runs the variant on that model: its requests, its exact schema counts, its prices", async () => {
    // Without tools, then with them: the baseline's model, then the variant's.
    api.scriptCount(count(500), count(1_200), count(520), count(1_500));
    const usage = {
      input_tokens: 100,
      output_tokens: 50,
      cache_read_input_tokens: 3000,
      cache_creation_input_tokens: 1000,
    };
    const answer = reply([text("alpha is defined at a.py:1.")], "end_turn", usage);
    api.script(answer, answer);
    const run = await runCli(
      [
        "lab",
        setFile,
        "--model",
        "claude-haiku-4-5",
        "--variant",
        "model=claude-opus-4-8",
        "--concurrency",
        "1",
        "--json",
      ],
      {
        env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
        timeoutMs: 60_000,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const report: LabReport = JSON.parse(run.stdout);
    const models = (counting: boolean) =>
      api.requests.filter((r) => r.path.endsWith("/count_tokens") === counting).map((r) => r.body.model);
    expect(models(true)).toEqual(["claude-haiku-4-5", "claude-haiku-4-5", "claude-opus-4-8", "claude-opus-4-8"]);
    expect(models(false)).toEqual(["claude-haiku-4-5", "claude-opus-4-8"]);
    expect(report.variants.map((v) => v.schemaTokens)).toEqual([700, 980]);
    expect(report.variants[1].model).toBe("claude-opus-4-8");
    // The same usage, each at its model's prices. Haiku 4.5 ($1 in, $1.25 write, $0.10 read, $5 out):
    // 1,900 µ$ as run, 4,350 µ$ plain. Opus 4.8 ($5, $6.25, $0.50, $25): 500 + 6,250 + 1,500 + 1,250 = 9,500 µ$
    // as run; plain, 4,100 × 5 + 1,250 = 21,750 µ$. Both 5 times the baseline: +400%.
    expect(report.variants[0].dollars).toEqual({ uncached: 0.00435, cached: 0.0019 });
    expect(report.variants[1].dollars).toEqual({ uncached: 0.02175, cached: 0.0095 });
    expect(report.variants[1].dollarsChange).toEqual({ uncached: 400, cached: 400 });
  });

  it("counts usage that is not a count of tokens as 0, and says so once", async () => {
    api.scriptCount(count(500), count(1_200));
    const usage = { input_tokens: "100", output_tokens: 20 } as unknown as {
      input_tokens: number;
      output_tokens: number;
    };
    const answer = reply([text("alpha is defined at a.py:1.")], "end_turn", usage);
    api.script(answer, answer);
    const run = await lab(["--json", "--runs", "2"]);
    expect(run.code).toBe(0);
    expect(run.stderr.match(/not a count of tokens/g)).toHaveLength(1);
    const report: LabReport = JSON.parse(run.stdout);
    expect(report.variants[0].questions[0].runs[0]).toMatchObject({ right: true, inputTokens: 0 });
  });

  it("counts the schemas exactly, and sends each variant's own tools", async () => {
    api.scriptCount(count(500), count(1_200), count(900));
    api.script(reply([text("alpha is defined at a.py:1.")]), reply([text("alpha is defined at a.py:1.")]));
    const run = await lab(["--variant", "descriptions=concise", "--json"]);
    expect(run.stderr).not.toMatch(/scout lab:/);
    expect(run.code).toBe(0);
    const report: LabReport = JSON.parse(run.stdout);
    expect(report).toMatchObject({ model: "claude-test", offline: false, schemaCount: { mode: "exact" } });
    expect(report.variants.map((v) => v.schemaTokens)).toEqual([700, 400]);
    expect(report.variants[1].change!.schemaTokens).toBe(-300);
    for (const variant of report.variants)
      expect(variant.questions[0].runs[0]).toMatchObject({ right: true, inputTokens: 100, path: ["answer"] });

    const counts = api.requests.filter((r) => r.path === "/v1/messages/count_tokens").map((r) => r.body);
    expect(counts[0].tools).toBeUndefined();
    expect(counts[2].tools).toEqual(toolSchemas(makeTools({ ...DEFAULT_DESIGN, descriptions: "concise" })));
    const sent = api.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body);
    expect(sent.map((body) => body.model)).toEqual(["claude-test", "claude-test"]);
    const descriptions = sent.map((body) => body.tools[0].description).sort();
    expect(descriptions).toEqual(
      [
        toolSchemas(makeTools())[0].description,
        toolSchemas(makeTools({ ...DEFAULT_DESIGN, descriptions: "concise" }))[0].description,
      ].sort(),
    );
  });

  it("--runs 2 asks twice and shows the spread when the answers differ", async () => {
    api.scriptCount(count(500), count(1_200));
    api.script(
      {
        kind: "message",
        content: [text("alpha is defined at a.py:1.")],
        stop_reason: "end_turn",
        usage: { input_tokens: 100, output_tokens: 20 },
      },
      {
        kind: "message",
        content: [text("I could not find it.")],
        stop_reason: "end_turn",
        usage: { input_tokens: 120, output_tokens: 8 },
      },
    );
    const run = await lab(["--runs", "2", "--json"]);
    expect(run.code).toBe(0);
    const [baseline] = (JSON.parse(run.stdout) as LabReport).variants;
    expect(baseline.questions[0].rightRuns).toBe(1);
    expect(baseline.totals).toMatchObject({ right: 0.5, inputTokens: 110, outputTokens: 14 });
    expect(baseline.spread).toMatchObject({ right: [0, 1], inputTokens: [100, 120], outputTokens: [8, 20] });
    expect(api.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(2);
  });

  it("waits out a rate limit that outlasts the SDK's own retries, and still gets the answer", async () => {
    api.scriptCount(count(500), count(1_200));
    const limited = (retryAfter?: number) =>
      apiError(429, "rate_limit_error", "Number of requests has exceeded your rate limit", retryAfter);
    // The SDK's own two retries wait what retry-after asks (0 s); the third 429 asks nothing: the lab waits its own 2 s.
    api.script(limited(0), limited(0), limited(), reply([text("alpha is defined at a.py:1.")]));
    const run = await lab([]);
    expect(run.stderr).toContain("lab: rate limited; waiting 2 s");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^baseline\s+1\/1 /m);
    expect(api.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(4);
  });

  it("a call that fails for good: the run counts wrong, the table says why, exit 1", async () => {
    api.scriptCount(count(500), count(1_200));
    api.script(apiError(400, "invalid_request_error", "prompt is too long"));
    const run = await lab([]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^baseline\s+0\/1 /m);
    expect(run.stdout).toContain("invalid request (400): prompt is too long");
    expect(run.stdout).toContain("1 run failed with an error (counted wrong)");
  });
});
