// Prompt caching, money and /request, through the real CLI and SDK against our own Messages-API server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { count, reply, startApiServer, text, toolUse, type ApiServer } from "../lessons/cases/api-server.js";
import { BUILDS } from "./fifth-tool.js";
import { makeTree, runCli } from "./helpers.js";

let api: ApiServer;
let root: string;
beforeEach(async () => {
  api = await startApiServer();
  root = makeTree({ "app.py": "def safe_path(p):\n    return p\n" });
});
afterEach(() => api.close());

const scout = (args: string[], input = "", model = "claude-haiku-4-5", cli?: string) =>
  runCli(["--cwd", root, "--model", model, ...args], {
    cwd: root,
    cli,
    input,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
    timeoutMs: 60_000,
  });
const messageRequests = () => api.requests.filter((r) => r.path === "/v1/messages").map((r) => r.body);
const marks = (value: unknown) => (JSON.stringify(value).match(/"cache_control"/g) ?? []).length;
const round = () =>
  api.script(reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]), reply([text("safe_path is at app.py:1.")]));

describe("prompt caching", { timeout: 60_000 }, () => {
  it("marks the system prompt and the newest message, and leaves earlier messages unmarked", async () => {
    round();
    const run = await scout(["-p", "where is safe_path?"]);
    expect(run.code).toBe(0);
    const [first, second] = messageRequests();
    for (const body of [first, second]) {
      expect(body.system).toEqual([expect.objectContaining({ type: "text", cache_control: { type: "ephemeral" } })]);
      expect(marks(body)).toBe(2); // system + newest message: within the API's limit of 4
      expect(marks(body.tools)).toBe(0); // the system breakpoint already covers the tools before it
      expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });
    }
    // The question was the newest message in call 1, not in call 2: the history itself was never marked.
    expect(first.messages[0].content).toEqual([
      { type: "text", text: "where is safe_path?", cache_control: { type: "ephemeral" } },
    ]);
    expect(second.messages[0]).toEqual({ role: "user", content: "where is safe_path?" });
    expect(second.messages[2].content[0].type).toBe("tool_result");
  });

  it("sends no cache_control at all with --no-cache", async () => {
    round();
    const run = await scout(["--no-cache", "-p", "where is safe_path?"]);
    expect(run.code).toBe(0);
    expect(messageRequests()).toHaveLength(2);
    for (const body of messageRequests()) {
      expect(marks(body)).toBe(0);
      expect(typeof body.system).toBe("string");
    }
  });
});

describe("money", { timeout: 60_000 }, () => {
  const cached = {
    input_tokens: 100,
    output_tokens: 20,
    cache_read_input_tokens: 1000,
    cache_creation_input_tokens: 2000,
  };

  it("turns usage with cache reads and writes into dollars, and says what caching saved", async () => {
    api.script(reply([text("Done.")], "end_turn", cached));
    const run = await scout(["-p", "hi"]);
    // claude-haiku-4-5: $1 input, $1.25 cache write, $0.10 cache read, $5 output per million tokens.
    // 100×1 + 2,000×1.25 + 1,000×0.10 + 20×5 = 2,800 µ$; uncached: 3,100×1 + 20×5 = 3,200 µ$; saved 400 µ$.
    expect(run.stderr).toContain(
      "turn: answer · 1 model call · 3,100 input tokens · 20 output tokens · $0.0028 · cache: 1,000 read, 2,000 written, saved $0.0004",
    );
  });

  it("says when caching cached nothing because every prompt was below the model's minimum", async () => {
    api.script(reply([text("Done.")], "end_turn", { input_tokens: 1200, output_tokens: 20 }));
    const below = await scout(["-p", "hi"]);
    expect(below.stderr).toContain(
      "cache: nothing cached: every prompt was below claude-haiku-4-5's minimum of 4,096 tokens",
    );
    api.script(reply([text("Done.")], "end_turn", { input_tokens: 1200, output_tokens: 20 }));
    const unpublished = await scout(["-p", "hi"], "", "claude-haiku-5-5");
    expect(unpublished.stderr).toContain(
      "cache: nothing cached (claude-haiku-5-5's minimum cacheable prompt is unpublished)",
    );
    api.script(reply([text("Done.")], "end_turn", { input_tokens: 1200, output_tokens: 20 }));
    const off = await scout(["--no-cache", "-p", "hi"]);
    expect(off.stderr).not.toContain("cache:");
  });

  it("prices a request over Haiku 5.5's 100,000-token threshold at the higher rate, every token of it", async () => {
    api.script(
      reply([text("Done.")], "end_turn", { input_tokens: 100_000, output_tokens: 1000 }),
      reply([text("Done.")], "end_turn", { input_tokens: 1000, output_tokens: 1000, cache_read_input_tokens: 100_000 }),
    );
    const run = await scout([], "first\nsecond\n", "claude-haiku-5-5");
    // Up to 100,000: $0.10 in, $0.50 out → 100,000×0.10 + 1,000×0.50 = 10,500 µ$.
    expect(run.stderr).toMatch(/turn: answer · 1 model call · 100,000 input tokens · 1,000 output tokens · \$0\.011 /);
    // 101,000 over the threshold: $0.50 in, $0.05 read, $2.50 out → 1,000×0.50 + 100,000×0.05 + 1,000×2.50 = 8,000 µ$.
    expect(run.stderr).toMatch(/turn: answer · 1 model call · 101,000 input tokens · 1,000 output tokens · \$0\.008 /);
  });

  it("reports a model missing from the price table as unknown, never as $0", async () => {
    api.script(reply([text("Done.")], "end_turn", cached));
    const run = await scout(["-p", "hi"], "", "claude-imaginary-9");
    expect(run.stderr).toContain("price unknown for claude-imaginary-9");
    expect(run.stderr).toContain("cache: 1,000 read, 2,000 written");
    expect(run.stderr).not.toMatch(/\$0\b/);
  });

  it("sums the session in /tokens and in the exit line", async () => {
    api.script(reply([text("One.")]), reply([text("Two.")]));
    api.scriptCount(...[178, 347, 300, 459, 400, 617, 550, 886, 800].map(count));
    const run = await scout([], "first\nsecond\n/tokens\n");
    expect(run.stdout).toContain("turn 1: 100 input tokens · 20 output tokens · $0.0002");
    expect(run.stdout).toContain("in all: 200 input tokens · 40 output tokens · $0.0004");
    expect(run.stderr).toContain("session: 2 turns · 200 input tokens · 40 output tokens · $0.0004");
  });
});

