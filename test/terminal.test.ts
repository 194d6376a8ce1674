// The terminal path: the REPL under a real pseudo-terminal (test/pty.ts).
// Scout keeps the terminal in raw mode, so Ctrl-C / Ctrl-D arrive as the
// bytes \x03 / \x04 and the pty sends no SIGINT to anyone.
import { describe, expect, it } from "vitest";
import { hang, reply, stall, startApiServer, text } from "../lessons/cases/api-server.js";
import { type Launch, makeTree, runCli } from "./helpers.js";
import { moduleProbe } from "./module-probe.js";
import { drawnRows, prompts, scoutOnPty } from "./pty.js";

const FILES = { "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n" };

describe("the REPL on a terminal", { timeout: 60_000 }, () => {
  it("shows the banner and prompt, answers with visible steps, and /exit quits with status 0", async () => {
    const root = makeTree(FILES);
    const pty = scoutOnPty(root);
    await pty.waitFor(/you > /);
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(prompts(2));
    pty.type("/tools\r");
    await pty.waitFor(prompts(3));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);

    const screen = pty.screen();
    expect(screen).toMatch(
      /^scout \d+\.\d+\.\d+ · model: offline teaching model: .*not an LLM \(it finds definitions, usages, test files, files by kind, folders and text, and explains nothing\); set ANTHROPIC_API_KEY to talk to Claude\n/,
    );
    expect(screen).toContain(`workspace: ${root}\n`);
    expect(screen).toContain("Type a question, or /help.\nyou > where is safe_path defined?\n");
    // On a terminal the thought streams like any model text, on its own line before the call it explains
    // (its Markdown drawn: `safe_path` in the code colour, without the backticks; wrapped to the window).
    expect(screen).toMatch(
      /\nSearching for a line that defines safe_path [^[]*\n\[1\] model offline-teacher → tool_use/,
    );
    expect(screen).toMatch(/\[2\] grep \{"pattern":".*safe_path.* → /);
    expect(screen).toMatch(/\[4\] read_file \{"path":"app.py","offset":1,"limit":15\} → lines 1-4 of 4/);
    expect(screen).toContain("safe_path is defined at app.py:3");
    expect(screen).toMatch(/turn: grep → read_file → answer · 3 model calls/);
    for (const name of ["read_file", "list_files", "glob", "grep"])
      expect(screen).toMatch(new RegExp(`^${name} +\\S`, "m"));
    expect(pty.raw()).toContain("\x1b[2m[1] model"); // step lines are dimmed on a terminal
  });

  it("the prompt comes up before the loop, the tools, marked and /tokens' code load; the first three load while the person types", async () => {
    const probe = moduleProbe();
    const pty = scoutOnPty(makeTree(FILES), probe.env, { cli: probe.cli });
    await pty.waitFor(/you > /);
    const untilPrompt = (lines: string[]) => lines.slice(0, lines.indexOf("(prompt)"));
    const atPrompt = untilPrompt(probe.loaded());
    expect(atPrompt).toContain("repl/terminal.js");
    expect(
      atPrompt.filter((file) =>
        /^core\/(loop|scout|session|read_file|list_files|glob|grep)\.js$|^trace\.js$|^tokens\/(schema-costs|request-view)|^models\/offline\/|^package:marked$/.test(
          file,
        ),
      ),
    ).toEqual([]);
    expect(atPrompt).not.toContain("(toLocaleString)"); // its first call loads locale data (~20 ms)
    // Nothing typed yet: the loop, the tools and marked load behind the prompt; the offline policy waits for a question.
    for (const entry of ["package:marked", "core/loop.js", "core/read_file.js", "core/grep.js"])
      await probe.until(entry);
    expect(probe.loaded().filter((file) => file.startsWith("models/offline/"))).toEqual([]);
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(prompts(2));
    // nor does the first answer: its token counts are grouped by hand, not by toLocaleString (~30 ms the first time)
    expect(probe.loaded()).not.toContain("(toLocaleString)");
    expect(probe.loaded()).toContain("models/offline/policy.js");
    pty.type("/tokens\r");
    await pty.waitFor(prompts(3));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain("safe_path is defined at app.py:3");
    expect(pty.screen()).toMatch(/^baseline \(no tools\)/m);
    expect(untilPrompt(probe.loaded())).not.toContain("tokens/schema-costs.js");
    expect(probe.loaded()).toContain("tokens/schema-costs.js");
  });

  it("-p on a terminal draws the answer's Markdown: marked loads with the turn, there being no prompt to load behind", async () => {
    const root = makeTree(FILES);
    const pty = scoutOnPty(root, {}, { args: ["--cwd", root, "-p", "where is safe_path defined?"] });
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain("safe_path is defined at app.py:3");
    expect(pty.raw()).toContain("\x1b[36msafe_path\x1b[39m"); // `safe_path` in the code colour, without the backticks
  });

  it("escape sequences from file names and contents are shown escaped; Scout's own colours stay", async () => {
    const name = "evil\x1b]0;pwned\x07\x1b[2J.txt";
    const root = makeTree({ [name]: "token = \x1b]52;c;ZXZpbA==\x07\n" });
    const pty = scoutOnPty(root);
    await pty.waitFor(/you > /);
    pty.type("where is token?\r");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.raw()).not.toMatch(/\x1b\]|\x07|\x1b\[2J/);
    // The answer is wrapped to the window, so its words may be on two rows.
    expect(pty.screen().replace(/\n/g, " ")).toContain("token = \\x1b]52;c;ZXZpbA==\\x07");
    expect(pty.raw()).toContain("\x1b[2m[1] model"); // dimmed step lines, as before

    const args = ["tool", "read_file", "--cwd", root, JSON.stringify({ path: name })];
    const tool = scoutOnPty(root, {}, { args });
    expect(await tool.exited).toBe(0);
    expect(tool.raw()).not.toMatch(/\x1b\]/);
    expect(tool.screen()).toContain("1\ttoken = \\x1b]52;c;ZXZpbA==\\x07");
  });

  it("never colours with NO_COLOR set", async () => {
    const pty = scoutOnPty(makeTree(FILES), { NO_COLOR: "1" });
    await pty.waitFor(/you > /);
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toMatch(/\[1\] model offline-teacher/);
    expect(pty.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
  });

  it("Ctrl-D at the prompt quits with status 0", async () => {
    const pty = scoutOnPty(makeTree(FILES));
    await pty.waitFor(/you > /);
    pty.type("\x04");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toMatch(/you > \n$/);
  });

  it("Ctrl-C at an empty prompt says how to leave; a second one leaves with status 0", async () => {
    const pty = scoutOnPty(makeTree(FILES));
    await pty.waitFor(/you > /);
    pty.type("\x03");
    await pty.waitFor(/press Ctrl-C again or Ctrl-D[\s\S]*you > /);
    pty.type("\x03");
    expect(await pty.exited).toBe(0);
    expect(pty.screen().match(/press Ctrl-C again/g)).toHaveLength(1);
  });

  it("Ctrl-C at the prompt, started by `npm start` under /bin/sh: npm and its shell exit 0 too", async () => {
    const root = makeTree(FILES);
    const pty = scoutOnPty(root, { SHELL: "/bin/sh" }, { launch: "pty-npm-start" });
    await pty.waitFor(/you > /);
    pty.type("\x03");
    await pty.waitFor(/press Ctrl-C again/);
    pty.type("\x03");
    expect(await pty.exited).toBe(0);
  });

  // Under `npm start` the terminal's SIGINT would reach npm and its shell too; Scout reads Ctrl-C as a key, so none is sent.
  it.each<[string, Launch]>([
    ["started directly", "pty"],
    ["started by `npm start`, so npm and its shell exit 0 with Scout", "pty-npm-start"],
  ])(
    "Ctrl-C during a Claude turn cancels it, shows the prompt again, and the next question works (%s)",
    async (_, launch) => {
      const api = await startApiServer();
      try {
        api.script(hang, reply([text("The second answer.")]));
        const root = makeTree(FILES);
        const env = { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", SHELL: "/bin/sh" };
        const pty = scoutOnPty(root, env, { launch });
        await pty.waitFor(/you > /);
        expect(pty.screen()).toMatch(/^scout \S+ · model: Claude \(claude-haiku-5-5\)\n/);
        pty.type("a question that hangs\r");
        await api.waitForRequests(1);
        await pty.waitFor(/waiting for the model… \d+ s/); // the indicator, shown while no token has arrived
        pty.type("\x03");
        await pty.waitFor(prompts(2));
        pty.type("the next question\r");
        await pty.waitFor(prompts(3));
        pty.type("/exit\r");
        expect(await pty.exited).toBe(0);

        expect(pty.screen()).toContain(
          "(cancelled; the conversation is as it was before this question)\nyou > the next question\n",
        );
        expect(pty.screen()).toContain("The second answer.\n");
        // Each question alone, as the newest message with its cache breakpoint: the cancelled one left nothing behind.
        const asked = (text: string) => [
          { role: "user", content: [{ type: "text", text, cache_control: { type: "ephemeral" } }] },
        ];
        expect(api.requests.map((request) => request.body.messages)).toEqual([
          asked("a question that hangs"),
          asked("the next question"),
        ]);
      } finally {
        await api.close();
      }
    },
  );

  it("Ctrl-C while the answer is streaming: the partial answer stays, the note starts on its own line", async () => {
    const api = await startApiServer();
    try {
      api.script(stall("The answer begins"), reply([text("The second answer.")]));
      const pty = scoutOnPty(makeTree(FILES), { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key" });
      await pty.waitFor(/you > /);
      pty.type("a question\r");
      await pty.waitFor(/The answer begins/);
      pty.type("\x03");
      await pty.waitFor(prompts(2));
      pty.type("the next question\r");
      await pty.waitFor(prompts(3));
      pty.type("/exit\r");
      expect(await pty.exited).toBe(0);

      expect(pty.screen()).toMatch(
        /The answer begins(\^C)?\n\(cancelled; the conversation is as it was before this question\)\nyou > /,
      );
      // The next turn starts clean: its answer, then its step line, with no stray blank line.
      expect(pty.screen()).toMatch(/you > the next question\nThe second answer\.\n\[1\] model /);
    } finally {
      await api.close();
    }
  });
});

describe("answers' Markdown on a terminal", { timeout: 60_000 }, () => {
  const ANSWER = [
    "# The **safe** path",
    "",
    "It is `safe_path` in **app.py**, which normalises every path it is given before anything opens it.",
    "",
    "- one item",
    "- a second item long enough to be wrapped onto another row",
    "",
    "```python",
    "return os.path.normpath(p)",
    "```",
    "Done.",
  ].join("\n");

  async function ask(env: Record<string, string | undefined>) {
    const api = await startApiServer();
    try {
      api.script(reply([text(ANSWER)]));
      const pty = scoutOnPty(makeTree(FILES), { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", ...env });
      await pty.waitFor(/you > /);
      pty.resize(40);
      pty.type("where is safe_path?\r");
      await pty.waitFor(prompts(2));
      pty.type("/exit\r");
      expect(await pty.exited).toBe(0);
      return pty;
    } finally {
      await api.close();
    }
  }

  it("draws headings, bold, inline code, lists and code blocks, wrapped at words to the window", async () => {
    const pty = await ask({});
    const rows = drawnRows(pty.raw(), 40);
    const start = rows.findIndex((row) => row.includes("The safe path"));
    const end = rows.findIndex((row) => row.startsWith("[1] model"));
    expect(rows.slice(start, end)).toEqual([
      "The safe path",
      "",
      "It is safe_path in app.py, which",
      "normalises every path it is given before",
      "anything opens it.",
      "",
      "• one item",
      "• a second item long enough to be",
      "  wrapped onto another row",
      "",
      "    return os.path.normpath(p)",
      "Done.",
    ]);
    const raw = pty.raw();
    expect(raw).toContain("\x1b[1;4mThe\x1b[22;24m"); // the heading: bold, underlined
    expect(raw).toContain("\x1b[1mapp.py\x1b[22m,"); // bold
    expect(raw).toContain("\x1b[36msafe_path\x1b[39m"); // inline code
    expect(raw).toContain("\x1b[36mreturn os.path.normpath(p)\x1b[39m"); // the fenced block
  });

  it("with NO_COLOR the answer is the model's text as it came, unwrapped", async () => {
    const pty = await ask({ NO_COLOR: "1" });
    const rows = drawnRows(pty.raw()); // the bytes as sent: no wrap of Scout's (the terminal's own not applied)
    const start = rows.findIndex((row) => row.startsWith("# The **safe** path"));
    expect(rows.slice(start, start + ANSWER.split("\n").length + 1).join("\n")).toMatch(`${ANSWER}\n[1] model `);
    expect(pty.raw()).not.toMatch(/\x1b\[[0-9;]*m/);
  });

  it("piped, the answer on stdout is the model's text exactly", async () => {
    const api = await startApiServer();
    try {
      api.script(reply([text(ANSWER)]));
      const run = await runCli(["--cwd", makeTree(FILES), "-p", "where is safe_path?"], {
        env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", NO_COLOR: undefined },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${ANSWER}\n`);
    } finally {
      await api.close();
    }
  });
});
