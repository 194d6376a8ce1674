// `scout --loop FILE`, `--tool FILE` and `--adapter FILE`: a learner's own code (lessons 2 and 7) in the real CLI.
// The files are TypeScript, run as they are; the CLI is the real one, as a child process.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { events, reply, startApiServer, text } from "../lessons/cases/api-server.js";
import { REPO_ROOT, runCli, treeMaker } from "./helpers.js";

const tree = treeMaker();
const OFFLINE = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, SCOUT_MODEL: undefined };
const SAMPLE = path.join(REPO_ROOT, "lessons/sample-project");

describe("a learner's own code in the real CLI", { timeout: 60_000 }, () => {
  it("--loop runs the file's runTurn: its answer, and Scout's tools through its imports", async () => {
    const own = tree({});
    const src = path.relative(own, path.join(REPO_ROOT, "src"));
    const file = path.join(own, "loop.ts");
    fs.writeFileSync(
      file,
      [
        `import type { MessageParam, TurnOptions, TurnResult } from "${src}/core/loop.js";`,
        `import { tools } from "${src}/core/scout.js";`,
        `import { runTool } from "${src}/core/tool.js";`,
        "export async function runTurn(question: string, history: MessageParam[], options: TurnOptions): Promise<TurnResult> {",
        '  const listed = await runTool("list_files", { path: "web" }, { workspace: options.workspace }, tools);',
        '  const text: string = "my loop: " + listed.content.split("\\n").join(", ");',
        '  history.push({ role: "user", content: question }, { role: "assistant", content: text });',
        "  const usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };",
        '  const result = { text, stopReason: "end_turn", modelCalls: 0, toolCalls: ["list_files"], usage };',
        "  // The step log prints what the loop reports: the answer's text, then the model step that wrote it.",
        "  options.onText?.(text);",
        '  const model = { type: "model_response", step: 1, model: "mine", stopReason: "end_turn", usage, ms: 0 } as const;',
        "  options.onStep?.({ ...model, sent: { messages: 0, tools: [] }, content: [] });",
        '  options.onStep?.({ type: "turn_end", result });',
        "  return result;",
        "}",
        "",
      ].join("\n"),
    );
    const run = await runCli(["--loop", file, "-p", "what is in web?"], { cwd: SAMPLE, env: OFFLINE });
    expect(run.stdout).toBe("my loop: src/, public/, tsconfig.json\n");
    expect(run.code).toBe(0);
  });

  it("--loop with lesson 2's solution answers as Scout does", async () => {
    const loop = path.join(REPO_ROOT, "lessons/solutions/loop.ts");
    const run = await runCli(["--loop", loop, "-p", "where is make_slug defined?"], { cwd: SAMPLE, env: OFFLINE });
    expect(run.stdout).toMatch(/^`make_slug` is defined at src\/shortly\/slugs\.py:12:/);
    expect(run.stderr).toMatch(/\nturn: grep → read_file → answer · 3 model calls/);
  });

  it("--tool puts the file's tool in place of Scout's of that name", async () => {
    const own = tree({
      "mine.ts":
        'export const listFiles = { name: "list_files", description: "mine", input_schema: { type: "object", properties: { path: { type: "string" } }, required: [], additionalProperties: false }, run: async () => ({ content: "only mine.txt", isError: false }) };\n',
    });
    const run = await runCli(["--tool", path.join(own, "mine.ts"), "-p", "what is in the web folder?"], {
      cwd: SAMPLE,
      env: OFFLINE,
    });
    expect(run.stderr).toMatch(/\[2\] list_files \{"path":"web"\} → /);
    expect(run.stdout).toContain("only mine.txt");
  });

  it("--adapter talks to the API through the file's makeModel (lesson 7's solution, over fetch)", async () => {
    const server = await startApiServer();
    try {
      server.script(reply([text("Through your adapter.")]));
      const adapter = path.join(REPO_ROOT, "lessons/solutions/model.ts");
      const run = await runCli(["--adapter", adapter, "-p", "hi"], {
        cwd: tree({ "a.txt": "a\n" }),
        env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url },
      });
      expect(run.stdout).toBe("Through your adapter.\n");
      expect(server.requests[0].headers["x-api-key"]).toBe("test-key");
    } finally {
      await server.close();
    }
  });

  it("--loop shares Scout's modules (the bin runs them, not its bundle): Scout's own runTurn, re-exported, still refuses a malformed tool input", async () => {
    const own = tree({ "app.py": "x = 1\n" });
    const src = path.relative(own, path.join(REPO_ROOT, "src"));
    fs.writeFileSync(path.join(own, "loop.ts"), `export { runTurn } from "${src}/core/loop.js";\n`);
    const server = await startApiServer();
    try {
      // The SDK's stream, as the API sends it, of a read_file call whose input is not JSON.
      const message = { id: "m", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [] };
      server.script(
        events(
          {
            type: "message_start",
            message: {
              ...message,
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 10, output_tokens: 1 },
            },
          },
          {
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "t1", name: "read_file", input: {} },
          },
          { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"path": "app' } },
          { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '.py",,}}' } },
          { type: "content_block_stop", index: 0 },
          {
            type: "message_delta",
            delta: { stop_reason: "tool_use", stop_sequence: null },
            usage: { output_tokens: 5 },
          },
          { type: "message_stop" },
        ),
        reply([text("Answered anyway.")]),
      );
      const run = await runCli(["--no-cache", "--loop", path.join(own, "loop.ts"), "-p", "q"], {
        cwd: own,
        env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url },
      });
      // Two copies of Scout's modules would see two UnreadableInput classes: "unknown argument "why"" instead.
      expect(run.stderr).toContain("Not run: the tool call's input is not valid JSON");
      expect(run.stdout).toBe("Answered anyway.\n");
    } finally {
      await server.close();
    }
  });

  it("says which export is missing, a file that is not there, and an adapter with no key: usage errors", async () => {
    const wrong = await runCli(["--loop", path.join(REPO_ROOT, "lessons/solutions/model.ts"), "-p", "q"], {
      cwd: SAMPLE,
      env: OFFLINE,
    });
    expect(wrong.stderr).toContain("scout: --loop: the file does not export a function runTurn");
    expect(wrong.code).toBe(2);
    const missing = await runCli(["--tool", "nope.ts", "-p", "q"], { cwd: SAMPLE, env: OFFLINE });
    expect(missing.stderr).toContain("scout: --tool nope.ts: no such file");
    const keyless = await runCli(["--adapter", path.join(REPO_ROOT, "lessons/solutions/model.ts"), "-p", "q"], {
      cwd: SAMPLE,
      env: OFFLINE,
    });
    expect(keyless.stderr).toContain("scout: --adapter talks to the Messages API: it needs ANTHROPIC_API_KEY");
    expect(keyless.code).toBe(2);
  });
});
