// Hostile input on the surfaces around the loop (issue 27): files a person names (--trace, a question set,
// --html), what the API sends (usage, tool inputs, answer size, error bodies), and the lab's regexes and workspace.
// Each case runs the real CLI, offline or against the scripted Messages-API server, and must end within seconds.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeApiError } from "../src/models/api-errors.js";
import { PersonFileAppender, readPersonFile } from "../src/person-file.js";
import { MAX_TOOL_CALLS_PER_MESSAGE } from "../src/guards/tool-calls.js";
import { type ApiServer, apiError, events, reply, startApiServer, text, toolUse } from "../lessons/cases/api-server.js";
import { CLI, type CliRun, makeTree, runCli } from "./helpers.js";

const FILES = { "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n" };
const OFFLINE = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, SCOUT_MODEL: undefined };

let api: ApiServer;
beforeEach(async () => {
  api = await startApiServer();
});
afterEach(() => api.close());
const claude = (extra: Record<string, string | undefined> = {}) => ({
  ANTHROPIC_BASE_URL: api.url,
  ANTHROPIC_API_KEY: "test-key",
  ANTHROPIC_AUTH_TOKEN: undefined,
  SCOUT_MODEL: undefined,
  ...extra,
});
/** Scout against the scripted server; a stuck child is killed (and fails) after 30 s. */
const scout = (root: string, args: string[], env = claude()) =>
  runCli(["--cwd", root, "--no-cache", ...args], { cwd: root, env, timeoutMs: 30_000 });
const toolResults = (n: number) =>
  (api.requests[n].body.messages.at(-1).content as { type: string; content: string; is_error?: boolean }[]).filter(
    (block) => block.type === "tool_result",
  );

