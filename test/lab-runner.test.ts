// The lab's runner in-process: a fresh conversation per question, bounded concurrency, backing off on 429,
// a failed run counted wrong, and the report's sums and changes.
import { describe, expect, it } from "vitest";
import type { Model, ModelRequest } from "../src/core/loop.js";
import { withBackoff } from "../src/lab/backoff.js";
import type { QuestionSet } from "../src/lab/question-set.js";
import { buildReport } from "../src/lab/report.js";
import { runExperiment } from "../src/lab/runner.js";
import { BASELINE, parseVariants } from "../src/lab/variants.js";
import { retryAfterSeconds } from "../src/guards/retries.js";
import { scriptedModel, text, toolUse } from "../src/models/scripted.js";
import { makeTree } from "./helpers.js";

const root = makeTree({ "a.py": "def alpha():\n    pass\n" });
const set = (n: number): QuestionSet => ({
  file: "set.json",
  title: "test",
  workspace: root,
  questions: Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    question: `Where is alpha defined? (${i})`,
    expect: { locations: ["a.py:1"] },
  })),
});

/** A model that greps, then answers citing a.py:1, after `delayMs`; it counts the calls in flight. */
function slowModel(delayMs: number, inFlight: { now: number; most: number }): Model {
  return {
    name: "slow",
    async createMessage(request: ModelRequest) {
      inFlight.now++;
      inFlight.most = Math.max(inFlight.most, inFlight.now);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      inFlight.now--;
      const first = request.messages.length === 1;
      return {
        model: "slow",
        content: first ? [toolUse("t1", "grep", { pattern: "alpha" })] : [text("alpha is defined at a.py:1.")],
        stop_reason: first ? "tool_use" : "end_turn",
        usage: { input_tokens: first ? 100 : 150, output_tokens: 10, cache_read_input_tokens: first ? 0 : 50 },
      };
    },
  };
}

describe("runExperiment", () => {
  it("asks each question in a fresh conversation, at most `concurrency` at a time, results in order", async () => {
    const inFlight = { now: 0, most: 0 };
    const seen: number[] = [];
    const records = await runExperiment({
      set: set(6),
      variants: [BASELINE],
      runs: 1,
      concurrency: 3,
      makeModel: () => {
        const model = slowModel(30, inFlight);
        return {
          ...model,
          createMessage: (request, options) => {
            if (request.messages.length === 1) seen.push(request.messages.length);
            return model.createMessage(request, options);
          },
        };
      },
    });
    expect(inFlight.most).toBe(3);
    expect(seen).toEqual([1, 1, 1, 1, 1, 1]); // every question starts from an empty history
    const runs = records[0].map((question) => question[0]);
    expect(runs.map((run) => run.right)).toEqual([true, true, true, true, true, true]);
    expect(runs[0]).toMatchObject({
      path: ["grep", "answer"],
      modelCalls: 2,
      inputTokens: 300, // 100 + 150 + 50 read from the cache: everything the model was sent
      outputTokens: 20,
    });
    expect(runs[0].steps.map((step) => step.kind)).toEqual(["model", "tool", "model"]);
    expect(runs[0].toolResultTokens).toBe(runs[0].toolResultTokensByTool.grep);
  });

  it("counts a run whose model call failed as wrong, with the error, and the report counts it", async () => {
    const variants = parseVariants(["cap=50"]);
    if ("error" in variants) throw new Error(variants.error);
    const records = await runExperiment({
      set: set(2),
      variants,
      runs: 1,
      concurrency: 1,
      makeModel: () => scriptedModel([new Error("overloaded")]),
      describeError: async (error) => `API: ${(error as Error).message}`,
    });
    expect(records[1][0][0]).toMatchObject({ right: false, why: "API: overloaded", error: "API: overloaded" });
    const report = buildReport({
      set: set(2),
      variants,
      records,
      schemaTokens: [700, 690],
      schemaMode: "estimate",
      model: "scripted",
      offline: true,
      runs: 1,
    });
    expect(report.errors).toBe(4);
    expect(report.variants[1].change).toMatchObject({ right: 0, schemaTokens: -10 });
  });
});

describe("withBackoff", () => {
  const rateLimited = (headers?: Record<string, string>) =>
    Object.assign(new Error("429 rate limited"), { status: 429, headers });
  const answer = () => scriptedModel([{ content: [text("ok")], stop_reason: "end_turn" }]);
  const request: ModelRequest = { system: "", tools: [], messages: [{ role: "user", content: "q" }] };

  function flaky(errors: Error[]): Model {
    const model = answer();
    return {
      name: "flaky",
      createMessage: async (req, options) => {
        const error = errors.shift();
        if (error) throw error;
        return model.createMessage(req, options);
      },
    };
  }

  it("waits and asks again on 429, doubling the wait, or as long as retry-after says", async () => {
    const waits: number[] = [];
    const model = withBackoff(flaky([rateLimited(), rateLimited(), rateLimited({ "retry-after": "7" })]), {
      baseMs: 100,
      sleep: async (ms) => void waits.push(ms),
    });
    const response = await model.createMessage(request, {});
    expect(response.content).toEqual([text("ok")]);
    expect(waits).toEqual([100, 200, 7_000]);
  });

  it("reads retry-after the one way Scout's own retries do: from SDK Headers or a plain object, seconds >= 0 only", () => {
    expect(retryAfterSeconds({ headers: new Headers({ "retry-after": "3" }) })).toBe(3);
    expect(retryAfterSeconds({ headers: { "retry-after": "0.5" } })).toBe(0.5);
    for (const value of ["", "-1", "soon", "Infinity"])
      expect(retryAfterSeconds({ headers: new Headers({ "retry-after": value }) }), value).toBeUndefined();
    expect(retryAfterSeconds({ headers: new Headers() })).toBeUndefined();
    expect(retryAfterSeconds(new Error("no headers"))).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });

  it("gives up after its retries, and never retries another error", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const tooMany = withBackoff(flaky([rateLimited(), rateLimited(), rateLimited()]), { retries: 2, baseMs: 1, sleep });
    await expect(tooMany.createMessage(request, {})).rejects.toThrow("429 rate limited");
    expect(waits).toEqual([1, 2]);
    const other = withBackoff(flaky([Object.assign(new Error("bad request"), { status: 400 })]), { sleep });
    await expect(other.createMessage(request, {})).rejects.toThrow("bad request");
    expect(waits).toEqual([1, 2]);
  });
});
