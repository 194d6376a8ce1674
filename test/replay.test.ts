// --replay TRACE: a session recorded through the real SDK (against our Messages-API server) replays without a key,
// with the tools run live; the answers and steps match, a changed tool result is flagged, and a wrong question or
// a broken trace stops with a message that names what is wrong.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply, startApiServer, text, toolUse, type ApiServer } from "../lessons/cases/api-server.js";
import { makeTree, runCli } from "./helpers.js";
import { prompts, scoutOnPty } from "./pty.js";

const FILES = {
  "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n",
  "README.md": "# demo\n",
};
const QUESTION = "where is safe_path defined?";

let api: ApiServer;
let root: string;
let traces: string;
beforeEach(async () => {
  api = await startApiServer();
  root = makeTree(FILES);
  traces = makeTree({});
});
afterEach(() => api.close());

const keyless = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, ANTHROPIC_BASE_URL: undefined };
const stepLines = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => /^\[\d+\] /.test(line))
    .map((line) => line.replace(/ · \d+ ms/g, "")); // times differ from run to run

/** Records QUESTION with Claude mode (the real SDK, our server) into a trace file; returns the run and the file. */
async function record() {
  api.script(
    reply(
      [text("Searching for the definition."), toolUse("toolu_1", "grep", { pattern: "def safe_path" })],
      undefined,
      {
        input_tokens: 1200,
        output_tokens: 40,
      },
    ),
    reply([text("`safe_path` is defined at app.py:3.")], undefined, { input_tokens: 1400, output_tokens: 20 }),
  );
  const trace = path.join(traces, "session.jsonl");
  const run = await runCli(["--cwd", root, "--no-cache", "--trace", trace, "-p", QUESTION], {
    cwd: root,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_AUTH_TOKEN: undefined },
    timeoutMs: 60_000,
  });
  expect(run.code, run.stderr).toBe(0);
  return { run, trace };
}

const replay = (trace: string, question = QUESTION, cwd = root) =>
  runCli(["--cwd", cwd, "--replay", trace, "-p", question], { cwd, env: keyless, timeoutMs: 60_000 });

describe("scout --replay TRACE", { timeout: 120_000 }, () => {
  it("replays a recorded Claude session without a key: the same answer and steps, usage as recorded", async () => {
    const { run: recorded, trace } = await record();
    const replayed = await replay(trace);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(stepLines(replayed.stderr)).toEqual(stepLines(recorded.stderr));
    expect(replayed.stderr).toContain("1,200 in / 40 out tokens"); // the recorded usage, not an estimate
    expect(replayed.stderr).toContain("replay of");
    expect(replayed.stderr).not.toContain("differs from the recording");
    expect(api.requests.length).toBe(2); // only the recording talked to the server
  });

  it("flags a live tool result that differs from the recorded one, and goes on with the recorded turn", async () => {
    const { run: recorded, trace } = await record();
    const other = makeTree({ "app.py": "\n\nimport os\ndef safe_path(p):\n    return p\n" }); // another checkout
    const replayed = await replay(trace, QUESTION, other);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain(
      "(replay: the live grep result differs from the recording; going on with the recorded turn)",
    );
    expect(replayed.stdout).toBe(recorded.stdout);
  });

  it("stops with a clear message when the question is not the recorded one", async () => {
    const { trace } = await record();
    const replayed = await replay(trace, "who calls safe_path?");
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain(
      `replay: this is not the recorded question: the recording's question 1 (line 1) is "${QUESTION}"`,
    );
  });

  it("refuses a hand-edited or older trace, naming the line, the record and the field", async () => {
    const { trace } = await record();
    const lines = fs.readFileSync(trace, "utf8").trim().split("\n");
    const modelLine = lines.findIndex((line) => JSON.parse(line).type === "model");
    const edited = JSON.parse(lines[modelLine]);
    delete edited.usage;
    lines[modelLine] = JSON.stringify(edited);
    const broken = path.join(traces, "broken.jsonl");
    fs.writeFileSync(broken, `${lines.join("\n")}\n`);
    const replayed = await replay(broken);
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toContain(
      `scout: ${broken} line ${modelLine + 1} (a model record): field "usage" must hold input_tokens and output_tokens as numbers`,
    );
    const notJson = path.join(traces, "not-json.jsonl");
    fs.writeFileSync(notJson, `${lines[0]}\n{"type": "model",\n`);
    expect((await replay(notJson)).stderr).toContain(`scout: ${notJson} line 2: not a JSON record`);
  });

  it("works with --step in the REPL: a pause before each recorded model call and each live tool call", async () => {
    const { trace } = await record();
    const pty = scoutOnPty(root, keyless, { args: ["--cwd", root, "--replay", trace, "--step"] });
    await pty.waitFor(/you > /);
    pty.type(`${QUESTION}\r`);
    await pty.waitFor(/⏸ \[1\] next: model call with 1 message/);
    pty.type(" ");
    await pty.waitFor(/⏸ \[2\] next: grep \{"pattern":"def safe_path"\}/);
    pty.type(" ");
    await pty.waitFor(/⏸ \[3\] next: model call with 3 messages, 1,200 input tokens so far/);
    pty.type(" ");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain("safe_path is defined at app.py:3."); // on a terminal the answer's Markdown is drawn: no backticks
    expect(pty.screen()).toContain("1,400 in / 20 out tokens");
  });
});
