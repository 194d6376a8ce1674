// scout tokens --trace: a trace read back, its cost on two models with and without caching, checked against a hand computation.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { estimateTokens } from "../src/tokens/count.js";
import { formatCount } from "../src/guards/format.js";
import { formatDollars } from "../src/tokens/prices.js";
import { parseTrace } from "../src/tokens/trace-read.js";
import { simulateCaching } from "../src/tokens/what-if.js";
import { count, startApiServer, type ApiServer } from "../lessons/cases/api-server.js";
import { makeTree, runCli } from "./helpers.js";

const dir = makeTree({}, "scout-whatif-");

const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 0, 0, second)).toISOString();
/** A trace as --trace writes it: a question, then per call its model record, tool records, and the turn. */
const RECORDS = [
  { type: "question", time: at(0), text: "where is f?" },
  {
    type: "model",
    time: at(1),
    step: 1,
    model: "claude-haiku-4-5-20251001",
    stopReason: "tool_use",
    usage: { input_tokens: 2000, output_tokens: 100 },
    request: { messages: 1, tools: ["read_file", "list_files", "glob", "grep"] },
    content: [{ type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "def f" } }],
  },
  {
    type: "tool",
    time: at(2),
    step: 1,
    name: "grep",
    input: { pattern: "def f" },
    result: { content: "a.py:1:def f():", is_error: false },
  },
  {
    type: "model",
    time: at(3),
    step: 2,
    model: "claude-haiku-4-5-20251001",
    stopReason: "tool_use",
    usage: { input_tokens: 4000, output_tokens: 100 },
    request: { messages: 3, tools: [] },
    content: [{ type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "a.py" } }],
  },
  {
    type: "tool",
    time: at(4),
    step: 2,
    name: "read_file",
    input: { path: "a.py" },
    result: { content: "1\tdef f():", is_error: false },
  },
  {
    type: "model",
    time: at(5),
    step: 3,
    model: "claude-haiku-4-5-20251001",
    stopReason: "end_turn",
    usage: { input_tokens: 6000, output_tokens: 100 },
    request: { messages: 5, tools: [] },
    content: [{ type: "text", text: "f is at a.py:1." }],
  },
  { type: "turn", time: at(6), result: { stopReason: "end_turn", modelCalls: 3, toolCalls: ["grep", "read_file"] } },
];
function writeTrace(name: string, records: object[], extra = ""): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n") + extra);
  return file;
}
const offline = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, SCOUT_MODEL: undefined };
const $ = (micro: number) => formatDollars(micro / 1_000_000);

describe("simulateCaching", () => {
  it("reads what the call before wrote, writes the rest, and skips prefixes under the minimum", () => {
    const calls = [2000, 4000, 6000].map((input, i) => ({ input, output: 100, messages: 1 + 2 * i }));
    expect(
      simulateCaching(calls, 1400, 1024).map((u) => [
        u.cache_read_input_tokens,
        u.cache_creation_input_tokens,
        u.input_tokens,
      ]),
    ).toEqual([
      [0, 2000, 0],
      [2000, 2000, 0],
      [4000, 2000, 0],
    ]);
    expect(
      simulateCaching(calls, 1400, 4096).map((u) => [u.cache_read_input_tokens, u.cache_creation_input_tokens]),
    ).toEqual([
      [0, 0],
      [0, 0],
      [0, 6000],
    ]);
  });

  it("forgets the conversation after /reset (fewer messages) and entries unused for 5 minutes", () => {
    const reset = simulateCaching(
      [
        { input: 3000, output: 0, messages: 3 },
        { input: 3500, output: 0, messages: 1 },
      ],
      1400,
      1024,
    );
    expect(reset[1].cache_read_input_tokens).toBe(1400); // only the tools and system prompt are shared
    const late = simulateCaching(
      [
        { input: 3000, output: 0, messages: 1, time: 0 },
        { input: 5000, output: 0, messages: 3, time: 6 * 60_000 },
      ],
      1400,
      1024,
    );
    expect(late[1].cache_read_input_tokens).toBe(0);
    expect(late[1].cache_creation_input_tokens).toBe(5000);
  });
});