/** Made-up exact cumulative counts as /request adds each tool's schema, by position. */
const TOOL_COUNTS = [700, 812, 970, 1239, 1300];

describe("/request", { timeout: 60_000 }, () => {
  // Once with Scout's build, once with a fifth tool in the registry: nothing here assumes four.
  for (const [label, makeBuild] of BUILDS)
    it(`shows the blocks really sent, each with its tokens by subtraction: ${label}`, async () => {
      const build = makeBuild();
      try {
        const toolCounts = build.schemas.map((_, i) => TOOL_COUNTS[i] ?? 1300 + i);
        round();
        // First message alone, + system, + each tool, + the tool_use/tool_result pair.
        api.scriptCount(...[12, 190, ...toolCounts, 1600].map(count));
        const run = await scout([], "where is safe_path?\n/request\n", undefined, build.cli);
        expect(run.code).toBe(0);
        const counts = api.requests.filter((r) => r.path === "/v1/messages/count_tokens").map((r) => r.body);
        const requests = 3 + build.schemas.length;
        expect(counts).toHaveLength(requests);
        const last = messageRequests()[1];
        // The counted prefixes are the messages that were sent (without the cache markers, which cost nothing).
        expect(JSON.stringify(counts.at(-1).messages).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "")).toBe(
          JSON.stringify(last.messages).replace(/,"cache_control":\{"type":"ephemeral"\}/g, ""),
        );
        expect(counts[0].system).toBeUndefined();
        expect(counts[1].tools).toBeUndefined();
        expect(counts[2].tools.map((t: { name: string }) => t.name)).toEqual(["read_file"]);
        expect(counts.at(-2).tools.map((t: { name: string }) => t.name)).toEqual(build.schemas.map((t) => t.name));
        const out = run.stdout;
        expect(out).toContain(
          `The last request to claude-haiku-4-5 (exact: count_tokens by subtraction, ${requests} requests):`,
        );
        expect(out).toContain("2 cache breakpoints (◆)");
        expect(out).toMatch(/ 178 {2}system {6}"You are Scout.*◆/);
        expect(out).toMatch(/ 510 {2}tool {8}read_file: .* \*/);
        expect(out).toMatch(/ 12 {2}user {8}"where is safe_path\?"/);
        const pair = 1600 - toolCounts.at(-1)!;
        expect(out).toMatch(new RegExp(` ${pair} {2}assistant {3}tool_use grep \\{"pattern":"safe_path"\\}`));
        expect(out).toMatch(/ {10}user {8}tool_result "app\.py:1:def safe_path.*◆/);
        expect(out).toMatch(/ 1,600 {2}in all/);
      } finally {
        build.remove();
      }
    });

  it("--show-request needs -p", async () => {
    const run = await scout(["--show-request"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--show-request works with -p");
  });
});
