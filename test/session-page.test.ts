// scout tokens --trace FILE --html OUT in a real headless Chromium: a session run through the real SDK against our
// Messages-API server (with cache reads and writes in its usage), then drawn as one page whose every number is checked.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCount } from "../src/guards/format.js";
import { estimateTokens } from "../src/tokens/count.js";
import { tokenizerRatio } from "../src/tokens/model-sizes.js";
import { CACHE_COLOURS, CATEGORY_COLOURS, renderSessionPage } from "../src/tokens/session-page.js";
import { parseTrace } from "../src/tokens/trace-read.js";
import { type ApiServer, reply, startApiServer, text, toolUse } from "../lessons/cases/api-server.js";
import { CHROMIUM, chromium, colourCounts, elements, requireChromium } from "./chromium.js";
import { makeTree, runCli } from "./helpers.js";
import { readPng } from "./png.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "scout-session-page-"));
const page = path.join(work, "session.html");
const trace = path.join(work, "trace.jsonl");
const MODEL = "claude-opus-4-8";
const GREP_RESULT = "app.py:4:    return os.path.normpath(p)";
/** The usage the server reports for the three calls: the second and third read what the first wrote. */
const USAGE = [
  { input_tokens: 40, output_tokens: 20, cache_creation_input_tokens: 1_500 },
  { input_tokens: 60, output_tokens: 25, cache_read_input_tokens: 1_500, cache_creation_input_tokens: 80 },
  { input_tokens: 30, output_tokens: 15, cache_read_input_tokens: 1_580 },
];
let api: ApiServer;
let root: string;
let run: { code: number | null; stdout: string; stderr: string };
let source: string;
afterAll(async () => {
  await api?.close();
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

beforeAll(async () => {
  api = await startApiServer();
  root = makeTree({ "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n" });
  api.script(
    reply([text("Searching."), toolUse("toolu_1", "grep", { pattern: "normpath" })], "tool_use", USAGE[0]),
    reply([toolUse("toolu_2", "read_file", { path: "app.py" })], "tool_use", USAGE[1]),
    reply([text("safe_path calls normpath at app.py:4.")], "end_turn", USAGE[2]),
  );
  const asked = await runCli(["-p", "who calls normpath?", "--trace", trace, "--model", MODEL, "--quiet"], {
    cwd: root,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
    timeoutMs: 60_000,
  });
  expect(asked.code, asked.stderr).toBe(0);
  run = await runCli(["tokens", "--trace", trace, "--html", page], {
    env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined },
    timeoutMs: 60_000,
  });
  expect(run.code, run.stderr).toBe(0);
  source = fs.readFileSync(page, "utf8");
}, 120_000);

/** The terminal's "where the input tokens went": per category its total, and per call its parts. */
function terminalSplit(stdout: string) {
  const part = stdout.split("Where the input tokens went")[1];
  const totals = new Map(
    [...part.matchAll(/^ {2}(\S.*?) +~([\d,]+) +[\d.]+%/gm)].map(([, key, n]) => [key, Number(n.replace(/,/g, ""))]),
  );
  const perCall = [...part.matchAll(/^ +(\d+) {2}(.*)$/gm)].map(
    ([, , line]) =>
      new Map(
        line.split(" · ").map((item) => [item.replace(/ ~[\d,]+$/, ""), Number(item.split("~")[1].replace(/,/g, ""))]),
      ),
  );
  return { totals, perCall };
}

describe("scout tokens --trace FILE --html OUT", { timeout: 120_000 }, () => {
  it("writes a self-contained page and says so", () => {
    expect(run.stderr).toBe(`tokens: wrote ${page}\n`);
    expect(source).toMatch(/^<!DOCTYPE html>/);
    expect(source).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|\bhref=|url\(|@import/i);
  });

  it("--html without --trace is a usage error", async () => {
    const bad = await runCli(["tokens", "--html", page], { env: { ANTHROPIC_API_KEY: undefined } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--html writes a traced session's page: give --trace FILE too");
  });

  requireChromium("the session page of scout tokens --html");

  it.skipIf(!CHROMIUM)(
    "shows where each call's tokens went: the terminal's split, call by call and in total",
    async () => {
      const dom = await chromium(page, ["--virtual-time-budget=5000", "--dump-dom"], work);
      const { totals, perCall } = terminalSplit(run.stdout);
      expect(perCall).toHaveLength(3);
      expect([...totals.keys()]).toEqual([
        "system prompt",
        "tool schemas",
        "hidden prompt",
        "history text",
        "grep results",
        "read_file results",
      ]);
      const table = new Map(
        elements(dom, "td")
          .filter((td) => td["data-category"])
          .map((td) => [td["data-category"], Number(td["data-tokens"])]),
      );
      for (const [key, n] of totals) expect(table.get(key), key).toBe(n);
      expect(table.get("in all")).toBe([...totals.values()].reduce((a, b) => a + b, 0));
      // Each call's stacked bar: one segment per category that is not 0, the terminal's figure, its category's colour.
      const segments = elements(dom, "rect").filter((rect) => rect["data-category"]);
      for (const [i, split] of perCall.entries()) {
        const drawn = segments.filter((rect) => rect["data-call"] === String(i + 1));
        expect(new Map(drawn.map((rect) => [rect["data-category"], Number(rect["data-value"])]))).toEqual(
          new Map([...split].filter(([, n]) => n > 0)),
        );
        for (const rect of drawn) expect(rect.fill).toBe(CATEGORY_COLOURS[rect["data-category"]]);
      }
    },
  );

  it.skipIf(!CHROMIUM)("shows each call's cache reads and writes as the API reported them", async () => {
    const dom = await chromium(page, ["--virtual-time-budget=5000", "--dump-dom"], work);
    const bars = elements(dom, "rect").filter((rect) => rect["data-figure"]);
    const value = (call: number, figure: string) =>
      Number(bars.find((b) => b["data-call"] === String(call) && b["data-figure"] === figure)?.["data-value"]);
    for (const [i, usage] of USAGE.entries()) {
      expect(value(i + 1, "cache read")).toBe(usage.cache_read_input_tokens ?? 0);
      expect(value(i + 1, "cache write")).toBe(usage.cache_creation_input_tokens ?? 0);
      expect(value(i + 1, "sent plain")).toBe(usage.input_tokens);
    }
    // No colour means two things on the page.
    const colours = [...Object.values(CATEGORY_COLOURS), ...Object.values(CACHE_COLOURS)];
    expect(new Set(colours).size).toBe(colours.length);
  });

  it.skipIf(!CHROMIUM)(
    "lays out the timeline: each request's new blocks and each reply's, with their tokens",
    async () => {
      const dom = await chromium(page, ["--virtual-time-budget=5000", "--dump-dom"], work);
      const calls = dom.split('<section class="call"').slice(1);
      expect(calls).toHaveLength(3);
      const blocks = calls.map((call) => elements(call, "div").filter((div) => div["data-kind"]));
      const tokens = (text: string) => Math.round(estimateTokens(text) * tokenizerRatio(MODEL));
      expect(blocks.map((call) => call.map((b) => b["data-kind"]))).toEqual([
        ["text", "text", "tool_use grep"],
        ["grep result", "tool_use read_file"],
        ["read_file result", "text"],
      ]);
      expect(Number(blocks[0][0]["data-tokens"])).toBe(tokens("who calls normpath?"));
      expect(Number(blocks[1][0]["data-tokens"])).toBe(tokens(GREP_RESULT));
      expect(Number(blocks[2][1]["data-tokens"])).toBe(tokens("safe_path calls normpath at app.py:4."));
      expect(calls[1]).toContain("+ the 1 earlier message, sent again");
      expect(calls[1]).toContain(GREP_RESULT);
      expect(calls[2]).toContain(`reply · input 30 · output 15 · cache read ${formatCount(1_580)}`);
    },
  );

  it.skipIf(!CHROMIUM)("is drawn: a screenshot shows the categories' and the cache's colours", async () => {
    const png = path.join(work, "session.png");
    await chromium(page, ["--window-size=1200,1400", `--screenshot=${png}`], work);
    const counts = colourCounts(readPng(fs.readFileSync(png)));
    for (const colour of [CATEGORY_COLOURS["tool schemas"], CACHE_COLOURS["cache read"], CACHE_COLOURS["cache write"]])
      expect(counts.get(colour.slice(1)) ?? 0, colour).toBeGreaterThan(300);
  });
});

describe("the session page's source", () => {
  it("escapes what a trace holds: the question, the model's name and its reply", () => {
    const records = [
      { type: "question", text: '<script>alert("x")</script>\u001b[2J' },
      {
        type: "model",
        model: "claude-<b>x\u001b]0;title",
        stopReason: "end_turn",
        usage: { input_tokens: 5, output_tokens: 2 },
        request: { messages: 1 },
        content: [{ type: "text", text: "</code><img src=x onerror=alert(1)>" }],
      },
      { type: "turn", result: {} },
    ];
    const html = renderSessionPage(parseTrace(records.map((r) => JSON.stringify(r)).join("\n")), {
      file: "<i>t.jsonl</i>",
      model: MODEL,
    });
    expect(html).not.toMatch(/<script|<img|<i>|<b>x/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x1b[2J");
    expect(html).not.toContain("\u001b");
  });
});