describe("27.4 files a person names: never blocking, regular files only, bounded, one line on failure", () => {
  const dir = makeTree({ "old.jsonl": "" });
  const fifo = path.join(dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  fs.symlinkSync("/dev/zero", path.join(dir, "zero-link"));

  it.each([
    ["a FIFO with no reader (open() blocked)", fifo, /--trace .*pipe: cannot write it: .*ENXIO/],
    ["/dev/full (raw ENOSPC)", "/dev/full", /--trace \/dev\/full: a device, not a regular file/],
    ["a folder", dir, /--trace .*: cannot write it: a directory \(EISDIR\)/],
  ])("--trace to %s: exit 2, one line naming --trace", async (_, file, message) => {
    const run = await runCli(["--cwd", dir, "-p", "q", "--trace", file], { env: OFFLINE, timeoutMs: 15_000 });
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+|unexpected error/);
    expect(run.code).toBe(2);
  });

  it("--trace to a FIFO whose reader is there (and may leave: EPIPE) is refused too", async () => {
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const run = await runCli(["--cwd", dir, "-p", "q", "--trace", fifo], { env: OFFLINE, timeoutMs: 15_000 });
      expect(run.stderr).toContain("a named pipe (FIFO), not a regular file");
      expect(run.code).toBe(2);
    } finally {
      fs.closeSync(reader);
    }
  });

  it("a write that fails mid-session (the file size limit) says one line and the session goes on", async () => {
    const root = makeTree(FILES);
    const trace = path.join(root, "t.jsonl");
    api.script(reply([text(`Answer ${"x".repeat(3000)}`)]), reply([text("Second answer.")]));
    // ulimit -f 2: writes past 2 KiB fail with EFBIG (bash sets the limit, then runs node, which ignores SIGXFSZ).
    const command = `ulimit -f 2; exec "${process.execPath}" "${CLI}" --cwd "${root}" --no-cache --trace "${trace}"`;
    const child = spawn("bash", ["-c", `${command} 2>&1`], {
      env: { ...process.env, ...claude(), NO_COLOR: "1" } as NodeJS.ProcessEnv,
    });
    let run = "";
    child.stdout.on("data", (chunk) => {
      run += chunk;
    });
    child.stdin.end("first question\nsecond question\n");
    expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
    expect(run).toMatch(
      /scout: --trace .*t\.jsonl: cannot write it: the file is too large \(EFBIG\); the trace stops here/,
    );
    expect(run.match(/--trace/g)).toHaveLength(1); // said once
    expect(run).toContain("Second answer.");
  });

  it.each([
    ["a FIFO (blocked)", fifo, /--trace .*pipe: a named pipe \(FIFO\), not a regular file/],
    ["/dev/zero (std::bad_alloc)", "/dev/zero", /--trace \/dev\/zero: a device, not a regular file/],
    ["a symlink to /dev/zero", path.join(dir, "zero-link"), /--trace .*zero-link: a device, not a regular file/],
  ])("scout tokens --trace on %s: exit 1, one line", async (_, file, message) => {
    const run = await runCli(["tokens", "--trace", file], { env: OFFLINE, timeoutMs: 15_000 });
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(1);
  });

  it("scout lab --html to a FIFO says so in one line instead of blocking in the write", async () => {
    const root = makeTree({ "a.py": "def alpha():\n    pass\n" });
    const set = path.join(root, "set.json");
    const question = { id: "q1", question: "Where is alpha defined?", expect: { locations: ["a.py:1"] } };
    fs.writeFileSync(set, JSON.stringify({ questions: [question] }));
    const run = await runCli(["lab", set, "--html", fifo], { env: OFFLINE, timeoutMs: 30_000 });
    expect(run.stderr).toMatch(/scout lab: --html .*pipe: cannot write it: .*ENXIO/);
    expect(run.code).toBe(1);
  });

  it("the helper stops reading at its cap, and an appender stops writing at its own", () => {
    const file = path.join(dir, "big.txt");
    fs.writeFileSync(file, "x".repeat(1001));
    expect(() => readPersonFile(file, { option: "--thing", maxBytes: 1000 })).toThrow(
      `--thing ${file}: over 1000 bytes; not read`,
    );
    expect(readPersonFile(file, { option: "--thing", maxBytes: 1001 })).toHaveLength(1001);
    const appender = new PersonFileAppender(path.join(dir, "capped.txt"), { option: "--thing", maxBytes: 10 });
    appender.write("12345");
    expect(() => appender.write("678901")).toThrow("reached its cap of 10 bytes");
    appender.close();
  });

  it("a 50 MB trace of 100,000 calls is read in bounded memory (a copy of the conversation per call ran out)", async () => {
    const file = path.join(dir, "long.jsonl");
    const lines = [JSON.stringify({ type: "question", text: "q" })];
    const padding = "p".repeat(250);
    for (let i = 1; i <= 100_000; i++) {
      const content = [
        { type: "text", text: padding },
        { type: "tool_use", id: `t${i}`, name: "grep", input: {} },
      ];
      const usage = { input_tokens: 100, output_tokens: 10 };
      lines.push(
        JSON.stringify({
          type: "model",
          step: i,
          model: "claude-haiku-4-5",
          stopReason: "tool_use",
          usage,
          request: { messages: 2 * i - 1 },
          content,
        }),
      );
      lines.push(
        JSON.stringify({ type: "tool", step: i, name: "grep", input: {}, result: { content: "r", is_error: false } }),
      );
    }
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    expect(fs.statSync(file).size).toBeGreaterThan(50_000_000);
    const run = await runCli(["tokens", "--trace", file], {
      env: { ...OFFLINE, NODE_OPTIONS: "--max-old-space-size=1024" },
      timeoutMs: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("100,000 model calls");
    expect(run.stdout).toContain("where the input tokens went is shown for traces of at most 1,000 model calls");
    expect(run.code).toBe(0);
  }, 90_000);
});

describe("27.9 a trace holds everything sent: only its owner may read it", () => {
  it("is created 0600, and an older 0644 trace becomes 0600", async () => {
    const root = makeTree(FILES);
    const created = path.join(root, "new.jsonl");
    const older = path.join(root, "old.jsonl");
    fs.writeFileSync(older, "");
    fs.chmodSync(older, 0o644);
    for (const file of [created, older]) {
      const run = await runCli(["--cwd", root, "-p", "where is safe_path?", "--trace", file], { env: OFFLINE });
      expect(run.code).toBe(0);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, "utf8")).toContain('"type":"question"');
    }
  });
});

