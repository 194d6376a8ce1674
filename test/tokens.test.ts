// Token costs, offline: the estimate mode is labelled, stable, and its arithmetic adds up.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_PROMPT } from "../src/core/scout.js";
import { estimateCounter, estimateRequestTokens, estimateTokens, type Counter } from "../src/tokens/count.js";
import { formatCount } from "../src/guards/format.js";
import { FIXED_QUESTION, measureSchemaCosts, type SchemaCosts } from "../src/tokens/schema-costs.js";
import { SessionUsage } from "../src/tokens/session-usage.js";
import { tools } from "../src/core/scout.js";
import { toolSchemas } from "../src/core/tool.js";
import { apiError, count, reply, startApiServer, text, toolUse, type ApiServer } from "../lessons/cases/api-server.js";
import { BUILDS, type Build } from "./fifth-tool.js";
import { runTurn, type MessageParam, type StepEvent } from "../src/core/loop.js";
import { Workspace } from "../src/core/workspace.js";
import { offlineModel } from "../src/models/offline.js";
import { makeTree, REPO_ROOT, runCli } from "./helpers.js";

const offlineEnv = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined };

describe("measureSchemaCosts", () => {
  it("adds the tools one at a time, in registry order, and splits each by one more count without its description", async () => {
    const seen: string[] = [];
    // A fake counter with known sizes: 100 for the baseline, 10 × (position + 1) per tool, of which
    // (position + 1) is its description.
    const counter: Counter = async ({ tools: sent = [] }) => {
      seen.push(sent.map((tool) => (tool.description ? tool.name : `${tool.name}-`)).join(","));
      return 100 + sent.reduce((sum, tool, i) => sum + 10 * (i + 1) - (tool.description ? 0 : i + 1), 0);
    };
    const costs = await measureSchemaCosts(counter, "exact", "m");
    // Every expectation comes from the registry: a fifth tool (lesson 14) changes none of this test.
    const names = tools.map((tool) => tool.name);
    expect(seen).toEqual([
      "",
      ...names.flatMap((_, i) => [names.slice(0, i + 1).join(","), `${names.slice(0, i + 1).join(",")}-`]),
    ]);
    expect(costs.requests).toBe(1 + 2 * names.length);
    expect(costs.baseline).toBe(100);
    expect(costs.tools).toEqual(
      names.map((name, i) => ({ name, cumulative: 100 + 5 * (i + 1) * (i + 2), marginal: 10 * (i + 1) })),
    );
    expect(costs.parts.map((p) => [p.description.tokens, p.input_schema.tokens])).toEqual(
      names.map((_, i) => [i + 1, 9 * (i + 1)]),
    );
    expect(costs.total).toBe(5 * names.length * (names.length + 1));
  });

  it("offline, adds the hidden tool-use prompt of the chosen model as its own row", async () => {
    const haiku = await measureSchemaCosts(estimateCounter, "estimate", "claude-haiku-4-5");
    const opus = await measureSchemaCosts(estimateCounter, "estimate", "claude-opus-4-7");
    const unknown = await measureSchemaCosts(estimateCounter, "estimate", "claude-imaginary-9");
    expect(haiku.hiddenPrompt).toBe(496);
    expect(opus.hiddenPrompt).toBe(675);
    expect(unknown.hiddenPrompt).toBeUndefined();
    const readFile = estimateTokens(JSON.stringify(toolSchemas(tools)[0]));
    expect(haiku.tools[0]).toEqual({
      name: "read_file",
      cumulative: haiku.baseline + 496 + readFile,
      marginal: readFile,
    });
    expect(opus.total - unknown.total).toBe(675);
    expect(haiku.total - unknown.total).toBe(496);
    expect(haiku.requests).toBe(0);
  });

  it("/context splits every request of the session: schemas, hidden prompt, history, each tool's re-sent results", async () => {
    const root = makeTree({ "app.py": "def safe_path(p):\n    return p\n" });
    const env = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, SCOUT_MODEL: undefined };
    const before = await runCli(["--cwd", root, "--model", "claude-haiku-4-5"], {
      cwd: root,
      env,
      input: "/context\n",
    });
    expect(before.stdout).toContain("(no request yet: ask a question first)");
    const run = await runCli(["--cwd", root, "--model", "claude-haiku-4-5", "--quiet"], {
      cwd: root,
      env,
      input: "where is safe_path defined?\n/context\n",
    });
    expect(run.stdout).toMatch(/Where the input tokens went \(local estimate for claude-haiku-4-5, (\d) calls/);
    const calls = Number(/for claude-haiku-4-5, (\d) calls/.exec(run.stdout)![1]);
    expect(run.stdout).toMatch(new RegExp(`^  hidden prompt +~${formatCount(496 * calls)} `, "m"));
    expect(run.stdout).toMatch(/^ {2}grep results +~\d+ +[\d.]+% +█*$/m);
    expect(run.stdout).toMatch(
      /^ +1 {2}system prompt ~\d+ · tool schemas ~\d+ · hidden prompt ~496 · history text ~\d+ · grep results ~0/m,
    );
  });

  it("offline, counts as a newer tokenizer would where a ratio is published, and says so", async () => {
    const run = async (model: string) =>
      JSON.parse((await runCli(["tokens", "--json", "--offline", "--model", model])).stdout) as SchemaCosts;
    const [older, newer] = [await run("claude-haiku-4-5"), await run("claude-opus-4-8")];
    expect(newer.baseline).toBe(Math.round(older.baseline * 1.3));
    expect(newer.hiddenPrompt).toBe(290);
    expect(newer.note).toContain("×1.30: claude-opus-4-8's newer tokenizer counts ~30% more tokens");
    expect(older.note).not.toContain("×1.30");
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
  /** The table, printed once for both tests that read it (each run is a process, ~0.3 s of CPU). */
  let table: ReturnType<typeof runCli> | undefined;
  const tableRun = () => (table ??= runCli(["tokens"], { env: offlineEnv }));

  it("prints a table labelled as an estimate, the same on every run", async () => {
    const first = await tableRun();
    const second = await runCli(["tokens"], { env: offlineEnv });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Tool schema token costs (estimate)");
    expect(first.stdout).toContain("approximate for current ones");
    expect(first.stdout).not.toContain("(exact)");
    expect(second.stdout).toBe(first.stdout);
  });

  it("--json carries the same numbers as the table", async () => {
    const table = (await tableRun()).stdout;
    const json = JSON.parse((await runCli(["tokens", "--json"], { env: offlineEnv })).stdout);
    expect(table).toMatch(new RegExp(`baseline \\(no tools\\)\\s+~${json.baseline}\\n`));
    for (const tool of json.tools) {
      expect(table).toMatch(
        new RegExp(`\\+ ${tool.name}\\s+~${tool.cumulative.toLocaleString("en-US")}\\s+\\+${tool.marginal}\\n`),
      );
    }
    expect(json.total).toBe(json.tools.at(-1).cumulative - json.baseline);
    expect(table).toMatch(new RegExp(`all tools, per request\\s+~${json.total.toLocaleString("en-US")}\\n`));
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
    usage.record({ type: "tool_result", step: 1, id: "t1", name: "grep", input: {}, result, ms: 1 });
    usage.record({ type: "tool_result", step: 2, id: "t2", name: "grep", input: {}, result, ms: 1 });
    usage.record({
      type: "turn_end",
      result: {
        text: "",
        stopReason: "end_turn",
        modelCalls: 2,
        toolCalls: ["grep", "grep"],
        usage: { input_tokens: 1200, output_tokens: 30, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
    });
    expect(usage.tools.get("grep")?.calls).toBe(2);
    expect(usage.format(true)).toMatch(
      /turn 1: 1,200 input tokens · 30 output tokens\n {2}grep {8}2 calls · results ~\d+ tokens/,
    );
  });
});

/** Made-up exact costs per tool, by position: its marginal, and the part of it that is its description. */
const MARGINALS = [700, 190, 210, 350, 150];
const DESCRIPTION_TOKENS = [70, 60, 80, 110, 40];
const marginal = (i: number) => MARGINALS[i] ?? 100;
const descriptionTokens = (i: number) => DESCRIPTION_TOKENS[i] ?? 30;
const BASELINE = 500;

/** What count_tokens answers for `n` tools: the baseline, then per tool with it, and with it but without its description. */
function scriptedCounts(n: number): number[] {
  const counts = [BASELINE];
  let cumulative = BASELINE;
  for (let i = 0; i < n; i++) {
    cumulative += marginal(i);
    counts.push(cumulative, cumulative - descriptionTokens(i));
  }
  return counts;
}

describe("scout tokens (exact, against the loopback Messages API)", () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api.close());
  const exactEnv = () => ({
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_AUTH_TOKEN: undefined,
  });

  // Once with Scout's build, once with a fifth tool in the registry: nothing below assumes four.
  for (const [label, makeBuild] of BUILDS)
    describe(label, () => {
      let build: Build;
      beforeAll(() => {
        build = makeBuild();
      });
      afterAll(() => build?.remove()); // undefined when making it failed: that failure is the one to see

      it("sends one count_tokens request per row, with the model, system prompt, question and growing tool list", async () => {
        const { schemas } = build;
        api.requests.length = 0;
        api.scriptCount(...scriptedCounts(schemas.length).map(count));
        const run = await runCli(["tokens", "--model", "claude-test-1"], { env: exactEnv(), cli: build.cli });
        expect(run.code).toBe(0);
        expect(api.requests.map((r) => r.path)).toEqual(
          Array(1 + 2 * schemas.length).fill("/v1/messages/count_tokens"),
        );
        // Every second request after the baseline is the same tool list without the newest tool's description.
        const bodies = api.requests.map((r) => r.body).filter((_b, i) => i === 0 || i % 2 === 1);
        for (const [i, body] of api.requests.map((r) => r.body).entries())
          if (i > 0 && i % 2 === 0) {
            expect(body.tools.slice(0, -1)).toEqual(schemas.slice(0, i / 2 - 1));
            expect(body.tools.at(-1).description).toBeUndefined();
            expect(body.tools.at(-1).input_schema).toEqual(schemas[i / 2 - 1].input_schema);
          }
        for (const body of bodies) {
          expect(body.model).toBe("claude-test-1");
          expect(body.system).toBe(SYSTEM_PROMPT);
          expect(body.messages).toEqual([{ role: "user", content: FIXED_QUESTION }]);
        }
        expect(bodies.map((b) => (b.tools ?? []).map((t: { name: string }) => t.name))).toEqual(
          [0, ...schemas.map((_, i) => i + 1)].map((n) => schemas.slice(0, n).map((tool) => tool.name)),
        );
        expect(bodies.at(-1).tools).toEqual(schemas);
        // The table: exact, marginals and total from those counts.
        expect(run.stdout).toContain("Tool schema token costs (exact) · model claude-test-1");
        expect(run.stdout).toMatch(new RegExp(`baseline \\(no tools\\)\\s+${BASELINE}\\n`));
        let cumulative = BASELINE;
        for (const [i, tool] of schemas.entries()) {
          cumulative += marginal(i);
          const star = i === 0 ? " \\*" : ""; // the first tool's row carries the hidden prompt
          const [total, rest] = [cumulative.toLocaleString("en-US"), marginal(i) - descriptionTokens(i)];
          expect(run.stdout).toMatch(new RegExp(`\\+ ${tool.name}\\s+${total}\\s+\\+${marginal(i)}${star}\\n`));
          // description = with it − without it; the rest = the marginal − the description.
          const description = `${tool.description.length} chars ${descriptionTokens(i)} tok`;
          const inputSchema = `${JSON.stringify(tool.input_schema).length} chars ${rest} tok`;
          expect(run.stdout).toMatch(new RegExp(`\\n${tool.name}\\s+${description}\\s+${inputSchema}${star}\\n`));
        }
        const all = (cumulative - BASELINE).toLocaleString("en-US");
        expect(run.stdout).toMatch(new RegExp(`all tools, per request\\s+${all}\\n`));
        expect(run.stdout).toContain("hidden tool-use system prompt");
        expect(run.stdout).toContain("price unknown for claude-test-1");
        expect(run.stdout).not.toContain("~");
      });

      it("--json carries the same exact numbers", async () => {
        const n = build.schemas.length;
        api.scriptCount(...scriptedCounts(n).map(count));
        const run = await runCli(["tokens", "--json"], { env: exactEnv(), cli: build.cli });
        const json = JSON.parse(run.stdout);
        const marginals = build.schemas.map((_, i) => marginal(i));
        const total = marginals.reduce((sum, m) => sum + m, 0);
        expect(json).toMatchObject({ mode: "exact", baseline: BASELINE, total });
        expect(json.tools.map((t: { marginal: number }) => t.marginal)).toEqual(marginals);
      });

      it("/tokens in the REPL shows the schema costs and this session's usage per turn and per tool", async () => {
        api.scriptCount(...scriptedCounts(build.schemas.length).map(count));
        api.script(reply([toolUse("t1", "list_files", {})], "tool_use"), reply([text("done")], "end_turn"));
        const root = makeTree({ "a.txt": "hello\n" });
        const run = await runCli(["--cwd", root], {
          cwd: root,
          input: "what is here?\n/tokens\n",
          env: exactEnv(),
          cli: build.cli,
        });
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("Tool schema token costs (exact)");
        expect(run.stdout).toMatch(new RegExp(`\\+ ${build.schemas.at(-1)!.name}\\s+[\\d,]+\\s+\\+\\d+\\n`));
        expect(run.stdout).toMatch(/turn 1: [\d,]+ input tokens · [\d,]+ output tokens · <?\$[\d.]+/);
        expect(run.stdout).toMatch(/list_files {2}1 call · results ~\d+ tokens/);
        expect(run.stdout).toContain("model usage: as the API reported it");
      });
    });

  it("says clearly when the API keeps answering 429", async () => {
    api.scriptCount(
      ...Array(3).fill(
        // retry-after: 0, as the API sends with a 429: the retries do not wait (Scout's own waits: cli-claude.test.ts).
        apiError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", 0),
      ),
    );
    const run = await runCli(["tokens"], { env: exactEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(
      "scout tokens: rate limited, still after retries: Number of request tokens has exceeded your per-minute rate limit",
    );
  });
});

describe("estimateRequestTokens (the offline model's input tokens, counted message by message)", () => {
  const whole = (request: object) => estimateTokens(JSON.stringify(request));

  it("equals the count of the whole request's JSON at every step of a session, and is what the offline model reports", async () => {
    const set = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "lessons/questions/sample-project.json"), "utf8"));
    const history: MessageParam[] = []; // one session: each question's requests carry the ones before
    const model = offlineModel();
    const requests: { messages: MessageParam[] }[] = [];
    const reported: number[] = [];
    for (const { question } of (set.questions as { question: string }[]).slice(0, 5)) {
      await runTurn(question, history, {
        model,
        workspace: new Workspace(path.join(REPO_ROOT, "lessons/sample-project")),
        onStep: (event: StepEvent) => {
          model.onStep(event);
          if (event.type === "model_request") requests.push(event.request);
          if (event.type === "model_response") reported.push(event.usage.input_tokens);
        },
      });
    }
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.map(estimateRequestTokens)).toEqual(requests.map(whole));
    expect(reported).toEqual(requests.map(whole));
  });

  it("equals the whole count whatever a message begins or ends with (combining marks, spaces, special tokens)", () => {
    const ends = [
      "a",
      "a ",
      "a\n",
      "\u0301",
      "e\u0301",
      "A\u030A",
      " <EOT>",
      "<EOT>",
      "'s",
      '"',
      "\\",
      '{"role"',
      "\u00A0",
      "\uFF21",
      "ﬁ",
      "😀",
      "ｶﾞ",
      "\u0000",
      "9",
      "\t ",
    ];
    const requests = ends.flatMap((a) =>
      ends.map((b) => ({
        system: b,
        tools: [],
        messages: [
          { role: "user", content: a },
          { role: "assistant", content: [{ type: "text", text: b }] },
          { role: "user", content: `${b}${a}` },
        ],
      })),
    );
    expect(requests.map(estimateRequestTokens)).toEqual(requests.map(whole));
  });

  it('counts the whole text when the frame cannot be cut: a message that is not an object, a second "messages" key', () => {
    const holes: unknown[] = []; // JSON writes null for a hole, as for undefined
    holes[1] = { role: "user", content: "x" };
    holes.length = 4;
    const odd = [
      { messages: ["a plain string", { role: "user", content: "x" }] },
      { messages: holes },
      { messages: [{ role: "user", content: "x" }, undefined, { role: "user", content: "y" }] },
      { tools: [{ messages: 0 }], messages: [{ role: "user", content: "y" }] },
      { messages: [] },
    ];
    expect(odd.map(estimateRequestTokens)).toEqual(odd.map(whole));
  });
});

