// The offline teaching model in a real fixture project, through the real loop and tools.
import { describe, expect, it } from "vitest";
import { runTurn, type MessageParam, type StepEvent } from "../src/core/loop.js";
import { tools as scoutTools } from "../src/core/scout.js";
import type { Tool } from "../src/core/tool.js";
import { OFFLINE_NOTICE, offlineModel } from "../src/models/offline.js";
import { definitionPattern, topLevelPattern } from "../src/models/offline/definitions.js";
import { parseQuestion, TEST_FILES } from "../src/models/offline/question.js";
import { Workspace } from "../src/core/workspace.js";
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

/** One offline turn; the model listens to the events, as the REPL wires it. `tools` replaces Scout's four. */
async function ask(question: string, root = fixture(), given?: Tool[]) {
  const events: StepEvent[] = [];
  const history: MessageParam[] = [];
  const model = offlineModel();
  const result = await runTurn(question, history, {
    model,
    workspace: new Workspace(root),
    tools: given,
    onStep: (e) => {
      model.onStep(e);
      events.push(e);
    },
  });
  const tools = events.flatMap((e) => (e.type === "tool_result" ? [{ name: e.name, input: e.input }] : []));
  const steps = events.flatMap((e) => (e.type === "tool_result" ? [e.step] : []));
  return { result, tools, steps, history };
}