describe("27.8 credentials in ANTHROPIC_BASE_URL are never printed or recorded", () => {
  it("scout -p refuses the URL without showing it; nothing reaches the trace", async () => {
    const root = makeTree(FILES);
    const trace = path.join(root, "t.jsonl");
    const url = api.url.replace("http://", "http://user:PASSWORD@");
    const run = await scout(root, ["-p", "q", "--trace", trace], claude({ ANTHROPIC_BASE_URL: url }));
    expect(run.stderr).toContain("ANTHROPIC_BASE_URL holds credentials (user:password@)");
    expect(run.stderr + run.stdout).not.toContain("PASSWORD");
    expect(fs.existsSync(trace) ? fs.readFileSync(trace, "utf8") : "").not.toContain("PASSWORD");
    expect(run.code).toBe(2);
  });

  it("scout lab --model refuses it too, and a value that is not a URL is not echoed when it holds an @", async () => {
    const root = makeTree(FILES);
    const set = path.join(root, "set.json");
    fs.writeFileSync(set, JSON.stringify({ questions: [{ id: "a", question: "q?", expect: { pattern: "x" } }] }));
    const url = api.url.replace("http://", "http://user:PASSWORD@");
    const lab = await runCli(["lab", set, "--model", "claude-haiku-4-5"], { env: claude({ ANTHROPIC_BASE_URL: url }) });
    expect(lab.stderr).toContain("holds credentials");
    expect(lab.stderr).not.toContain("PASSWORD");
    expect(lab.code).toBe(2);
    const bare = await scout(root, ["-p", "q"], claude({ ANTHROPIC_BASE_URL: "user:PASSWORD@host" }));
    expect(bare.stderr).toContain("ANTHROPIC_BASE_URL is not an http(s) address: (not shown");
    expect(bare.stderr).not.toContain("PASSWORD");
  });

  it("every API error line has a URL's credentials cut out (the fetch error quotes the URL)", async () => {
    const line = await describeApiError(new Error("cannot reach http://user:PASSWORD@127.0.0.1:1/v1/messages"));
    expect(line).toBe("unexpected error: cannot reach http://…@127.0.0.1:1/v1/messages");
  });
});

describe("27.13 escapes: the same rule for API error bodies and --json", () => {
  const hostile = "bad \x1b]0;owned\x07 \x1b[31mred \u009b2J end";
  it("a count_tokens 400 body under scout lab --model reaches the terminal escaped", async () => {
    const root = makeTree(FILES);
    const set = path.join(root, "set.json");
    fs.writeFileSync(set, JSON.stringify({ questions: [{ id: "a", question: "q?", expect: { pattern: "x" } }] }));
    api.scriptCount(apiError(400, "invalid_request_error", hostile));
    const run = await runCli(["lab", set, "--model", "claude-haiku-4-5"], { env: claude(), timeoutMs: 30_000 });
    expect(run.stderr).toContain("bad \\x1b]0;owned\\x07 \\x1b[31mred \\x9b2J end");
    expect(run.stderr).not.toMatch(/[\x07\x1b\u009b]/);
    expect(run.code).toBe(1);
  });

  it("-p --json writes C1 controls as \\u escapes (JSON.stringify leaves them raw)", async () => {
    const root = makeTree(FILES);
    api.script(reply([text(`An answer ${"\u009b"}31m with a C1 CSI and DEL \u007f.`)]));
    const run = await scout(root, ["-p", "q", "--json"]);
    expect(run.stdout).not.toMatch(/[\u007f-\u009f]/);
    expect(run.stdout).toContain("\\u009b31m");
    expect(JSON.parse(run.stdout).answer).toBe(`An answer ${"\u009b"}31m with a C1 CSI and DEL \u007f.`);
  });
});

describe("27.15 usage that is not a count of tokens is treated as unknown, and said once", () => {
  it.each([
    ["a string", "100"],
    ["negative", -5],
    ["huge", 1e308],
    ["a string with letters", "12abc"],
  ])("input_tokens %s: no NaN, no string sums, one notice; the trace reads back", async (_, bad) => {
    const root = makeTree(FILES);
    const trace = path.join(root, "t.jsonl");
    const usage = { input_tokens: bad, output_tokens: 20 } as unknown as {
      input_tokens: number;
      output_tokens: number;
    };
    api.script(
      reply([toolUse("t1", "grep", { pattern: "safe_path" })], "tool_use", usage),
      reply([text("A.")], "end_turn", usage),
    );
    const run = await scout(root, ["-p", "q", "--trace", trace]);
    expect(run.code).toBe(0);
    const notice = (line: string) => line.includes("not a count of tokens"); // it names the bad figure
    expect(run.stderr.split("\n").filter((line) => !notice(line))).not.toContainEqual(
      expect.stringMatching(/NaN|01001|1e\+308|12abc|Infinity/),
    );
    expect(run.stderr.match(/not a count of tokens/g)).toHaveLength(1);
    expect(run.stderr).toMatch(/turn: .* · 0 input tokens · 40 output tokens/);
    const handWritten = path.join(root, "hand.jsonl");
    const records = fs
      .readFileSync(trace, "utf8")
      .replace(/"input_tokens":0/g, `"input_tokens":${JSON.stringify(bad)}`);
    fs.writeFileSync(handWritten, records);
    const tokens = await runCli(["tokens", "--trace", handWritten], { env: OFFLINE });
    expect(tokens.stdout).not.toMatch(/NaN|01001|1e\+308|12abc/);
    expect(tokens.stdout).toContain("2 model calls reported usage that is not a count of tokens; counted as 0");
    expect(tokens.code).toBe(0);
  });
});

