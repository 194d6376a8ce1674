// The REPL's prompt and step-through mode on a real pseudo-terminal
// (test/pty.ts): history, line editing, long lines, paste, type-ahead,
// Ctrl-C at the prompt, the slash commands, and --step with each key.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply, slow, startApiServer, text, toolUse, type ApiServer } from "../lessons/cases/api-server.js";
import { treeMaker } from "./helpers.js";
import { prompts, scoutOnPty } from "./pty.js";

const FILES = { "app.py": "import os\n\ndef safe_path(p):\n    return os.path.normpath(p)\n" };
const tree = treeMaker();

let api: ApiServer;
beforeEach(async () => {
  api = await startApiServer();
});
afterEach(() => api.close());
const claude = () => ({ ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key" });
/** What each request asked: the last user message's text. */
/** Messages as the history held them: without the cache breakpoint Scout adds to the newest (test/caching.test.ts checks it). */
const plain = (messages: { role: string; content: unknown }[]) =>
  messages.map(({ role, content }) => {
    if (!Array.isArray(content)) return { role, content };
    const blocks = content.map(({ cache_control: _, ...block }) => block);
    return {
      role,
      content: blocks.length === 1 && blocks[0].type === "text" && role === "user" ? blocks[0].text : blocks,
    };
  });
const questions = () => api.requests.map((request) => plain(request.body.messages).at(-1)?.content);

describe("the prompt", { timeout: 90_000 }, () => {
  it("keeps questions in the history file; Up recalls them in the next session; SCOUT_HISTORY= keeps none", async () => {
    const home = tree({});
    const first = scoutOnPty(tree(FILES), { HOME: home, SCOUT_HISTORY: undefined });
    await first.waitFor(/you > /);
    first.type("where is safe_path defined?\r");
    await first.waitFor(prompts(2));
    first.type("/exit\r");
    expect(await first.exited).toBe(0);
    const file = path.join(home, ".scout_history");
    expect(fs.readFileSync(file, "utf8")).toBe("where is safe_path defined?\n/exit\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const second = scoutOnPty(tree(FILES), { HOME: home, SCOUT_HISTORY: undefined });
    await second.waitFor(/you > /);
    await second.keys("\x1b[A", "\x1b[A", "\r"); // Up twice: past /exit to the question, then Enter
    await second.waitFor(prompts(2));
    second.type("\x04");
    expect(await second.exited).toBe(0);
    expect(second.screen()).toContain("safe_path is defined at app.py:3"); // its Markdown drawn: no backticks

    const off = tree({});
    const third = scoutOnPty(tree(FILES), { HOME: off, SCOUT_HISTORY: "" });
    await third.waitFor(/you > /);
    third.type("where is safe_path defined?\r");
    await third.waitFor(prompts(2));
    third.type("\x04");
    expect(await third.exited).toBe(0);
    expect(fs.readdirSync(off)).toEqual([]);
  });

  it("edits the line: Ctrl-A goes to the start, Left/Right move, Ctrl-U and Ctrl-K cut", async () => {
    api.script(reply([text("One.")]), reply([text("Two.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    const [left, right, home, end] = ["\x1b[D", "\x1b[C", "\x1b[H", "\x1b[F"];
    // Ctrl-A to the start, w, 5 right, 1 left, X; End, !; all in one chunk, as fast typing or a macro sends it
    pty.type(["here is main?", "\x01", "w", right, right, right, right, right, left, "X", end, "!", "\r"].join(""));
    await pty.waitFor(prompts(2));
    // Ctrl-U cuts the line; Home, 4 right, Ctrl-K cuts the rest; Ctrl-W cuts a word
    await pty.keys("garbage", "\x15", "what is left?", home, right, right, right, right, "\x0b", " now", "\x17", "\r");
    await pty.waitFor(prompts(3));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["whereX is main?!", "what "]);
  });

  it("a 20,000-character question arrives whole", async () => {
    api.script(reply([text("Long.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    const long = "abcdefghij".repeat(2_000);
    pty.type(`${long}\r`);
    await pty.waitFor(/Long\.[\s\S]*you > /);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual([long]);
  });

  it("a bracketed paste of several lines is one question, shown with ⏎; a typed Enter still sends", async () => {
    api.script(reply([text("Pasted.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    pty.type("\x1b[200~Traceback (most recent call last):\r  File \"app.py\", line 3\rKeyError: 'x'\x1b[201~");
    await pty.waitFor(/KeyError: 'x'/);
    pty.type("\r");
    await pty.waitFor(/Pasted\.[\s\S]*you > /);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["Traceback (most recent call last):\n  File \"app.py\", line 3\nKeyError: 'x'"]);
    expect(pty.screen()).toContain("you > Traceback (most recent call last):⏎  File");
    expect(pty.screen()).toMatch(/\(3 lines, \d+ characters, sent as one question\)/);
  });

  it("what is typed while a turn runs appears at the next prompt", async () => {
    api.script(slow(1500, reply([text("First answer.")])), reply([text("Second answer.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    pty.type("first question\r");
    await api.waitForRequests(1);
    pty.type("second question"); // while the first turn runs
    await pty.waitFor(/First answer\.[\s\S]*you > second question/);
    pty.type("\r");
    await pty.waitFor(/Second answer\./);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["first question", "second question"]);
  });

  it("Ctrl-C with text on the line clears it, and the prompt stays", async () => {
    api.script(reply([text("Answered.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    pty.type("half a thought");
    await pty.waitFor(/half a thought/);
    pty.type("\x03");
    pty.type("the real question\r");
    await pty.waitFor(/Answered\./);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(questions()).toEqual(["the real question"]);
    expect(pty.screen()).not.toContain("press Ctrl-C again");
  });

  it("/model shows and switches the model; /history shows the conversation; /clear starts over", async () => {
    api.script(reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]), reply([text("In app.py.")]));
    api.script(reply([text("Fresh start.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    const lines = ["/model", "/model claude-sonnet-4-5", "where is safe_path?", "/history", "/clear", "again?"];
    for (const [i, line] of lines.entries()) {
      pty.type(`${line}\r`);
      await pty.waitFor(prompts(i + 2));
    }
    pty.type("/help\r");
    await pty.waitFor(/\/exit +quit/);
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).toContain("model: Claude (claude-haiku-5-5)\n");
    expect(screen).toContain("model: Claude (claude-sonnet-4-5) (the conversation carries over)");
    expect(screen).toContain('[you] where is safe_path?\n  grep {"pattern":"safe_path"}\nIn app.py.\n');
    expect(api.requests.map((request) => request.body.model)).toEqual(Array(3).fill("claude-sonnet-4-5"));
    expect(plain(api.requests[2].body.messages)).toEqual([{ role: "user", content: "again?" }]);
    for (const command of ["/model", "/history", "/clear", "/step", "/tools", "/tokens", "/help", "/exit"])
      expect(screen).toMatch(new RegExp(`^  ${command} `, "m"));
  });

  it("/request --json prints the last request's body exactly as the API server received it", async () => {
    api.script(reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]), reply([text("In app.py.")]));
    const pty = scoutOnPty(tree(FILES), claude());
    await pty.waitFor(/you > /);
    pty.type("where is safe_path?\r");
    await pty.waitFor(prompts(2));
    pty.type("/request --json\r");
    await pty.waitFor(prompts(3));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    const after = pty.screen().split("/request --json\n").at(-1) ?? "";
    const printed = after.slice(0, after.lastIndexOf("you > ")).trim();
    expect(printed.startsWith("{\n")).toBe(true);
    expect(api.requests).toHaveLength(2);
    expect(JSON.parse(printed)).toEqual(api.requests[1].body);
  });

  it("/request --json offline: the body Scout would send, said to be so; before a question, that there is none", async () => {
    const pty = scoutOnPty(tree(FILES), { SCOUT_MODEL: "claude-opus-4-8" });
    await pty.waitFor(/you > /);
    const lines = ["/request --json", "where is safe_path defined?", "/request --json", "/request --xml"];
    for (const [i, line] of lines.entries()) {
      pty.type(`${line}\r`);
      await pty.waitFor(prompts(i + 2));
    }
    pty.type("\x04");
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).toContain("/request --json\n(no request yet: ask a question first)\n");
    const note = "(offline: nothing went to the API; this is the body Scout would send claude-opus-4-8)\n";
    expect(screen).toContain(note);
    const after = screen.split(note)[1];
    const body = JSON.parse(after.slice(0, after.indexOf("you > ")).trim());
    expect(Object.keys(body)).toEqual(["model", "max_tokens", "system", "tools", "messages", "stream"]);
    expect(body.model).toBe("claude-opus-4-8");
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(["read_file", "list_files", "glob", "grep"]);
    expect(body.system[0].cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages[0]).toEqual({ role: "user", content: "where is safe_path defined?" });
    expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });
    expect(screen).toContain("/request shows the last request block by block; /request --json, its body as sent");
  });

  it("/model with the offline model says names are ignored", async () => {
    const pty = scoutOnPty(tree(FILES));
    await pty.waitFor(/you > /);
    pty.type("/model claude-sonnet-4-5\r");
    await pty.waitFor(prompts(2));
    pty.type("\x04");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain("the offline teaching model answers here; model names are ignored");
  });
});

describe("step-through mode", { timeout: 90_000 }, () => {
  it("--step: space runs, s skips (is_error result), c continues, q ends the turn and rolls it back", async () => {
    api.script(
      reply([toolUse("toolu_1", "grep", { pattern: "safe_path" })]),
      reply([text("Skipped, so I cannot say.")]),
      reply([toolUse("toolu_2", "grep", { pattern: "safe_path" })]),
      reply([text("app.py:3.")]),
    );
    const pty = scoutOnPty(tree(FILES), claude(), { extraArgs: ["--step"] });
    await pty.waitFor(/you > /);
    pty.type("first?\r");
    await pty.waitFor(/⏸ \[1\] next: model call with 1 message, 0 input tokens so far this turn/);
    pty.type(" ");
    await pty.waitFor(/⏸ \[2\] next: grep \{"pattern":"safe_path"\}/);
    pty.type("s");
    await pty.waitFor(/⏸ \[3\] next: model call with 3 messages, 100 input tokens so far/);
    pty.type(" ");
    await pty.waitFor(prompts(2));
    pty.type("second?\r");
    await pty.waitFor(/⏸ \[1\] next: model call with 5 messages/);
    pty.type("c");
    await pty.waitFor(prompts(3));
    pty.type("third?\r");
    await pty.waitFor(/⏸ \[1\] next: model call with 9 messages/);
    pty.type("q");
    await pty.waitFor(prompts(4));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);

    const screen = pty.screen();
    expect(screen).toMatch(/\[2\] grep \{"pattern":"safe_path"\} → skipped by the user/);
    expect(plain(api.requests[1].body.messages)[2].content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: "Not run: skipped by the user (step-through mode).",
        is_error: true,
      },
    ]);
    expect(screen).toContain("app.py:3.");
    expect(screen.match(/⏸/g)).toHaveLength(5); // c: no pause for the rest of that turn
    expect(screen).toContain("(stopped; the conversation is as it was before this question)");
    expect(api.requests).toHaveLength(4); // q: the third question never reached the model
  });

  it("--step shows the model's input as written: readline-sync's placeholders ($<cwd>, its older form) are not expanded", async () => {
    const pattern = "$<cwd> $\u007bcwd} $$<x>"; // \u007b: "{", the older form's brace
    api.script(reply([toolUse("toolu_1", "grep", { pattern })]), reply([text("Done.")]));
    const root = tree(FILES);
    const pty = scoutOnPty(root, claude(), { extraArgs: ["--step"] });
    await pty.waitFor(/you > /);
    pty.type("q?\r");
    await pty.waitFor(/⏸ \[1\] next: model call/);
    pty.type(" ");
    await pty.waitFor(/⏸ \[2\] next: grep /);
    pty.type("c");
    await pty.waitFor(prompts(2));
    pty.type("/exit\r");
    expect(await pty.exited).toBe(0);
    expect(pty.screen()).toContain(`⏸ [2] next: grep {"pattern":"${pattern}"}`);
    expect(pty.screen()).not.toContain(`"pattern":"${process.cwd()}`);
  });

  it("/step on and /step off switch it in the session", async () => {
    const pty = scoutOnPty(tree(FILES));
    await pty.waitFor(/you > /);
    pty.type("/step on\r");
    await pty.waitFor(/step-through on[\s\S]*you > /);
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(/⏸ \[1\]/);
    pty.type("q");
    await pty.waitFor(prompts(3));
    pty.type("/step off\r");
    await pty.waitFor(prompts(4));
    pty.type("where is safe_path defined?\r");
    await pty.waitFor(/is defined at app.py:3[\s\S]*you > /);
    pty.type("\x04");
    expect(await pty.exited).toBe(0);
    expect(pty.screen().match(/⏸/g)).toHaveLength(1);
  });
});
