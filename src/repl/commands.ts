// The slash commands: what a person can do at the prompt besides asking.
import type { ContentBlock } from "../core/loop.js";
import { escapeControl } from "../guards/escape.js";
import type { Session } from "./session.js";

export const HELP = `Ask a question about the code in the workspace, e.g. "where is main defined?"
  /model [NAME]   show the model, or switch to NAME
  /history        the conversation so far: questions, tool calls, answers
  /clear          start over: forget the conversation (/reset does the same)
  /step on|off    step-through mode: pause before each model call and tool call
  /tools          the tools the model can call
  /tokens         what the tool schemas cost, and what this session has used (tokens and dollars)
  /request        the last request sent to the model, block by block, with the tokens of each
  /context        where this session's input tokens went: schemas, hidden prompt, history, each tool's results
  /help           this help
  /exit           quit (or Ctrl-D, or Ctrl-C twice at an empty prompt)
Ctrl-C or Esc cancels a running turn; Ctrl-C clears the line. Up/Down recall earlier questions.
Tab completes commands, their arguments, and paths after @; @path attaches that file.
A multi-line paste is one question; its line breaks show as ⏎, as do backslash-Enter and Alt-Enter.
Ctrl-Z suspends Scout (fg brings it back).
Without a key, the offline teaching model answers: where is X defined?  who calls X? / where is X used?
  which files are tests? (or python, docs …)  what is in src?  and lines that mention words; it cannot explain code.`;

/** What a command may change beyond the session: step-through mode exists only on a terminal. */
export interface CommandContext {
  setStepping?: (on: boolean) => void;
}

/** Handles a /command. Returns "exit" for /exit. */
export async function runCommand(session: Session, line: string, context: CommandContext = {}): Promise<"exit" | void> {
  const [name, ...args] = line.trim().split(/\s+/);
  const print = (text: string) => console.log(escapeControl(text));
  if (name === "/exit" || name === "/quit") return "exit";
  if (name === "/help") print(HELP);
  else if (name === "/tools") {
    const { tools } = await import("../core/scout.js"); // loaded when needed, so the prompt comes up sooner
    for (const tool of tools) print(`${tool.name.padEnd(11)} ${firstSentence(tool.description)}`);
  } else if (name === "/tokens") {
    try {
      print(await session.options.schemaCosts(session.choice));
    } catch (error) {
      print(`(could not count the schemas: ${await session.options.describeError(error)})`);
    }
    print(`\n${session.usage.format(session.choice.estimated)}`);
  } else if (name === "/context") {
    const { requests } = session.usage;
    if (requests.length === 0) return print("(no request yet: ask a question first)");
    const { formatSplit } = await import("../tokens/token-split.js");
    print(formatSplit(requests, session.choice.pricing.model));
  } else if (name === "/request") {
    print(await session.describeLastRequest());
  } else if (name === "/model") {
    if (args.length === 0) return print(`model: ${session.choice.label}`);
    const chosen = session.options.chooseModel(args[0]);
    if (typeof chosen === "string") return print(chosen);
    session.choice = chosen;
    print(`model: ${chosen.label} (the conversation carries over)`);
  } else if (name === "/history") print(transcript(session) || "(no conversation yet)");
  else if (name === "/clear" || name === "/reset") {
    session.clear();
    print("(conversation cleared: the next question starts a new one)");
  } else if (name === "/step") {
    if (!context.setStepping) return print("/step works only on a terminal");
    if (args[0] !== "on" && args[0] !== "off")
      return print(`step-through is ${session.stepThrough ? "on" : "off"}; /step on or /step off`);
    context.setStepping(args[0] === "on");
    print(`(step-through ${args[0]})`);
  } else print(`unknown command ${name}; try /help`);
}

/** /history: each question (marked "[you]", so it does not look like a live prompt), each tool call on one line, each answer. */
export function transcript(session: Session): string {
  const lines: string[] = [];
  for (const message of session.history) {
    if (typeof message.content === "string") {
      lines.push(message.role === "user" ? `[you] ${message.content}` : message.content);
      continue;
    }
    for (const block of message.content as ContentBlock[]) {
      if (block.type === "tool_use") lines.push(`  ${block.name} ${JSON.stringify(block.input)}`);
      else if (block.type === "text" && message.role === "assistant") lines.push(block.text);
      else if (block.type === "tool_result" && block.is_error) lines.push("    (error)");
    }
  }
  return lines.join("\n");
}

/** A description's first sentence: up to the first period and space that do not end "e.g.". */
function firstSentence(text: string): string {
  return /^.*?(?<!e\.g)\.(?=\s)/.exec(text)?.[0] ?? text;
}
