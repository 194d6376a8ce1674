// The offline teaching model in a real fixture project, through the real loop and tools.
import { describe, expect, it } from "vitest";
import { runTurn, type MessageParam, type StepEvent } from "../src/agent.js";
import { offlineModel } from "../src/models/offline.js";
import { Workspace } from "../src/workspace/workspace.js";
import { makeTree, runCli } from "./helpers.js";

const DAY = 86_400;
const fixture = () =>
  makeTree({
    "src/store.py": {
      content:
        "import json\n\n\nclass OrderStore:\n    def __init__(self, path):\n        self.path = path\n\n    def load(self):\n        return json.load(open(self.path))\n",
      mtime: 1_700_000_000,
    },
    "src/api.ts": {
      content:
        "import { parseOrder } from './parse';\n\nexport function handleRequest(body: string) {\n  return parseOrder(body);\n}\n",
      mtime: 1_700_000_000 + DAY,
    },
    "src/parse.ts": {
      content:
        "// Orders arrive as JSON text.\nexport function parseOrder(text: string) {\n  return JSON.parse(text);\n}\n",
      mtime: 1_700_000_000 + 2 * DAY,
    },
    "test/test_store.py": { content: "from src.store import OrderStore\n", mtime: 1_700_000_000 + 3 * DAY },
    "test/parse.test.ts": { content: "import { parseOrder } from '../src/parse';\n", mtime: 1_700_000_000 + 4 * DAY },
  });

async function ask(question: string) {
  const events: StepEvent[] = [];
  const history: MessageParam[] = [];
  const result = await runTurn(question, history, {
    model: offlineModel(),
    workspace: new Workspace(fixture()),
    onStep: (e) => events.push(e),
  });
  const tools = events.flatMap((e) => (e.type === "tool" ? [{ name: e.name, input: e.input }] : []));
  return { result, tools, history };
}

describe("offline teaching model", () => {
  it("answers 'where is X defined?' with grep, then read_file around the definition, citing path:line", async () => {
    const { result, tools } = await ask("where is parseOrder defined?");
    expect(tools).toEqual([
      { name: "grep", input: { pattern: "parseOrder" } },
      { name: "read_file", input: { path: "src/parse.ts", offset: 1, limit: 15 } },
    ]);
    expect(result.text).toContain("`parseOrder` is defined at src/parse.ts:2:");
    expect(result.text).toContain("2\texport function parseOrder(text: string) {");
    expect(result.text).toMatch(/also mentioned at test\/parse\.test\.ts:1, src\/api\.ts:1, src\/api\.ts:4/);
  });

  it("prefers a class definition over the newer files that only use the name", async () => {
    const { result, tools } = await ask("Where is the OrderStore class?");
    expect(tools[1]).toEqual({ name: "read_file", input: { path: "src/store.py", offset: 1, limit: 15 } });
    expect(result.text).toContain("`OrderStore` is defined at src/store.py:4:");
  });

  it("prefers a keyword definition over a newer line that starts with a call", async () => {
    const root = makeTree({
      "src/loop.ts": { content: "export async function runTurn(q: string) {\n  return q;\n}\n", mtime: 1_000 },
      "test/loop.test.ts": { content: "it('runs', async () => {\n  runTurn('q');\n});\n", mtime: 2_000 },
    });
    const result = await runTurn("where is runTurn defined?", [], {
      model: offlineModel(),
      workspace: new Workspace(root),
    });
    expect(result.text).toContain("`runTurn` is defined at src/loop.ts:1:");
  });

  it("says 'appears' when no hit looks like a definition", async () => {
    const { result } = await ask("where is JSON used?");
    expect(result.text).toMatch(/^`JSON` appears at src\/parse\.ts:1:/);
  });

  it("uses glob for a question about kinds of files", async () => {
    const { result, tools } = await ask("which test files are there?");
    expect(tools).toEqual([{ name: "glob", input: { pattern: "**/*{test,spec}*" } }]);
    expect(result.text).toBe(
      "Files matching `**/*{test,spec}*`, newest first:\n- test/parse.test.ts\n- test/test_store.py",
    );
  });

  it("uses list_files when asked what a folder holds", async () => {
    const { result, tools } = await ask("what is in the src folder?");
    expect(tools).toEqual([{ name: "list_files", input: { path: "src" } }]);
    expect(result.text).toBe("`src` holds, newest first:\n- parse.ts\n- api.ts\n- store.py");
  });

  it("retries once, broader, then says it couldn't find it", async () => {
    const { result, tools } = await ask("where is frobnicate?");
    expect(tools).toEqual([
      { name: "grep", input: { pattern: "frobnicate" } },
      { name: "grep", input: { pattern: "(?i)frobnicate" } },
    ]);
    expect(result.text).toBe(
      "I couldn't find `frobnicate` in the workspace (grep found no match for /frobnicate/ nor /(?i)frobnicate/).",
    );
  });

  it("finds with the case-insensitive retry", async () => {
    const { tools, result } = await ask('where is "orderstore" used?');
    expect(tools.map((t) => t.name)).toEqual(["grep", "grep", "read_file"]);
    expect(result.text).toContain("src/store.py:4");
  });

  it("returns Messages-API-shaped responses", async () => {
    const response = await offlineModel().createMessage(
      { system: "s", tools: [], messages: [{ role: "user", content: "where is parseOrder defined?" }] },
      {},
    );
    expect(response).toMatchObject({
      type: "message",
      role: "assistant",
      model: "offline-teacher",
      stop_reason: "tool_use",
      content: [
        { type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "grep", input: { pattern: "parseOrder" } },
      ],
    });
    expect(response.usage.input_tokens).toBeGreaterThan(0);
  });

  it("is what the CLI uses without a key, clearly labelled", async () => {
    const root = fixture();
    const run = await runCli(["-p", "where is handleRequest defined?"], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("offline teaching model: a fixed search-then-read policy, not an LLM");
    expect(run.stderr).toMatch(/\[2\] grep \{"pattern":"handleRequest"\} → 1 matching line in 1 file/);
    expect(run.stderr).toMatch(/turn: grep → read_file → answer · 3 model calls/);
    expect(run.stdout).toContain("`handleRequest` is defined at src/api.ts:3:");
  });
});