describe("parseTrace", () => {
  it("rebuilds the messages each call sent, and skips what it does not know", () => {
    const trace = parseTrace(
      `${RECORDS.map((r) => JSON.stringify(r)).join("\n")}\nnot json\n{"type":"future_record"}\n`,
    );
    expect(trace.calls).toHaveLength(3);
    expect(trace.skipped).toBe(2);
    expect(trace.calls[2].sent).toEqual([
      { role: "user", content: "where is f?" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "def f" } }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.py:1:def f():", is_error: false }],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "a.py" } }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_2", content: "1\tdef f():", is_error: false }],
      },
    ]);
  });

  it("drops a failed turn from the conversation, as the loop does, but keeps one the step cap stopped", () => {
    const [question, call1, tool1] = RECORDS;
    const failed = [question, call1, { type: "failure", kind: "api_error", message: "overloaded" }];
    const capped = [
      question,
      call1,
      tool1,
      { type: "turn", result: { stopReason: "step_cap", text: "(Stopped after 1 model call.)" } },
      { type: "failure", kind: "step_cap", message: "(Stopped after 1 model call.)" },
    ];
    // After a whole answered turn (6 messages), the failed one, then a question sent with 7 messages.
    const next = [
      { type: "question", text: "and g?" },
      { ...call1, request: { messages: 7, tools: [] } },
    ];
    const lines = [...RECORDS, ...failed, ...next].map((r) => JSON.stringify(r)).join("\n");
    const afterFailure = parseTrace(lines).calls.at(-1)?.sent;
    expect(afterFailure?.[0]).toEqual({ role: "user", content: "where is f?" });
    expect(afterFailure?.[6]).toEqual({ role: "user", content: "and g?" });
    expect(JSON.stringify(afterFailure).match(/where is f\?/g)).toHaveLength(1); // the failed turn's question is gone
    const cappedNext = [
      { type: "question", text: "and g?" },
      { ...call1, request: { messages: 5, tools: [] } },
    ];
    const sent = parseTrace([...capped, ...cappedNext].map((r) => JSON.stringify(r)).join("\n")).calls[1].sent;
    expect(sent?.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(sent?.[3]).toEqual({ role: "assistant", content: "(Stopped after 1 model call.)" });
  });

  it("reads an older trace (no questions, no model content) for its usage only", () => {
    const old = RECORDS.filter((r) => r.type !== "question").map(({ content: _, ...r }: Record<string, unknown>) => r);
    const trace = parseTrace(old.map((r) => JSON.stringify(r)).join("\n"));
    expect(trace.calls.map((c) => c.usage.input_tokens)).toEqual([2000, 4000, 6000]);
    expect(trace.calls.every((c) => c.sent === undefined)).toBe(true);
  });
});

