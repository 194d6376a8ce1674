// Claude end to end: the real CLI (a child process) and the real SDK, talking
// to a scripted Messages-API server on 127.0.0.1. The tests check what the
// server received and what the user saw.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tools } from "../src/core/scout.js";
import {
  apiError,
  hang,
  reply,
  stall,
  startApiServer,
  streamError,
  text,
  toolUse,
  type ApiServer,
} from "../lessons/cases/api-server.js";
import { type CliRun, makeTree, runCli, startCli } from "./helpers.js";
import { moduleProbe } from "./module-probe.js";

const FILES = {
  "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n",
  "README.md": "# demo\n",
};

let api: ApiServer;
let root: string;
beforeEach(async () => {
  api = await startApiServer();
  root = makeTree(FILES);
});
afterEach(() => api.close());

/** The environment that sends the real SDK to our server (and nothing else). */
function claudeEnv(extra: Record<string, string | undefined> = {}) {
  return {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_AUTH_TOKEN: undefined,
    SCOUT_MODEL: undefined,
    ...extra,
  };
}
// --no-cache: these tests compare the messages sent with the history; test/caching.test.ts checks the cache markers.
const scout = (
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined>; cli?: string } = {},
) =>
  runCli(["--cwd", root, "--no-cache", ...args], {
    cwd: root,
    cli: options.cli,
    input: options.input,
    env: claudeEnv(options.env),
    timeoutMs: 60_000,
  });

const traceDir = () => makeTree({});
const messagesOf = (n: number) => api.requests[n].body.messages;
const stepLines = (stderr: string) => stderr.split("\n").filter((line) => /^\[\d+\] /.test(line));