describe("27.17 malformed tool input from the model: an is_error result, and the turn goes on", () => {
  const start = {
    type: "message_start",
    message: {
      id: "m",
      type: "message",
      role: "assistant",
      model: "claude-haiku-4-5",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  };
  const end = [
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ];
  const toolBlock =
    (block: Record<string, unknown>, ...json: string[]) =>
    (id: string) => [
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id, name: "read_file", ...block },
      },
      ...json.map((partial_json) => ({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json },
      })),
      { type: "content_block_stop", index: 0 },
    ];
  // Written by hand: JSON.stringify itself overflows the stack at this depth.
  const deep = `{"path":${'{"a":'.repeat(10_000)}"x"${"}".repeat(10_000)}}`;
  const cases: [string, (id: string) => { type: string; [key: string]: unknown }[], RegExp][] = [
    ["a tool_use block with no input", toolBlock({}), /Not run: the tool call has no input/],
    [
      "malformed input_json_delta",
      toolBlock({ input: {} }, '{"path": "app', '.py",,}}'),
      /Not run: the tool call's input is not valid JSON/,
    ],
    [
      "input that is an array",
      toolBlock({ input: {} }, "[1, 2]"),
      /Not run: the tool call's input must be a JSON object of arguments, got an array/,
    ],
    ["input that is a string", toolBlock({ input: {} }, '"app.py"'), /got string/],
    ["input nested 10,000 deep", toolBlock({ input: {} }, deep), /nested more than 32 levels deep/],
  ];
  // One turn for all the cases (a Claude-mode process costs ~0.6 s of CPU): the model sends each malformed
  // call in its own message, one after the other, then answers; each case reads the request that followed it.
  let turn: Promise<{ run: CliRun; requests: ApiServer["requests"] }> | undefined;
  const theTurn = () =>
    (turn ??= (async () => {
      const own = await startApiServer();
      try {
        own.script(
          ...cases.map(([, block], i) => events(start, ...block(`t${i}`), ...end)),
          reply([text("Answered anyway.")]),
        );
        const root = makeTree(FILES);
        const run = await runCli(["--cwd", root, "--no-cache", "-p", "q"], {
          cwd: root,
          env: { ...claude(), ANTHROPIC_BASE_URL: own.url },
          timeoutMs: 30_000,
        });
        return { run, requests: own.requests };
      } finally {
        own.close();
      }
    })());
  it.each(cases.map(([name, , message], i) => [name, i, message] as const))("%s", async (_, i, message) => {
    const { run, requests } = await theTurn();
    const after = requests[i + 1]?.body.messages ?? [];
    const results = after.at(-1)?.content.filter((block: { type: string }) => block.type === "tool_result");
    expect(results, run.stderr).toHaveLength(1);
    expect(results[0].tool_use_id).toBe(`t${i}`);
    expect(results[0].content).toMatch(message);
    expect(results[0].is_error).toBe(true);
    expect(after.at(-2).content.find((b: { type: string }) => b.type === "tool_use").input).toEqual({});
    // And the turn went on to the answer.
    expect(run.stderr).not.toContain("unexpected error");
    expect(requests).toHaveLength(cases.length + 1);
    expect(run.stdout).toContain("Answered anyway.");
    expect(run.code).toBe(0);
  });
});

describe("27.18 what one message may ask and say is capped", () => {
  it(`runs at most ${MAX_TOOL_CALLS_PER_MESSAGE} tool calls of one message; the rest get an is_error result saying so`, async () => {
    const root = makeTree(FILES);
    const calls = Array.from({ length: 1000 }, (_, i) => toolUse(`t${i}`, "read_file", { path: "app.py" }));
    api.script(reply(calls), reply([text("Done.")]));
    const run = await scout(root, ["-p", "q", "--quiet"]);
    expect(run.code).toBe(0);
    const results = toolResults(1);
    expect(results).toHaveLength(1000);
    expect(results.filter((r) => !r.is_error)).toHaveLength(MAX_TOOL_CALLS_PER_MESSAGE);
    expect(results[MAX_TOOL_CALLS_PER_MESSAGE].content).toMatch(
      /^Not run: one message may ask for at most 25 tool calls \(MAX_TOOL_CALLS_PER_MESSAGE\); this was call 26\./,
    );
    expect(JSON.stringify(api.requests[1].body).length).toBeLessThan(1_000_000); // 28.9 MB before
  });

  it("an answer past 8 MiB is cut off with one line, and the conversation is as it was", async () => {
    const root = makeTree(FILES);
    api.script(reply([text("x".repeat(9 * 1024 * 1024))]));
    const run = await scout(root, ["-p", "q"]);
    expect(run.stderr).toContain("scout: the API's answer passed 8 MiB (MAX_ANSWER_BYTES)");
    expect(run.stdout.length).toBeLessThan(9 * 1024 * 1024);
    expect(run.code).toBe(1);
    expect(api.requests).toHaveLength(1); // not retried
  });
});

