// The command line's own answers: errors that name the option or variable
// behind them, --help for every subcommand, the offline notices, and
// exit statuses. The real CLI as a child process, no model needed.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OFFLINE_BY_CHOICE_NOTICE, OFFLINE_NOTICE } from "../src/models/offline.js";
import { call, runCli, treeMaker } from "./helpers.js";

const tree = treeMaker();
const OFFLINE = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, SCOUT_MODEL: undefined };

describe("usage errors name what caused them (exit status 2)", () => {
  it("option errors are in Scout's words, with the nearest known option; no Node internals, quotes balanced", async () => {
    const cases: [string[], string][] = [
      [["--jsn", "-p", "q"], "scout: unknown option --jsn; did you mean --json?\nTry: scout --help\n"],
      [["--verbos"], "scout: unknown option --verbos; did you mean --verbose?\nTry: scout --help\n"],
      [["--zzzzzz"], "scout: unknown option --zzzzzz\nTry: scout --help\n"],
      [["-x"], "scout: unknown option -x\nTry: scout --help\n"],
      [["--cwd"], "scout: --cwd needs a value\nTry: scout --help\n"],
      [["--json=1"], "scout: --json takes no value\nTry: scout --help\n"],
      [["tokens", "--jsn"], "scout: unknown option --jsn; did you mean --json?\nTry: scout --help\n"],
      [["tool", "--lst"], "scout: unknown option --lst; did you mean --list?\nTry: scout --help\n"],
      [["lab", "--runz", "2"], "scout lab: unknown option --runz; did you mean --runs?\nTry: scout lab --help\n"],
    ];
    for (const [args, stderr] of cases) {
      const run = await runCli(args, { env: OFFLINE });
      expect({ args, stderr: run.stderr, code: run.code }).toEqual({ args, stderr, code: 2 });
    }
  });

  it("--cwd that is missing, or a file: the absolute path tried", async () => {
    const root = tree({ "a.txt": "x\n" });
    const missing = await runCli(["--cwd", "nope", "-p", "q"], { cwd: root, env: OFFLINE });
    expect(missing.stderr).toContain(`scout: --cwd nope: no such directory (tried ${path.join(root, "nope")})`);
    expect(missing.code).toBe(2);
    const file = await runCli(["--cwd", "a.txt", "-p", "q"], { cwd: root, env: OFFLINE });
    expect(file.stderr).toContain(`scout: --cwd a.txt: not a directory, a file (tried ${path.join(root, "a.txt")})`);
    expect(file.code).toBe(2);
  });

  it("an unwritable --trace path", async () => {
    const root = tree({ "a.txt": "x\n" });
    const run = await runCli(["--trace", "no/such/dir/t.jsonl", "-p", "q"], { cwd: root, env: OFFLINE });
    expect(run.stderr).toContain(
      `scout: --trace no/such/dir/t.jsonl: cannot write it: no such file or folder (ENOENT) (tried ${root}/no/such/dir/t.jsonl)`,
    );
    expect(run.code).toBe(2);
  });

  it("an ANTHROPIC_BASE_URL that is not an http(s) address", async () => {
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "localhost:8080" };
    const run = await runCli(["-p", "q"], { cwd: tree({}), env });
    expect(run.stderr).toContain('scout: ANTHROPIC_BASE_URL is not an http(s) address: "localhost:8080"');
    expect(run.code).toBe(2);
  });

  it("--step without a terminal, and --json without -p", async () => {
    const step = await runCli(["--step"], { cwd: tree({}), env: OFFLINE, input: "q\n" });
    expect(step.stderr).toContain("scout: --step needs a terminal");
    expect(step.code).toBe(2);
    const json = await runCli(["--json"], { cwd: tree({}), env: OFFLINE });
    expect(json.stderr).toContain('scout: --json goes with -p "question"');
    expect(json.code).toBe(2);
  });
});

describe("help and notices", () => {
  it("every subcommand answers --help, and -v is --version", async () => {
    const tool = await runCli(["tool", "--help"]);
    expect(tool.stdout).toMatch(/^Usage:\n {2}scout tool NAME 'JSON'/);
    expect(tool.code).toBe(0);
    const tokens = await runCli(["tokens", "--help"]);
    expect(tokens.stdout).toMatch(/^Usage:\n {2}scout tokens /);
    expect(tokens.code).toBe(0);
    const version = await runCli(["-v"]);
    expect(version.stdout).toMatch(/^scout \d+\.\d+\.\d+\n$/);
  });

  it("--offline with a key set does not ask for a key; --model with the offline model says it is ignored", async () => {
    const root = tree({ "a.py": "def main():\n    pass\n" });
    const run = await runCli(["--offline", "--model", "claude-opus-4-1", "-p", "where is main defined?"], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: "k" },
    });
    // The label for a choice, not the one that asks for a key (the wording is the lessons' to show).
    expect(run.stderr).toContain(`(${OFFLINE_BY_CHOICE_NOTICE})\n`);
    expect(run.stderr).not.toContain(OFFLINE_NOTICE);
    expect(run.stderr).not.toContain("set ANTHROPIC_API_KEY");
    expect(run.stderr).toContain("(--model claude-opus-4-1 is ignored: the offline teaching model answers)\n");
    expect(run.code).toBe(0);
  });
});

describe("terminal injection", () => {
  const ESC_NAME = "evil\x1b]0;pwned\x07\x1b[2J.txt";
  const ESC_CONTENT = "token = 1 \x1b]52;c;ZXZpbA==\x07 \x1b[31mred\x1b[0m\n";

  it("scout tool piped to a program prints exactly what the model gets, not escaped again", async () => {
    const root = tree({ [ESC_NAME]: ESC_CONTENT });
    const input = { path: ESC_NAME };
    const run = await runCli(["tool", "read_file", JSON.stringify(input)], { cwd: root });
    const model = await call(root, "read_file", input);
    expect(run.stdout).toBe(`${model.content}\n`);
    const globbed = await runCli(["tool", "glob", '{"pattern":"*"}'], { cwd: root });
    expect(globbed.stdout).toBe(`${(await call(root, "glob", { pattern: "*" })).content}\n`);
    // read_file shows a file's control characters as escapes itself (lesson 3): the model gets no raw ESC either
    expect(model.content).toContain("token = 1 \\x1b]52;c;ZXZpbA==\\x07 \\x1b[31mred\\x1b[0m");
  });

  it("the step log and the answer show control characters escaped, never raw", async () => {
    const root = tree({
      [ESC_NAME]: { content: ESC_CONTENT, mtime: 2_000_000_000 }, // the newest, so it is read
      "b.txt": "token here\n",
    });
    const run = await runCli(["-p", "where is token?"], { cwd: root, env: OFFLINE });
    const everything = run.stdout + run.stderr;
    expect(everything).not.toMatch(/\x1b|\x07/);
    expect(everything).toContain("\\x1b]52;c;ZXZpbA==\\x07");
    expect(run.stdout).toContain("evil\\x1b]0;pwned\\x07\\x1b[2J.txt:1"); // a path from the model, in its answer
    // The tools print paths escaped (src/tools/escape-path.ts), so the model asks for the escaped name.
    expect(run.stderr).toContain('read_file {"path":"evil\\\\x1b]0;pwned\\\\x07');
  });
});