describe("scout -p through the real SDK", { timeout: 60_000 }, () => {
  it("with a key, never loads the offline teaching model; offline, it is loaded", async () => {
    api.script(reply([text("An answer.")]));
    const probe = moduleProbe();
    const run = await scout(["-p", "hello?"], { env: probe.env, cli: probe.cli });
    expect(run.stdout).toBe("An answer.\n");
    expect(probe.loaded()).toContain("core/claude.js");
    expect(probe.loaded().filter((file) => file.startsWith("models/offline"))).toEqual([]);
    const offline = moduleProbe();
    await scout(["-p", "hello?"], { env: { ...offline.env, ANTHROPIC_API_KEY: undefined }, cli: offline.cli });
    expect(offline.loaded()).toContain("models/offline.js");
  });

  it("runs a tool round trip and sends the results back, errors flagged", async () => {
    api.script(
      reply([text("Let me search."), toolUse("toolu_1", "grep", { pattern: "safe_path" })]),
      reply([toolUse("toolu_2", "read_file", { path: "missing.py" })]),
      reply([text("safe_path is defined at app.py:3.")]),
    );
    const run = await scout(["-p", "where is safe_path defined?"]);

    expect(api.requests).toHaveLength(3);
    const first = api.requests[0];
    expect(first.path).toBe("/v1/messages");
    expect(first.headers["x-api-key"] ?? first.headers.authorization).toMatch(/\btest-key$/); // this SDK sends it as a Bearer token
    expect(first.body.stream).toBe(true);
    expect(first.body.model).toBe("claude-haiku-5-5");
    expect(first.body.system).toContain("grep");
    expect(first.body.messages).toEqual([{ role: "user", content: "where is safe_path defined?" }]);
    expect(first.body.tools.map((tool: { name: string }) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const tool of first.body.tools) {
      expect(Object.keys(tool).sort()).toEqual(["description", "input_schema", "name"]);
      expect(tool.input_schema.type).toBe("object");
      expect(tool.description.length).toBeGreaterThan(20);
    }
    expect(first.body.tools.find((tool: { name: string }) => tool.name === "grep").input_schema.required).toEqual([
      "pattern",
    ]);

    // The second request: the question, the assistant's message as streamed, the grep result.
    expect(messagesOf(1)).toEqual([
      { role: "user", content: "where is safe_path defined?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me search." },
          { type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "safe_path" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "app.py:3:def safe_path(p):", is_error: false },
        ],
      },
    ]);
    // The third: the failed read_file comes back as an error result, and the conversation goes on.
    const failed = messagesOf(2).at(-1);
    expect(failed.role).toBe("user");
    expect(failed.content).toHaveLength(1);
    expect(failed.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_2", is_error: true });
    expect(failed.content[0].content).toMatch(/^Error: file not found: missing\.py/);
    expect(messagesOf(2).slice(0, 3)).toEqual(messagesOf(1));

    // stdout: the answer only. stderr: a line per model call and per tool call, and the turn summary.
    // Text written before tool calls is not the answer: it goes to stderr, where it would have streamed.
    expect(run.stdout).toBe("safe_path is defined at app.py:3.\n");
    expect(run.stderr).toMatch(/^Let me search\.\n\[1\] model /);
    const steps = stepLines(run.stderr);
    expect(steps).toHaveLength(5);
    expect(steps[0]).toMatch(/^\[1\] model claude-haiku-5-5 → tool_use · 100 in \/ 20 out tokens/);
    expect(steps[1]).toMatch(/^\[2\] grep \{"pattern":"safe_path"\} → /);
    expect(steps[3]).toMatch(/^\[4\] read_file \{"path":"missing.py"\} → error: file not found/);
    expect(steps[4]).toMatch(/^\[5\] model claude-haiku-5-5 → end_turn/);
    expect(run.stderr).toMatch(/turn: grep → read_file → answer · 3 model calls · 300 input tokens/);
    expect(run.code).toBe(0);
  });

  it("runs two tool_use blocks of one message and returns both results in order, in one message", async () => {
    api.script(
      reply([
        toolUse("toolu_a", "glob", { pattern: "**/*.py" }),
        toolUse("toolu_b", "read_file", { path: "README.md" }),
      ]),
      reply([text("One Python file, app.py.")]),
    );
    const run = await scout(["-p", "what is here?"]);

    expect(api.requests).toHaveLength(2);
    const results = messagesOf(1).at(-1);
    expect(results.role).toBe("user");
    expect(results.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_a", content: expect.stringContaining("app.py"), is_error: false },
      { type: "tool_result", tool_use_id: "toolu_b", content: expect.stringContaining("# demo"), is_error: false },
    ]);
    expect(stepLines(run.stderr).map((line) => line.split(" ")[1])).toEqual(["model", "glob", "read_file", "model"]);
    expect(run.stdout).toBe("One Python file, app.py.\n");
    expect(run.code).toBe(0);
  });

  it("sends the model named by --model, else SCOUT_MODEL, else the default", async () => {
    api.script(reply([text("a")]), reply([text("b")]), reply([text("c")]));
    await scout(["-p", "q", "--model", "claude-sonnet-4-5"], { env: { SCOUT_MODEL: "claude-opus-4-1" } });
    await scout(["-p", "q"], { env: { SCOUT_MODEL: "claude-opus-4-1" } });
    await scout(["-p", "q"]);
    expect(api.requests.map((request) => request.body.model)).toEqual([
      "claude-sonnet-4-5",
      "claude-opus-4-1",
      "claude-haiku-5-5",
    ]);
  });

  it("talks to Claude with ANTHROPIC_AUTH_TOKEN alone, sent as a Bearer token", async () => {
    api.script(reply([text("yes")]));
    const run = await scout(["-p", "q"], { env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: "test-token" } });
    expect(run.stdout).toBe("yes\n");
    expect(api.requests[0].headers.authorization).toBe("Bearer test-token");
  });

  it("--quiet: the answer on stdout and nothing on stderr, not even the text before tool calls", async () => {
    api.script(
      reply([text("Let me search."), toolUse("toolu_1", "grep", { pattern: "safe_path" })]),
      reply([text("app.py:3")]),
    );
    const run = await scout(["-p", "where is safe_path?", "--quiet"]);
    expect(run.stdout).toBe("app.py:3\n");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("--trace writes one JSON object per line, with the full tool input and result", async () => {
    api.script(reply([toolUse("toolu_1", "grep", { pattern: "normpath" })]), reply([text("app.py:4")]));
    const trace = path.join(traceDir(), "trace.jsonl"); // outside the workspace, where grep would find it
    const run = await scout(["-p", "who calls normpath?", "--trace", trace]);
    expect(run.code).toBe(0);

    const records = fs
      .readFileSync(trace, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.type)).toEqual(["question", "model", "tool", "model", "turn"]);
    expect(records[0]).toMatchObject({ text: "who calls normpath?" });
    // n is the step log's [n]; the model's whole message is there, tool_use blocks included.
    expect(records[1]).toMatchObject({
      n: 1,
      stopReason: "tool_use",
      usage: { input_tokens: 100, output_tokens: 20 },
      request: { messages: 1 },
      content: [{ type: "tool_use", id: "toolu_1", name: "grep", input: { pattern: "normpath" } }],
    });
    expect(records[2]).toMatchObject({
      n: 2,
      name: "grep",
      input: { pattern: "normpath" },
      result: { content: "app.py:4:    return os.path.normpath(p)", is_error: false },
    });
    expect(records[3]).toMatchObject({ n: 3, request: { messages: 3 }, content: [{ type: "text", text: "app.py:4" }] });
    expect(records[4].result).toMatchObject({ text: "app.py:4", toolCalls: ["grep"], modelCalls: 2 });
    expect(stepLines(run.stderr).map((line) => line.split(" ")[0])).toEqual(["[1]", "[2]", "[3]"]);
  });

  it("--trace of a failed first turn holds the question and the failure", async () => {
    api.script(apiError(400, "invalid_request_error", "prompt is too long"));
    const trace = path.join(traceDir(), "trace.jsonl"); // outside the workspace, where grep would find it
    const run = await scout(["-p", "hello?", "--trace", trace]);
    expect(run.code).toBe(1);
    const records = fs
      .readFileSync(trace, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records).toMatchObject([
      { type: "question", text: "hello?" },
      { type: "failure", kind: "api_error", message: "invalid request (400): prompt is too long" },
    ]);
  });

  it("-p with piped stdin sends it along with the question, delimited, and says how big it was", async () => {
    api.script(reply([text("It divides.")]));
    const run = await scout(["-p", "explain this"], { input: "def f(x):\n    return x / 2\n" });
    expect(run.code).toBe(0);
    expect(messagesOf(0)).toEqual([
      { role: "user", content: "explain this\n\n<stdin>\ndef f(x):\n    return x / 2\n\n</stdin>" },
    ]);
    expect(run.stderr).toContain("(stdin: 27 characters sent with the question)\n");
    expect(run.stdout).toBe("It divides.\n");
  });

  /** One `-p --json` run read by the two tests below (each Claude-mode process costs ~0.6 s of CPU). */
  let jsonRun: Promise<CliRun> | undefined;
  const jsonTurn = () => {
    if (!jsonRun) {
      api.script(reply([toolUse("toolu_1", "grep", { pattern: "normpath" })]), reply([text("app.py:4")]));
      jsonRun = scout(["-p", "who calls normpath?", "--json", "--model", "claude-haiku-4-5"]);
    }
    return jsonRun;
  };

  it("--json with -p: one JSON object on stdout with the answer, steps, usage and duration", async () => {
    const run = await jsonTurn();
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      answer: "app.py:4",
      stop_reason: "end_turn",
      steps: [
        { n: 1, type: "model", stop_reason: "tool_use" },
        { n: 2, type: "tool", name: "grep", input: { pattern: "normpath" }, is_error: false, skipped: false },
        { n: 3, type: "model", stop_reason: "end_turn" },
      ],
      usage: { input_tokens: 200, output_tokens: 40 },
    });
    expect(report.duration_ms).toBeGreaterThanOrEqual(0);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
  });

  it("--json also says the model, the cost in dollars and whether it is an estimate, each step's usage, each tool result's size", async () => {
    const run = await jsonTurn();
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.model).toBe("claude-haiku-4-5");
    // 200 input tokens at $1 and 40 output tokens at $5 per million (Haiku 4.5, src/tokens/prices.ts)
    expect(report.cost).toEqual({ dollars: 0.0004, estimate: false, priced_as: "claude-haiku-4-5" });
    expect(report.steps[0].usage).toEqual({ input_tokens: 100, output_tokens: 20 });
    expect(report.steps[1].result_chars).toBe("app.py:4:    return os.path.normpath(p)".length);
    const offline = await scout(["-p", "who calls normpath?", "--json", "--offline"]);
    expect(JSON.parse(offline.stdout)).toMatchObject({ model: "offline-teacher", cost: { estimate: true } });
  });

  it("--json when the model call fails: the object says why, exit status 1", async () => {
    api.script(apiError(400, "invalid_request_error", "nope"));
    const run = await scout(["-p", "hello?", "--json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: "", error: "invalid request (400): nope" });
  });
});