describe("the tokenizer built on another thread (the REPL's first answer does not wait for it)", () => {
  it("counts exactly what this thread counts, and the process still exits on its own", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const { REPO_ROOT } = await import("./helpers.js");
    const texts = [
      "",
      "hello world",
      SYSTEM_PROMPT,
      "naïve café ﬁ 🙂 \u0000 tabs\tand\nlines",
      JSON.stringify(toolSchemas(tools)),
    ];
    const countJs = `${REPO_ROOT}/dist/tokens/count.js`;
    // With warm, this thread's own tokenizer is poisoned in its module cache (a worker has its own): every
    // count must come from the helper, not from the fallback that counts here when the helper fails.
    const poison =
      `const { createRequire } = await import("node:module");` +
      `const resolved = createRequire(${JSON.stringify(countJs)}).resolve("@anthropic-ai/tokenizer");` +
      `createRequire(${JSON.stringify(countJs)}).cache[resolved] = { id: resolved, filename: resolved, loaded: true,` +
      ` exports: { getTokenizer() { throw new Error("counted on this thread, not on the helper"); } } };`;
    const script = (warm: boolean) =>
      `const m = await import(${JSON.stringify(countJs)});` +
      `${warm ? `${poison} m.warmTokenizer();` : ""}` +
      `console.log(JSON.stringify(${JSON.stringify(texts)}.map((t) => m.estimateTokens(t))));`;
    // Files, not \`node --input-type=module -e\`: a worker inherits that flag, so the helper's CommonJS source
    // failed to load, each count waited out HELPER_WAIT_MS (10 s), and was made on this thread after all.
    const dir = makeTree({ "warm.mjs": script(true), "here.mjs": script(false) });
    const run = async (warm: boolean) =>
      JSON.parse(
        (await promisify(execFile)(process.execPath, [path.join(dir, warm ? "warm.mjs" : "here.mjs")])).stdout,
      );
    const [onHelper, here] = await Promise.all([run(true), run(false)]);
    expect(onHelper).toEqual(here); // and both processes exited: an unref'd worker does not keep one alive
    expect(here[1]).toBeGreaterThan(0);
  });
});