describe("scout tokens --trace", { timeout: 60_000 }, () => {
  it("matches a hand computation: the model it ran on and another, each without and with caching", async () => {
    const file = writeTrace("run.jsonl", RECORDS);
    const run = await runCli(["tokens", "--trace", file, "--model", "claude-sonnet-4-5"], { env: offline });
    expect(run.code).toBe(0);
    // claude-haiku-4-5 ($1 in, $1.25 write, $0.10 read, $5 out): 12,000 input + 300 output without caching;
    // with it, only the third request (6,000) reaches the 4,096 minimum: it is written, the first two go plain.
    const haiku = [12_000 * 1 + 300 * 5, (2000 + 4000) * 1 + 6000 * 1.25 + 300 * 5];
    // claude-sonnet-4-5 ($3, $3.75, $0.30, $15), same hidden prompt (496): the same 12,000; minimum 1,024, so
    // every call writes 2,000 new tokens and the 2nd and 3rd read 2,000 and 4,000.
    const sonnet = [12_000 * 3 + 300 * 15, 6000 * 3.75 + 6000 * 0.3 + 300 * 15];
    expect(run.stdout).toMatch(new RegExp(`claude-haiku-4-5 +12,000 +300 +\\${$(haiku[0])} +\\${$(haiku[1])}\\n`));
    expect(run.stdout).toContain("as run (usage the API reported)");
    expect(run.stdout).toContain(`with caching: cache: 0 read, 6,000 written, cost ${$(haiku[1] - haiku[0])} more`);
    expect(run.stdout).toMatch(new RegExp(`claude-sonnet-4-5 +12,000 +300 +~\\${$(sonnet[0])} +~\\${$(sonnet[1])}\\n`));
    expect(run.stdout).toContain(`cache: 6,000 read, 6,000 written, saved ~${$(sonnet[0] - sonnet[1])}`);
  });

  it("says the price is unknown for a model missing from the table, and a missing file plainly", async () => {
    const file = writeTrace("unknown.jsonl", RECORDS);
    const run = await runCli(["tokens", "--trace", file, "--model", "claude-imaginary-9"], { env: offline });
    expect(run.stdout).toMatch(/claude-imaginary-9 +12,000 +300 +price unknown +price unknown/);
    const missing = await runCli(["tokens", "--trace", path.join(dir, "nope.jsonl")], { env: offline });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file");
  });

  it("splits where the input tokens went: system prompt, schemas, hidden prompt, history text, each tool's re-sent results", async () => {
    const run = await runCli(["tokens", "--trace", writeTrace("split.jsonl", RECORDS)], { env: offline });
    const grep = estimateTokens("a.py:1:def f():");
    const readFile = estimateTokens("1\tdef f():");
    // grep's result is sent again with calls 2 and 3; read_file's with call 3.
    expect(run.stdout).toMatch(new RegExp(`^  grep results +~${2 * grep} `, "m"));
    expect(run.stdout).toMatch(new RegExp(`^  read_file results +~${readFile} `, "m"));
    expect(run.stdout).toMatch(/^ {2}hidden prompt +~1,488 /m); // 3 calls × haiku-4-5's 496
    const parts = [...run.stdout.matchAll(/^ {2}[a-z_ ]+? +~([\d,]+) +[\d.]+%/gm)].map((m) =>
      Number(m[1].replace(/,/g, "")),
    );
    const all = Number(/^ {2}in all +~([\d,]+)/m.exec(run.stdout)![1].replace(/,/g, ""));
    expect(parts.reduce((a, b) => a + b, 0)).toBe(all);
    expect(run.stdout).toMatch(
      /^ +3 {2}system prompt ~\d+ · tool schemas ~\d+ · hidden prompt ~496 · history text ~\d+ · grep results ~\d+ · read_file results ~\d+$/m,
    );
  });

  it("a trace from a model newer than the tables is Claude's usage, not the offline model's, and gets no second hidden prompt", async () => {
    const newer = RECORDS.map((r) => (r.type === "model" ? { ...r, model: "claude-opus-9-9" } : r));
    const run = await runCli(["tokens", "--trace", writeTrace("newer.jsonl", newer), "--model", "claude-haiku-4-5"], {
      env: offline,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("offline model");
    expect(run.stdout).toMatch(/claude-opus-9-9 +12,000 +300 +price unknown/);
    expect(run.stdout).toContain("as run (usage the API reported)");
    // Its hidden prompt is unpublished, so nothing is swapped: haiku's column holds the recorded 12,000 as is.
    expect(run.stdout).toMatch(/claude-haiku-4-5 +12,000 +300 /);
    expect(run.stdout).toContain("no published hidden tool-use prompt size for claude-opus-9-9");
  });

  it("projects onto a model with a newer tokenizer with the published ratio, and marks a retired model", async () => {
    const file = writeTrace("ratio.jsonl", RECORDS);
    const newer = await runCli(["tokens", "--trace", file, "--model", "claude-opus-4-8"], { env: offline });
    // Each call: (recorded − haiku's 496) × 1.3 + opus-4-8's 290.
    const inputs = [2000, 4000, 6000].map((n) => Math.round((n - 496) * 1.3) + 290);
    expect(newer.stdout).toMatch(
      new RegExp(`claude-opus-4-8 +${formatCount(inputs[0] + inputs[1] + inputs[2])} +300 `),
    );
    expect(newer.stdout).toContain("×1.30 for the tokenizer (×1.30: claude-opus-4-8's newer tokenizer");
    const retired = await runCli(["tokens", "--trace", file, "--model", "claude-sonnet-4-5"], { env: offline });
    expect(retired.stdout).toContain("(retired 2026-11-30: requests to it fail)");
  });

  it("prices a run that used caching as it ran, and without caching as if every cached token were plain input", async () => {
    const cached = RECORDS.map((r) =>
      r.type === "model" && r.step === 3
        ? {
            ...r,
            usage: {
              input_tokens: 10,
              output_tokens: 100,
              cache_read_input_tokens: 4000,
              cache_creation_input_tokens: 1990,
            },
          }
        : r,
    );
    const run = await runCli(["tokens", "--trace", writeTrace("cached.jsonl", cached)], { env: offline });
    // haiku: calls 1 and 2 plain (6,000), call 3 = 10 plain + 4,000 read + 1,990 written; 300 output.
    const asRun = (2000 + 4000 + 10) * 1 + 4000 * 0.1 + 1990 * 1.25 + 300 * 5;
    const without = 12_000 * 1 + 300 * 5;
    expect(run.stdout).toMatch(new RegExp(`claude-haiku-4-5 +12,000 +300 +\\${$(without)} +\\${$(asRun)}\\n`));
    expect(run.stdout).toContain("cache: 4,000 read, 1,990 written");
  });

  it("escapes control characters in a model name read from the trace", async () => {
    const hostile = RECORDS.map((r) => (r.type === "model" ? { ...r, model: "evil\u001b[2Jmodel" } : r));
    const run = await runCli(["tokens", "--trace", writeTrace("hostile.jsonl", hostile)], { env: offline });
    expect(run.stdout).not.toContain("\u001b");
    expect(run.stdout).toContain("evil\\x1b[2Jmodel");
  });

  describe("with a key", () => {
    let api: ApiServer;
    afterEach(() => api.close());
    it("recounts each rebuilt request on the other model with count_tokens", async () => {
      api = await startApiServer();
      // haiku's stable prefix, then the three requests on sonnet, then sonnet's stable prefix.
      api.scriptCount(...[1500, 2100, 4300, 6500, 1500].map(count));
      const file = writeTrace("exact.jsonl", RECORDS);
      const run = await runCli(["tokens", "--trace", file, "--model", "claude-sonnet-4-5"], {
        env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
      });
      expect(run.code).toBe(0);
      const bodies = api.requests.map((r) => r.body);
      expect(bodies).toHaveLength(5);
      expect(bodies.slice(1, 4).map((b) => [b.model, b.messages.length])).toEqual([
        ["claude-sonnet-4-5", 1],
        ["claude-sonnet-4-5", 3],
        ["claude-sonnet-4-5", 5],
      ]);
      expect(bodies[3].messages).toEqual(parseTrace(RECORDS.map((r) => JSON.stringify(r)).join("\n")).calls[2].sent);
      expect(run.stdout).toMatch(/claude-sonnet-4-5 +12,900 +300 /);
      expect(run.stdout).toContain("exact: count_tokens on each of the 3 requests");
    });
  });
});