describe("piped stdin through the real SDK", { timeout: 60_000 }, () => {
  it("answers each line, and the second request carries the first turn", async () => {
    api.script(
      reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]),
      reply([text("At app.py:3.")]),
      reply([text("It returns a normalised path.")]),
    );
    const run = await scout([], { input: "where is safe_path defined?\nwhat does it return?\n" });

    expect(api.requests).toHaveLength(3);
    expect(messagesOf(2)).toEqual([
      ...messagesOf(1),
      { role: "assistant", content: [{ type: "text", text: "At app.py:3." }] },
      { role: "user", content: "what does it return?" },
    ]);
    expect(run.stdout).toBe("At app.py:3.\n\n---\n\nIt returns a normalised path.\n"); // a rule between answers
    expect(run.stderr.match(/^turn: /gm)).toHaveLength(2);
    expect(run.stderr).not.toContain("waiting for the model"); // the indicator is for terminals only
    expect(run.code).toBe(0);
  });

  it("max_tokens: the partial answer is shown and said to be cut; the history drops the unfinished tool call", async () => {
    api.script(
      reply([text("The answer is"), toolUse("toolu_1", "grep", { pattern: "x" })], "max_tokens"),
      reply([text("Second answer.")]),
    );
    const run = await scout([], { input: "first?\nsecond?\n" });

    expect(run.stdout).toBe("The answer is\n\n---\n\nSecond answer.\n");
    expect(run.stderr).toContain("(the answer was cut: the model reached its output token limit)");
    expect(messagesOf(1)).toEqual([
      { role: "user", content: "first?" },
      { role: "assistant", content: [{ type: "text", text: "The answer is" }] },
      { role: "user", content: "second?" },
    ]);
    expect(run.code).toBe(0);
  });

  it("--trace keeps every step already done when Scout is killed mid-turn", async () => {
    api.script(reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]), hang);
    const trace = path.join(traceDir(), "trace.jsonl"); // outside the workspace, where grep would find it
    const { child, exited } = startScout(["--trace", trace]);
    child.stdin.end("where is safe_path?\n");
    await api.waitForRequests(2); // the grep has run and its result is on its way back
    child.kill("SIGKILL");
    await exited;

    const records = fs
      .readFileSync(trace, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.type)).toEqual(["question", "model", "tool"]);
    expect(records[2].result.content).toBe("app.py:3:def safe_path(p):");
  });

  it.each([
    // The 529 waits Scout's own first wait (1 s); the 429 carries a retry-after, as the API's do, and waits that.
    [529, "overloaded_error", "overloaded (529)", undefined, 1],
    [429, "rate_limit_error", "rate limited (429)", 0, 0],
  ])(
    "a %i answered once is retried, with one line saying so and how long it waits",
    async (status, type, why, retryAfter, waits) => {
      api.script(apiError(status, type, "Try later", retryAfter), reply([text("Fine now.")]));
      const run = await scout(["-p", "hello?"]);

      expect(api.requests).toHaveLength(2);
      expect(api.requests[1].body).toEqual(api.requests[0].body);
      expect(run.stdout).toBe("Fine now.\n");
      expect(run.stderr.split("\n").filter((line) => /retry|error/i.test(line))).toEqual([
        `(${why}, retrying in ${waits} s (1/2))`,
      ]);
      expect(run.code).toBe(0);
    },
  );

  it("a 529 that lasts through the retries is one line saying so, and the next question works", async () => {
    // retry-after: 0, so the test does not wait; Scout's own waits (1 s, 2 s) are seen when the server is not there.
    const overloaded = apiError(529, "overloaded_error", "Overloaded", 0);
    api.script(overloaded, overloaded, overloaded, reply([text("Back.")]));
    const run = await scout([], { input: "first?\nsecond?\n" });

    expect(api.requests).toHaveLength(4); // the first try and 2 retries, then the second question
    expect(run.stderr).toContain("(overloaded (529), retrying in 0 s (1/2))\n");
    expect(run.stderr).toContain("(overloaded (529), retrying in 0 s (2/2))\n");
    expect(run.stderr.split("\n").filter((line) => line.startsWith("scout:"))).toEqual([
      "scout: overloaded, still after retries: Overloaded",
    ]);
    expect(run.stdout).toBe("Back.\n");
    expect(run.code).toBe(1);
  });

  it("a 400 is one clear line with the API's message; the next question is answered; exit status 1", async () => {
    api.script(
      apiError(400, "invalid_request_error", "messages.0.content: field required"),
      reply([text("Second answer.")]),
    );
    const run = await scout([], { input: "first?\nsecond?\n" });

    expect(api.requests).toHaveLength(2); // a 400 is not retried
    const errorLines = run.stderr.split("\n").filter((line) => line.includes("field required"));
    expect(errorLines).toEqual(["scout: invalid request (400): messages.0.content: field required"]);
    expect(run.stderr).not.toMatch(/^\s+at /m); // no stack trace
    // The failed turn left nothing behind: the second request holds only the second question.
    expect(messagesOf(1)).toEqual([{ role: "user", content: "second?" }]);
    expect(run.stdout).toBe("Second answer.\n");
    expect(run.code).toBe(1);
  });

  it("after a turn that failed part-way, the next turn's steps are numbered from 1 again", async () => {
    api.script(
      reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]),
      apiError(400, "invalid_request_error", "too long"),
      reply([text("Second answer.")]),
    );
    const run = await scout([], { input: "first?\nsecond?\n" });

    expect(run.stderr).toContain("scout: invalid request (400): too long");
    expect(stepLines(run.stderr).map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual([
      "[1] model",
      "[2] grep",
      "[1] model",
    ]);
    expect(run.code).toBe(1);
  });

  it("an overload in the middle of a stream is one line saying so (not retried), and the next question works", async () => {
    api.script(streamError("overloaded_error", "Overloaded"), reply([text("Back.")]));
    const run = await scout([], { input: "first?\nsecond?\n" });

    expect(api.requests).toHaveLength(2);
    expect(run.stderr.split("\n").filter((line) => line.startsWith("scout:"))).toEqual([
      "scout: overloaded, in the middle of the answer: Overloaded",
    ]);
    expect(messagesOf(1)).toEqual([{ role: "user", content: "second?" }]);
    expect(run.stdout).toBe("Back.\n");
    expect(run.code).toBe(1);
  });

  it("a refused key is one line that names the variables to check", async () => {
    api.script(apiError(401, "authentication_error", "invalid x-api-key"));
    const run = await scout(["-p", "hello?"]);

    expect(api.requests).toHaveLength(1);
    expect(run.stderr.trimEnd()).toBe(
      "scout: bad key: the API refused the credentials (ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN): invalid x-api-key",
    );
    expect(run.stdout).toBe("");
    expect(run.code).toBe(1);
  });

  it("a 403 says forbidden, not a bad key", async () => {
    api.script(apiError(403, "permission_error", "this key may not use that model"));
    const run = await scout(["-p", "hello?"]);
    expect(run.stderr).toMatch(/^scout: forbidden \(403\): .*this key may not use that model$/m);
    expect(run.stderr).not.toContain("bad key");
    expect(run.code).toBe(1);
  });

  it("a server that is not there is one line naming the address, after two retries", async () => {
    const gone = api.url;
    await api.close(); // nothing listens on that port now
    const run = await scout(["-p", "hello?"], { env: { ANTHROPIC_BASE_URL: gone } });

    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual([
      "(could not reach the API, retrying in 1 s (1/2))",
      "(could not reach the API, retrying in 2 s (2/2))",
    ]);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(
      `scout: network: could not reach the API at ${gone} (connect ECONNREFUSED ${gone.replace("http://", "")})`,
    );
    expect(run.code).toBe(1);
  });

  it("SIGINT during a turn cancels it and ends the whole batch: exit status 130", async () => {
    api.script(hang, reply([text("The second answer.")]));
    const { child, exited } = startScout();
    child.stdin.end("a question that never gets an answer\nthe next question\n");
    await api.waitForRequests(1);
    child.kill("SIGINT");
    const run = await exited;

    expect(run.stderr).toContain("(cancelled; the conversation is as it was before this question)");
    expect(api.requests).toHaveLength(1); // the next line is not asked
    expect(run.stdout).toBe("");
    expect(run.code).toBe(130);
  });

  it("SIGINT in the middle of a streamed answer: no partial answer on stdout, exit status 130", async () => {
    api.script(stall("The answer begins"), reply([text("The second answer.")]));
    const { child, exited } = startScout();
    child.stdin.end("first?\nsecond?\n");
    await api.waitForStalls(1); // the partial text has left the server: SIGINT comes in the middle of the answer
    child.kill("SIGINT");
    const run = await exited;

    expect(run.stderr).toContain("(cancelled; the conversation is as it was before this question)");
    expect(run.stdout).toBe("");
    expect(run.code).toBe(130);
  });

  it("-p: SIGINT cancels the question, exit status 130", async () => {
    api.script(hang);
    const { child, exited } = startScout(["-p", "a question that hangs"]);
    child.stdin.end();
    await api.waitForRequests(1);
    child.kill("SIGINT");
    const run = await exited;
    expect(run.stderr).toContain("(cancelled: no answer)");
    expect(run.stderr).not.toContain("conversation");
    expect(run.code).toBe(130);
  });

  it("/exit stops reading even while stdin stays open", async () => {
    api.script(reply([text("First answer.")]));
    const { child, exited } = startScout();
    child.stdin.write("first?\n/exit\nnever asked\n"); // and stdin is not closed
    const run = await exited;

    expect(run.stdout).toBe("First answer.\n");
    expect(api.requests).toHaveLength(1);
    expect(run.code).toBe(0);
  });
});

/** Starts the CLI with piped stdin that stays open until the test ends it. */
function startScout(args: string[] = []) {
  return startCli(["--cwd", root, "--no-cache", ...args], { cwd: root, env: claudeEnv() });
}