describe("offline teaching model", () => {
  it("answers 'where is X defined?' by grepping definition forms, then reading around the definition", async () => {
    const { result, tools } = await ask("where is parseOrder defined?");
    expect(tools).toEqual([
      { name: "grep", input: { pattern: definitionPattern("parseOrder") } },
      { name: "read_file", input: { path: "src/parse.ts", offset: 1, limit: 15 } },
    ]);
    expect(result.text).toContain("`parseOrder` is defined at src/parse.ts:2:");
    expect(result.text).toContain("2\texport function parseOrder(text: string) {");
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
    const { result } = await ask("where is runTurn defined?", root);
    expect(result.text).toContain("`runTurn` is defined at src/loop.ts:1:");
  });

  it("never calls an import, a call, an argument or a string a definition", async () => {
    const root = makeTree({
      "app.py": "from agent import run_agent\n\nrun_agent(\n    tools=TOOLS,\n)\n",
      "docs.ts": 'const example = "function tools() {}";\n',
      "index.ts": "export {\n  type Widget as Widget,\n  type Gadget,\n} from './parts';\n",
    });
    for (const name of ["tools", "run_agent", "Widget", "Gadget"]) {
      const { result } = await ask(`where is ${name} defined?`, root);
      expect(result.text).not.toContain("is defined");
      expect(result.text).toContain(`I found no line that defines \`${name}\``);
    }
  });

  it("answers 'who calls X?' with the call sites grouped by file and counted, not the definition", async () => {
    const { result, tools } = await ask("who calls parseOrder?");
    expect(tools).toEqual([{ name: "grep", input: { pattern: "\\bparseOrder\\s*\\(" } }]);
    expect(result.text).toBe(
      "`parseOrder` is called 1 time in 1 file:\n- src/api.ts:4 (1)\nNot counted: the definition at src/parse.ts:2.",
    );
  });

  it("narrows when grep says it was capped, instead of picking from the first 100 lines", async () => {
    const files: Record<string, { content: string; mtime: number }> = {
      "data/urls.txt": { content: "https://example.org/a\n".repeat(150), mtime: 2_000 },
      "src/links.py": { content: 'def is_web(url):\n    return url.startswith("https")\n', mtime: 1_000 },
    };
    const { result, tools } = await ask("where is https used?", makeTree(files));
    expect(tools.map((t) => t.name)).toEqual(["grep", "grep"]);
    expect(tools[1].input).toMatchObject({
      pattern: "\\bhttps\\b",
      include: "*.{py,ts,tsx,js,jsx,go,rs,java,c,h,cpp,rb}",
    });
    expect(result.text).toBe("`https` is used 1 time in 1 file:\n- src/links.py:2 (1)");

    const many = Object.fromEntries(
      Array.from({ length: 110 }, (_, i) => [`m${i}.py`, { content: "def handle():\n    pass\n", mtime: 1_000 + i }]),
    );
    const capped = await ask("where is handle defined?", makeTree(many));
    expect(capped.tools[1]).toEqual({ name: "grep", input: { pattern: topLevelPattern("handle"), include: "*.py" } });
    expect(capped.result.text).toContain("(grep stopped at its cap, so there may be definitions it did not show.)");
  });

  it("reads the tools' facts, not their footers: reworded footers leave its moves as they were", async () => {
    // Every footer said in other words: "(showing the first 100 lines; more matches exist …)" and "No files match".
    const reworded = scoutTools.map(
      (tool): Tool => ({
        ...tool,
        run: async (args, context) => {
          const result = await tool.run(args, context);
          const content = result.content
            .replace(/^\(showing the first (\d+) lines; more matches exist.*\)$/m, "($1 lines shown; there are others)")
            .replace(/^No files match/, "Nothing matches");
          return { ...result, content };
        },
      }),
    );
    const many = Object.fromEntries(
      Array.from({ length: 110 }, (_, i) => [`m${i}.py`, { content: "def handle():\n    pass\n", mtime: 1_000 + i }]),
    );
    const root = makeTree(many);
    const plain = await ask("where is handle defined?", root);
    const said = await ask("where is handle defined?", root, reworded);
    expect(said.tools).toEqual(plain.tools);
    expect(said.tools[1]).toEqual({ name: "grep", input: { pattern: topLevelPattern("handle"), include: "*.py" } });
    const none = await ask("which test files are there?", makeTree({ "a.py": "x = 1\n" }), reworded);
    expect(none.result.text).toMatch(/^No test files: nothing here is in a test folder/);
  });

  it("reads two definitions in one message (parallel tool calls) when two files define the name alike", async () => {
    const root = makeTree({
      "config.py": { content: "MAX_LEN = 8\n", mtime: 1_000 },
      "web/limits.ts": { content: "export const MAX_LEN = 8;\n", mtime: 2_000 },
    });
    const { result, tools, steps } = await ask("where is MAX_LEN defined?", root);
    expect(tools.map((t) => t.name)).toEqual(["grep", "read_file", "read_file"]);
    expect(steps[1]).toBe(steps[2]); // both asked for by the same model call
    expect(result.text).toContain("`MAX_LEN` is defined at web/limits.ts:1:");
    expect(result.text).toContain("It is also defined at config.py:1:");
  });

  it("says a thought before each tool call, which the step log prints before the call", async () => {
    const run = await runCli(["-p", "where is handleRequest defined?"], {
      cwd: fixture(),
      env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined },
    });
    expect(run.stderr).toMatch(
      /\nSearching for a line that defines `handleRequest` .*\n\[1\] model offline-teacher → tool_use/,
    );
    expect(run.stderr).toMatch(/\nsrc\/api\.ts:3 defines `handleRequest`; reading the lines around it\.\n\[3\] model/);
    expect(run.stdout).toBe(
      "`handleRequest` is defined at src/api.ts:3:\n\n    2\t\n    3\texport function handleRequest(body: string) {\n    4\t  return parseOrder(body);\n    5\t}\n",
    );
  });

  it("searches the bare name only when no line defines it, then once ignoring case, then says it couldn't find it", async () => {
    const { result, tools } = await ask("where is frobnicate?");
    expect(tools).toEqual([
      { name: "grep", input: { pattern: definitionPattern("frobnicate") } },
      { name: "grep", input: { pattern: "\\bfrobnicate\\b" } },
      { name: "grep", input: { pattern: "(?i)\\bfrobnicate\\b" } },
    ]);
    expect(result.text).toBe(
      "I couldn't find `frobnicate` in the workspace: no line defines it, and grep found no match for /\\bfrobnicate\\b/, nor ignoring case.",
    );
    // grep's smart case finds OrderStore for "orderstore" at the bare-name search: no third search is needed.
    const other = await ask('where is "orderstore" defined?');
    expect(other.tools.map((t) => t.name)).toEqual(["grep", "grep"]);
    expect(other.result.text).toContain("src/store.py:4: class OrderStore:");
  });

  it("after a timeout, answers honestly and does not retry a broader pattern", async () => {
    const response = await offlineModel().createMessage(
      {
        system: "s",
        tools: [],
        messages: [
          { role: "user", content: "where is parseOrder defined?" },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "grep", input: { pattern: "x" } }] },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "t1",
                is_error: true,
                content: "Error: rg timed out after 10 s and was stopped; narrow the pattern, path or include",
              },
            ],
          },
        ],
      },
      {},
    );
    expect(response.stop_reason).toBe("end_turn");
    expect(JSON.stringify(response.content)).toContain("rg timed out after 10 s");
    expect(JSON.stringify(response.content)).toContain("I did not retry a broader search");
  });

  it("quotes the window of a file over 20 MiB, which read_file now reads (issue 25.7)", async () => {
    const root = makeTree({ "big.py": `${"# filler line\n".repeat(1_600_000)}def huge_thing():\n    pass\n` });
    const { result, tools } = await ask("where is huge_thing defined?", root);
    expect(tools.map((t) => t.name)).toEqual(["grep", "read_file"]);
    expect(result.text).toMatch(/^`huge_thing` is defined at big\.py:1600001:\n/);
    expect(result.text).toContain("1600001\tdef huge_thing():");
  });

  it("uses glob for a question about kinds of files", async () => {
    const { result, tools } = await ask("which test files are there?");
    // What test runners collect (test folders, *.test.*, test_*.py …), not every name holding "test" or "spec".
    expect(tools).toEqual([{ name: "glob", input: { pattern: TEST_FILES } }]);
    expect(result.text).toBe(
      "Test files (as test runners collect them), newest first:\n- test/parse.test.ts\n- test/test_store.py",
    );
  });

  it("uses list_files when asked what a folder holds", async () => {
    const { result, tools } = await ask("what is in the src folder?");
    expect(tools).toEqual([{ name: "list_files", input: { path: "src" } }]);
    expect(result.text).toBe("`src` holds, newest first:\n- parse.ts\n- api.ts\n- store.py");
  });

  it("asks for glob and grep at once for a kebab-case or file name", async () => {
    const { tools, steps } = await ask("where is parse.test.ts?");
    expect(tools).toEqual([
      { name: "glob", input: { pattern: "**/*parse.test.ts*" } },
      { name: "grep", input: { pattern: "parse\\.test\\.ts" } },
    ]);
    expect(steps[0]).toBe(steps[1]);
  });

  it("reads names out of questions: apostrophes, possessives, backticks, quotes, Class.method, snake_case, kebab-case, paths", () => {
    expect(parseQuestion("where's the user's config loaded?")).toEqual({
      kind: "text",
      words: ["user", "config", "loaded"],
    });
    expect(parseQuestion("Where's `make_slug` defined?")).toEqual({ kind: "definition", name: "make_slug" });
    expect(parseQuestion("where is 'LinkStore' defined?")).toEqual({ kind: "definition", name: "LinkStore" });
    expect(parseQuestion('find the definition of "run_agent"')).toEqual({ kind: "definition", name: "run_agent" });
    expect(parseQuestion("where is the Anthropic class defined?")).toEqual({ kind: "definition", name: "Anthropic" });
    expect(parseQuestion("where is the Path class defined?")).toEqual({ kind: "definition", name: "Path" });
    expect(parseQuestion("where is LinkStore.get defined?")).toEqual({
      kind: "definition",
      name: "get",
      owner: "LinkStore",
    });
    expect(parseQuestion("who calls run_agent?")).toEqual({ kind: "usage", name: "run_agent", callsOnly: true });
    expect(parseQuestion("where is Scout's runTurn used?")).toEqual({
      kind: "usage",
      name: "runTurn",
      callsOnly: false,
    });
    expect(parseQuestion("where is fast-glob used?")).toEqual({ kind: "named", name: "fast-glob" });
    expect(parseQuestion("where is src/tools/grep.ts?")).toEqual({ kind: "named", name: "src/tools/grep.ts" });
    expect(parseQuestion("what is in src/tools?")).toEqual({ kind: "folder", path: "src/tools" });
  });

  it("returns Messages-API-shaped responses: a thought, then the tool call", async () => {
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
        { type: "text", text: expect.stringContaining("Searching for a line that defines `parseOrder`") },
        {
          type: "tool_use",
          id: expect.stringMatching(/^toolu_/),
          name: "grep",
          input: { pattern: definitionPattern("parseOrder") },
        },
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
    expect(run.stderr).toContain(`(${OFFLINE_NOTICE})\n`);
    expect(run.stderr).toMatch(/\[2\] grep \{"pattern":".*handleRequest.* → 1 matching line in 1 file/);
    expect(run.stderr).toMatch(/turn: grep → read_file → answer · 3 model calls/);
    expect(run.stdout).toContain("`handleRequest` is defined at src/api.ts:3:");
  });

  it("answers `cat file | scout -p explain` with what the text holds and says an explanation needs a real model", async () => {
    const root = fixture();
    const text =
      "import os\nfrom shortly.config import BASE\n\nclass Store:\n    def get(self, key):\n        return key\n";
    const run = await runCli(["-p", "explain"], {
      cwd: root,
      input: text,
      env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/\] grep /); // nothing to search for: the first line of the text is not a name
    expect(run.stdout).toContain("An explanation needs a real model");
    expect(run.stdout).toContain("What the piped text holds: 6 lines, 99 characters.");
    expect(run.stdout).toContain("Definitions (2):\n- line 4: Store\n- line 5: get");
    expect(run.stdout).toContain("Imports (2):\n- import os\n- from shortly.config import BASE");
  });

  it("answers 'what does this project do?' with the top level and the README's first lines, and its limit", async () => {
    const root = makeTree({ "README.md": "# shop\n\nA tiny shop.\n", "src/app.ts": "export const x = 1;\n" });
    const { result, tools } = await ask("what does this project do?", root);
    expect(tools.map((t) => t.name)).toEqual(["list_files", "glob", "read_file"]);
    expect(result.text).toContain("An explanation needs a real model");
    expect(result.text).toMatch(/the top level holds 2 entries:\n- (src\/|README\.md)\n- (src\/|README\.md)\n/);
    expect(result.text).toMatch(/README\.md begins:\n\s+1\t# shop\n\s+3\tA tiny shop\./);
  });
});
