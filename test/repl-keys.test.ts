// The REPL, round 3, on a real pseudo-terminal (test/pty.ts): keys that arrive
// in bursts, Ctrl-Z and fg, Ctrl-C before a turn has begun, per-turn prices
// after /model, the step-through keys, type-ahead, a narrowing window, and
// the history file opened as a person's file.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApiServer, reply, slow, startApiServer, text, toolUse } from "../lessons/cases/api-server.js";
import { shellCommand, treeMaker } from "./helpers.js";
import { prompts, scoutOnPty } from "./pty.js";

const FILES = { "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n" };
const tree = treeMaker();
/** bash's prompt, whatever it is set to: "$ " or "# " at the end. */
const SHELL_PROMPT = /[$#] $/;

let api: ApiServer;
beforeEach(async () => {
  api = await startApiServer();
});
afterEach(() => api.close());
const claude = () => ({ ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key" });
/** What each request asked: the last user message's text. */
const questions = () =>
  api.requests.map((request) => {
    const content = request.body.messages.at(-1)?.content;
    return Array.isArray(content) ? content.map((block: { text?: string }) => block.text ?? "").join("") : content;
  });

describe("keys in bursts", { timeout: 90_000 }, () => {
  it("a paste or an IME commit mid-line is inserted at the cursor, whole (ASCII and CJK)", async () => {
    api.script(reply([text("One.")]), reply([text("Two.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    await pty.keys("hello world", "\x01", "XYZ", "\r"); // Ctrl-A, then three characters in one chunk
    await pty.waitFor(prompts(2));
    await pty.keys("hello world", "\x01", "\x06", "你好", "\r"); // Ctrl-A, Ctrl-F, then an IME's commit
    await pty.waitFor(prompts(3));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["XYZhello world", "h你好ello world"]);
  });

  it("type-ahead in the same burst as Enter is held, not echoed into the step log, and comes back with the cursor at its end", async () => {
    api.script(slow(500, reply([text("First answer.")])), reply([text("Second answer.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    pty.type("first question\rsecond");
    await pty.waitFor(/First answer\.[\s\S]*you > second/);
    await pty.keys("!", "\r"); // typed at the end of the restored line, not at column 0
    await pty.waitFor(/Second answer\./);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["first question", "second!"]);
    expect(pty.screen()).not.toMatch(/you > first question\nsecond/);
  });

  it("Ctrl-C in the same burst as Enter cancels that turn before it begins (offline, while it loads)", async () => {
    const pty = scoutOnPty(tree(FILES));
    await pty.waitFor(/you > /);
    pty.type("where is safe_path defined?\r\x03");
    await pty.waitFor(/\(cancelled; the conversation is as it was before this question\)\nyou > /);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).not.toContain("press Ctrl-C again");
    expect(screen).not.toContain("is defined at app.py:3");
    expect(screen).not.toContain("[1] model");
  });

  it("a window that narrows redraws a wrapped input line from its first row", async () => {
    const pty = scoutOnPty(tree(FILES));
    await pty.waitFor(/you > /);
    // Scout redraws its prompt when it sees the new width; under load that redraw came after the typing, with a
    // cursor-up of its own (1A) that the wait below took for the one after the narrowing: type only after it.
    const unsized = pty.raw().length;
    pty.resize(80);
    await pty.waitFor(new RegExp(`^[^]{${unsized}}[^]*you > `), true);
    const line = "x".repeat(100); // "you > " and 100 characters: 2 rows at 80 columns, 3 at 40
    await pty.keys(line);
    await pty.waitFor(/x{100}/);
    const before = pty.raw().length;
    pty.resize(40);
    // the redraw after the resize starts from the cursor's row at the new width (row 2 of 0-2), not the old one (row 1).
    // A redraw of the typed line can still arrive after its echo, with a 1A of its own (seen in a fresh clone's npm test,
    // its files side by side), so the wait is for the 2A itself: a Scout that moved up one row would never show it.
    await pty.waitFor(new RegExp(`^[^]{${before}}[^]*\x1b\\[2A`), true);
    expect(pty.raw().slice(before)).toContain("\x1b[2A");
    pty.type("\x15/exit\r");
    expect(await pty.exited).toBe(0);
  });
});

describe("Ctrl-Z", { timeout: 90_000 }, () => {
  for (const how of ["node", "npm"] as const) {
    it(`suspends to the shell and comes back raw, prompt and line intact, on fg (${how})`, async () => {
      const root = tree(FILES);
      const pty = scoutOnPty(root, {}, { launch: "pty-shell" });
      await pty.waitFor(SHELL_PROMPT);
      pty.type(`${shellCommand(["--cwd", root], how)}\r`);
      await pty.waitFor(/you > $/);
      await pty.keys("where is safe_path defined", "\x1a");
      await pty.waitFor(/Stopped[^\n]*\n.*[$#] $/);
      pty.type("fg\r");
      await pty.waitFor(/fg\n[^\n]*\nyou > where is safe_path defined$/);
      // raw again: Left moves the cursor (cooked mode would echo ^[[D), "?" goes in at the end, Enter sends
      await pty.keys("\x1b[D", "\x1b[C", "?", "\r");
      await pty.waitFor(/is defined at app\.py:3[\s\S]*you > $/);
      pty.type("/exit\r");
      await pty.waitFor(/session: 1 turn.*\n+.*[$#] $/);
      pty.type("exit\r");
      expect(await pty.exited).toBe(0);
      expect(pty.screen()).not.toContain("^[[");
    });
  }

  it("says so, and stays usable, where no shell can resume it", async () => {
    const pty = scoutOnPty(tree(FILES));
    await pty.waitFor(/you > /);
    await pty.keys("where is", "\x1a");
    await pty.waitFor(/no shell with job control to return to here, so Scout stays/);
    await pty.keys(" safe_path defined?", "\r");
    await pty.waitFor(/is defined at app\.py:3[\s\S]*you > /);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
  });
});

describe("prices after /model", { timeout: 90_000 }, () => {
  it("each turn is priced at the model that answered it", async () => {
    const usage = { input_tokens: 1000, output_tokens: 1000 };
    api.script(reply([text("On Haiku.")], "end_turn", usage), reply([text("On Opus.")], "end_turn", usage));
    api.script(reply([text("On a made-up model.")], "end_turn", usage));
    const pty = scoutOnPty(tree(FILES), { ...claude(), SCOUT_MODEL: "claude-haiku-4-5" }); // the first turn on Haiku 4.5
    await pty.waitFor(/you > /);
    const lines = ["first?", "/model claude-opus-4-1", "second?", "/model made-up-model", "third?", "/tokens"];
    for (const [i, line] of lines.entries()) {
      pty.type(`${line}\r`);
      await pty.waitFor(prompts(i + 2));
    }
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    // Haiku $1 + $5 per million tokens, Opus 4.1 $15 + $75 (src/tokens/prices.ts)
    expect(screen).toMatch(/turn 1: 1,000 input tokens · 1,000 output tokens · \$0\.006(?: ·|\n)/);
    expect(screen).toMatch(/turn 2: 1,000 input tokens · 1,000 output tokens · \$0\.09(?: ·|\n)/);
    expect(screen).toMatch(
      /turn 3: 1,000 input tokens · 1,000 output tokens · price unknown for made-up-model(?: ·|\n)/,
    );
    expect(screen).toMatch(
      /in all: 3,000 input tokens · 3,000 output tokens · \$0\.096 \(3 models, each turn at its own prices\) \+ turns with no known price \(made-up-model\)/,
    );
    expect(screen).toMatch(/session: 3 turns · 3,000 input tokens · 3,000 output tokens · \$0\.096/);
  });
});

describe("step-through keys", { timeout: 90_000 }, () => {
  it("the hint names each key; Enter runs like space; Esc and Ctrl-C end the turn like q", async () => {
    api.script(
      reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]),
      reply([text("app.py:3.")]),
      reply([text("never asked")]),
    );
    const pty = scoutOnPty(tree(FILES), claude(), { extraArgs: ["--step"] });
    await pty.waitFor(/you > /);
    pty.type("first?\r");
    await pty.waitFor(/⏸ \[1\] next: model call .* \[space\/Enter run · c continue · q\/Esc\/Ctrl-C quit\] $/);
    pty.type("\r");
    await pty.waitFor(/⏸ \[2\] next: grep .* \[space\/Enter run · s skip · c continue · q\/Esc\/Ctrl-C quit\] $/);
    pty.type("\r");
    await pty.waitFor(/⏸ \[3\] next: model call/);
    pty.type(" ");
    await pty.waitFor(prompts(2));
    for (const [i, key] of ["\x1b", "\x03"].entries()) {
      pty.type("again?\r");
      await pty.waitFor(new RegExp(`(⏸ \\[1\\] next: model call[^]*){${i + 2}}$`));
      pty.type(key);
      await pty.waitFor(prompts(i + 3));
    }
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).toContain("app.py:3.");
    expect(screen.match(/\(stopped; the conversation is as it was before this question\)/g)).toHaveLength(2);
    expect(api.requests).toHaveLength(2); // Esc and Ctrl-C: those turns never reached the model
    expect(screen).not.toContain("press Ctrl-C again");
  });

  it("shows model input as it is, readline-sync's placeholders not expanded", async () => {
    api.script(reply([toolUse("toolu_1", "grep", { pattern: "$<cwd>" })]), reply([text("Done.")]));
    const pty = scoutOnPty(tree(FILES), claude(), { extraArgs: ["--step"] });
    await pty.waitFor(/you > /);
    pty.type("q?\r");
    await pty.waitFor(/⏸ \[1\]/);
    pty.type(" ");
    await pty.waitFor(/⏸ \[2\].*quit\] $/);
    pty.type("c");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain('⏸ [2] next: grep {"pattern":"$<cwd>"}');
  });
});

describe("the history file, opened as a person's file", { timeout: 90_000 }, () => {
  const ask = async (env: Record<string, string>) => {
    const pty = scoutOnPty(tree(FILES), env);
    await pty.waitFor(/you > /);
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    return pty.screen();
  };

  it("a FIFO or /dev/zero is refused at start, with the terminal usable (no hang, bounded memory)", async () => {
    const home = tree({});
    const fifo = path.join(home, "fifo");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [fifo]);
    expect(await ask({ SCOUT_HISTORY: fifo })).toContain(`(the history is not saved: ${fifo} is not a regular file;`);
    expect(await ask({ SCOUT_HISTORY: "/dev/zero" })).toContain(
      "(the history is not saved: /dev/zero is not a regular file;",
    );
  });

  it("an existing 0644 history file becomes 0600", async () => {
    const home = tree({});
    const file = path.join(home, "history");
    fs.writeFileSync(file, "an earlier question\n", { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await ask({ SCOUT_HISTORY: file });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe("an earlier question\nwhere is safe_path defined?\n/exit\n");
  });

  it("a symbolic link is not followed: the file it points at stays as it was", async () => {
    const home = tree({});
    const target = path.join(home, "notes.txt");
    fs.writeFileSync(target, "my own notes\n".repeat(600));
    const link = path.join(home, ".scout_history");
    fs.symlinkSync(target, link);
    const screen = await ask({ HOME: home, SCOUT_HISTORY: undefined as unknown as string });
    expect(screen).toContain(`(the history is not saved: ${link} is a symbolic link;`);
    expect(fs.readFileSync(target, "utf8")).toBe("my own notes\n".repeat(600));
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

describe("what users expect from the CLIs they know", { timeout: 90_000 }, () => {
  it("backslash-Enter and Alt-Enter insert a line break; Enter sends", async () => {
    api.script(reply([text("Two lines.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    await pty.keys("first line\\", "\r", "second line", "\x1b\r", "third line");
    await pty.waitFor(/you > first line⏎second line⏎third line$/);
    pty.type("\r");
    await pty.waitFor(/Two lines\.[\s\S]*you > /);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["first line\nsecond line\nthird line"]);
    expect(pty.screen()).toContain("(3 lines, 33 characters, sent as one question)");
  });

  it("Esc interrupts a running turn, as Ctrl-C does", async () => {
    api.script(slow(20_000, reply([text("Too late.")])));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    pty.type("slow question\r");
    await api.waitForRequests(1);
    pty.type("\x1b");
    await pty.waitFor(/\(cancelled; the conversation is as it was before this question\)\nyou > $/);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).not.toContain("Too late.");
  });

  it("Tab completes slash commands, /model names, /step on|off, and workspace paths after @ (none protected)", async () => {
    const root = tree({ ...FILES, "src/helpers.py": "x = 1\n", ".env": "SECRET=1\n", "server.key": "k\n" });
    const pty = scoutOnPty(root);
    await pty.waitFor(/you > /);
    await pty.keys("/tok", "\t");
    await pty.waitFor(/you > \/tokens$/);
    await pty.keys("\x15/model claude-haiku-4", "\t"); // one name in the price table starts so
    await pty.waitFor(/you > \/model claude-haiku-4-5$/);
    await pty.keys("\x15/step o");
    pty.type("\t\t");
    await pty.waitFor(/off[\s\S]*on[\s\S]*you > \/step o$/); // two candidates: listed, the line kept
    await pty.keys("\x15what is in @sr", "\t");
    await pty.waitFor(/you > what is in @src\/$/);
    await pty.keys("h", "\t");
    await pty.waitFor(/you > what is in @src\/helpers\.py$/);
    await pty.keys("\x15@s", "\t");
    await pty.waitFor(/you > @src\/$/); // server.key is protected: not offered
    await pty.keys("\x15@.e");
    pty.type("\t");
    await pty.keys("!");
    await pty.waitFor(/you > @\.e!$/); // .env neither
    pty.type("\x15\x04");
    expect(await pty.exited).toBe(0);
  });

  it("@path attaches the file under read_file's rules; outside, protected or binary: refused, nothing sent", async () => {
    api.script(reply([text("It defines safe_path.")]));
    const root = tree({ ...FILES, ".env": "SECRET=1\n", "image.bin": "\x00\x01\x02binary" });
    const pty = scoutOnPty(root, claude());
    await pty.waitFor(/you > /);
    const lines = ["what does @app.py do?", "read @.env", "read @../outside.txt", "read @image.bin"];
    for (const [i, line] of lines.entries()) {
      pty.type(`${line}\r`);
      await pty.waitFor(prompts(i + 2));
    }
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(api.requests).toHaveLength(1);
    expect(questions()[0]).toBe(
      'what does @app.py do?\n\n<file path="app.py">\n1\timport os\n2\t\n3\tdef safe_path(p):\n4\t    return os.path.normpath(p)\n(lines 1-4 of 4)\n</file>',
    );
    const screen = pty.screen();
    expect(screen).toMatch(/\(@app\.py attached: lines 1-4 of 4, \d+ characters\)/);
    expect(screen).toMatch(/@\.env is not attached: .*; nothing was sent/);
    expect(screen).toMatch(/@\.\.\/outside\.txt is not attached: .*outside.*; nothing was sent/);
    expect(screen).toMatch(/@image\.bin is not attached: image\.bin is a binary file.*; nothing was sent/);
    expect(screen).not.toContain("SECRET");
  });
});

describe("sessions that resume", { timeout: 120_000 }, () => {
  it("keeps each REPL session under home (0600); --continue resumes the last, /clear starts anew, --resume picks", async () => {
    api.script(reply([text("In app.py.")]), reply([text("A normalised path.")]), reply([text("Fresh.")]));
    api.script(reply([text("Picked the first.")]));
    const home = tree({});
    const root = tree(FILES);
    const env = { ...claude(), HOME: home, SCOUT_SESSIONS: undefined as unknown as string };
    const run = async (args: string[], lines: string[], pick?: string) => {
      const pty = scoutOnPty(root, env, { extraArgs: args });
      if (pick !== undefined) {
        await pty.waitFor(/resume which\? \[1-2, Enter: 1\] $/);
        pty.type(`${pick}\r`);
      }
      await pty.waitFor(/you > $/);
      for (const [i, line] of lines.entries()) {
        pty.type(`${line}\r`);
        await pty.waitFor(prompts(i + 2));
      }
      pty.type("/exit\r");
      expect(await pty.exited).toBe(0);
      return pty.screen();
    };
    const folder = path.join(home, ".scout", "sessions");
    await run([], ["where is safe_path?"]);
    const [first] = fs.readdirSync(folder);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, first)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(path.join(folder, first), "utf8"));
    expect(saved.workspace).toBe(fs.realpathSync(root));
    expect(saved.history.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);

    const continued = await run(["--continue"], ["what does it return?", "/clear", "again?"]);
    expect(continued).toMatch(/\(resumed: 1 question\(s\), last saved .*; \/clear starts a new session\)/);
    const sent = api.requests[1].body.messages.map((m: { role: string }) => m.role);
    expect(sent).toEqual(["user", "assistant", "user"]); // the first session's turn went along
    expect(fs.readdirSync(folder)).toHaveLength(2); // /clear: "again?" went to a new file

    const picked = await run(["--resume"], ["one more?"], "2");
    expect(picked).toMatch(
      / {2}1 {2}.* 1 question\(s\) {2}again\?\n {2}2 {2}.* 2 question\(s\) {2}where is safe_path\?\n/,
    );
    expect(api.requests[3].body.messages).toHaveLength(5); // the older session's two turns, then the question
  });

  it("SCOUT_SESSIONS= keeps none; --continue without a terminal is a usage error", async () => {
    const home = tree({});
    const pty = scoutOnPty(tree(FILES), { HOME: home, SCOUT_SESSIONS: "" });
    await pty.waitFor(/you > /);
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(fs.readdirSync(home)).toEqual([]);
    const { runCli } = await import("./helpers.js");
    const piped = await runCli(["--continue"], { env: { HOME: home } });
    expect(piped.stderr).toContain("scout: --continue needs a terminal");
    expect(piped.code).toBe(2);
  });
});