describe("27.6 a lab set's regexes are stopped after a second", () => {
  it("a location regex that backtracks on a line: exit 2 within seconds, naming the location", async () => {
    const root = makeTree({ "a.txt": `${"a".repeat(40)}!\n` });
    const set = path.join(root, "set.json");
    const question = { id: "q1", question: "q?", expect: { locations: ["a.txt:/^(a+)+$/"] } };
    fs.writeFileSync(set, JSON.stringify({ questions: [question] }));
    const run = await runCli(["lab", set], { env: OFFLINE, timeoutMs: 30_000 });
    expect(run.stderr).toMatch(/"expect.locations\[0\]" "a.txt:\/\^\(a\+\)\+\$\/": a regular expression ran over 1 s/);
    expect(run.code).toBe(2);
  });

  it("a pattern that backtracks on the model's answer grades it wrong, saying why, and the lab goes on", async () => {
    const root = makeTree({ "sample.py": "def alpha():\n    pass\n" });
    const set = path.join(root, "set.json");
    const question = { id: "q1", question: "Where is alpha defined?", expect: { pattern: "^(.+)+@@@$" } };
    fs.writeFileSync(set, JSON.stringify({ questions: [question] }));
    const run = await runCli(["lab", set, "--json"], { env: OFFLINE, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const [graded] = JSON.parse(run.stdout).variants[0].questions[0].runs;
    expect(graded.right).toBe(false);
    expect(graded.why).toContain("the pattern was stopped: a regular expression ran over 1 s");
  });
});

describe("27.12 a lab set's workspace obeys --cwd's rules, and is never / or the home folder unless --cwd asks", () => {
  const home = makeTree({ "repo/.git/config": "[core]\n", "repo/a.py": "x = 1\n" });
  const set = (workspace: string) => {
    const file = path.join(home, `set-${Math.random().toString(36).slice(2)}.json`);
    const question = { id: "q1", question: "q?", expect: { pattern: "x" } };
    fs.writeFileSync(file, JSON.stringify({ workspace, questions: [question] }));
    return file;
  };
  it.each([
    ["/", /"workspace" "\/" is the root of the file system \(\/\); a set's workspace is a code folder \(pass --cwd/],
    [".", /"workspace" "\." is your home folder/],
    ["repo/.git", /"workspace" "repo\/\.git": .* is inside a protected folder \(\.git\)/],
    ["repo/a.py", /"workspace" "repo\/a\.py": not a directory/],
    ["nope", /"workspace" "nope": no such directory/],
  ])("workspace %j: exit 2, naming the field", async (workspace, message) => {
    const run = await runCli(["lab", set(workspace)], { env: { ...OFFLINE, HOME: home }, timeoutMs: 30_000 });
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
  });
});

describe("27.19 smaller: --runs in decimal digits, locations within the file", () => {
  const root = makeTree({ "app.py": "a = 1\nb = 2\n" });
  const set = (location: string) => {
    const file = path.join(root, `set-${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify({ questions: [{ id: "q1", question: "q?", expect: { locations: [location] } }] }),
    );
    return file;
  };
  it.each(["1e1", "0x2", " 2", "2 ", "+2", "2.0"])("--runs %j is refused", async (runs) => {
    const run = await runCli(["lab", set("app.py:1"), "--runs", runs], { env: OFFLINE });
    expect(run.stderr).toContain("--runs must be a whole number from 1 to 20 in decimal digits");
    expect(run.code).toBe(2);
  });
  it.each([
    ["app.py:3", /"app.py:3": app.py has 2 lines/],
    ["app.py:0", /"app.py:0": line numbers start at 1/],
  ])("location %s is refused", async (location, message) => {
    const run = await runCli(["lab", set(location)], { env: OFFLINE });
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
  });
});
