// The offline teaching model: not an LLM, but a small fixed policy that
// answers through the same interface as Claude, so Scout runs without a key
// and every run is the same.
//
// It sees only the conversation, as a model
// would, and follows the workflow the system prompt teaches:
// search (grep, glob or list_files), read a window, answer citing path:line.
import type { ContentBlock, MessageParam, Model, ModelResponse } from "../agent.js";
import { estimateTokens } from "../tokens/count.js";
import { escapeRegex, filePatternFor, folderAskedAbout, isIdentifier, searchTerm } from "./offline-question.js";

export const OFFLINE_MODEL_NAME = "offline-teacher";
/** Said once at start-up, so nobody mistakes the offline model for an LLM. */
export const OFFLINE_NOTICE =
  "offline teaching model: a fixed search-then-read policy, not an LLM; set ANTHROPIC_API_KEY to talk to Claude";
/** Lines read around the best grep hit, and where the hit sits in that window. */
const READ_WINDOW = 15;
const LINES_BEFORE_HIT = 4;
/** How many files or entries an answer lists. */
const MAX_LISTED = 10;

export function offlineModel(): Model {
  return {
    name: OFFLINE_MODEL_NAME,
    async createMessage(request, { onText }) {
      const content = decide(request.messages);
      const toolUse = content.some((block) => block.type === "tool_use");
      if (!toolUse) onText?.(content.map((block) => (block.type === "text" ? block.text : "")).join(""));
      const response: ModelResponse & { id: string; type: "message"; role: "assistant"; stop_sequence: null } = {
        id: `msg_offline_${request.messages.length}`,
        type: "message",
        role: "assistant",
        model: OFFLINE_MODEL_NAME,
        content,
        stop_reason: toolUse ? "tool_use" : "end_turn",
        stop_sequence: null,
        // An estimate, as the Messages API would count it, so the step log shows real-looking figures.
        usage: {
          input_tokens: estimateTokens(JSON.stringify(request)),
          output_tokens: estimateTokens(JSON.stringify(content)),
        },
      };
      return response;
    },
  };
}

interface Exchange {
  id: string;
  name: string;
  input: Record<string, any>;
  result: string;
  isError: boolean;
}

/** Reads the current turn (the last question and the tool calls since) and picks the next move. */
function decide(messages: MessageParam[]): ContentBlock[] {
  const start = messages.findLastIndex((message) => message.role === "user" && typeof message.content === "string");
  const question = String(messages[start]?.content ?? "");
  const done = exchangesSince(messages.slice(start + 1));
  const callId = `toolu_offline_${messages.length}`;
  const last = done.at(-1);

  if (!last) return firstMove(question, callId);
  if (last.name === "grep") {
    const term = termOf(last.input.pattern);
    if (last.isError || last.result.startsWith("No matches")) {
      const tries = done.filter((exchange) => exchange.name === "grep").length;
      if (tries === 1 && !last.input.pattern.startsWith("(?i)")) {
        return [toolUse(callId, "grep", { pattern: `(?i)${last.input.pattern}` })]; // one broader retry
      }
      return answer(
        `I couldn't find \`${term}\` in the workspace (grep found no match for /${done[0].input.pattern}/${tries > 1 ? ` nor /${last.input.pattern}/` : ""}).`,
      );
    }
    const hit = bestHit(last.result, term);
    return [
      toolUse(callId, "read_file", {
        path: hit.path,
        offset: Math.max(1, hit.line - LINES_BEFORE_HIT),
        limit: READ_WINDOW,
      }),
    ];
  }
  if (last.name === "read_file") return answerFromRead(done);
  if (last.isError) return answer(`I couldn't get an answer: ${last.name} said "${last.result}".`);
  if (last.name === "glob") return answerList(`Files matching \`${last.input.pattern}\`, newest first:`, last.result);
  return answerList(`\`${last.input.path ?? "."}\` holds, newest first:`, last.result);
}

/** The first tool call: glob for kinds of files, list_files for "what is in", otherwise grep. */
function firstMove(question: string, callId: string): ContentBlock[] {
  const term = searchTerm(question);
  const filePattern = filePatternFor(question);
  if (filePattern && !isIdentifier(term)) return [toolUse(callId, "glob", { pattern: filePattern })];
  const folder = folderAskedAbout(question);
  if (folder !== null) return [toolUse(callId, "list_files", { path: folder })];
  if (!term) return answer("Ask me about a name in the code, for example: where is main defined?");
  return [toolUse(callId, "grep", { pattern: escapeRegex(term) })];
}

interface Hit {
  path: string;
  line: number;
  text: string;
  defines: boolean;
}

/** Words that introduce a definition in the languages the lessons use. */
const DEFINITION_KEYWORDS = "def|class|function|func|fn|interface|type|struct|enum|const|let|var|module";

/**
 * The hit to read: a line that defines the term if there is one, else the
 * first (newest) hit. A keyword line (def, class, function …) beats a line
 * that starts with the name and assigns or declares it ("name = …",
 * "name: …", a method "name(…) {").
 */
function bestHit(grepOutput: string, term: string): Hit {
  const hits = grepOutput.split("\n").flatMap((line) => {
    const match = /^(.+?):(\d+):(.*)$/.exec(line);
    return match ? [{ path: match[1], line: Number(match[2]), text: match[3], defines: true }] : [];
  });
  const name = escapeRegex(term);
  const definitions = [
    new RegExp(`\\b(${DEFINITION_KEYWORDS})\\s+\\*?${name}\\b`),
    new RegExp(`^\\s*(export\\s+)?(async\\s+)?${name}\\s*([=:]|\\(.*\\)[^;]*\\{\\s*$)`),
  ];
  for (const definition of definitions) {
    const hit = hits.find((candidate) => definition.test(candidate.text));
    if (hit) return hit;
  }
  return { ...hits[0], defines: false };
}

/** Answers from the window read_file returned, citing path:line for the grep hit. */
function answerFromRead(done: Exchange[]): ContentBlock[] {
  const grep = done.findLast((exchange) => exchange.name === "grep")!;
  const read = done.at(-1)!;
  const term = termOf(grep.input.pattern);
  const hit = bestHit(grep.result, term);
  const quoted = read.result
    .split("\n")
    .filter((line) => {
      const number = Number(/^\s*(\d+)\t/.exec(line)?.[1]);
      return number >= hit.line - 1 && number <= hit.line + 3;
    })
    .map((line) => `    ${line}`);
  const others = grep.result
    .split("\n")
    .filter((line) => /^.+?:\d+:/.test(line) && !line.startsWith(`${hit.path}:${hit.line}:`));
  const cited = others.slice(0, 3).map((line) => /^(.+?:\d+):/.exec(line)![1]);
  const more = others.length > cited.length ? ` and ${others.length - cited.length} more` : "";
  return answer(
    [
      `\`${term}\` ${hit.defines ? "is defined" : "appears"} at ${hit.path}:${hit.line}:`,
      "",
      ...quoted,
      ...(cited.length ? ["", `It is also mentioned at ${cited.join(", ")}${more}.`] : []),
    ].join("\n"),
  );
}

function answerList(heading: string, result: string): ContentBlock[] {
  const lines = result.split("\n");
  const entries = lines.filter((line) => !line.startsWith("("));
  if (entries.length === 0 || result.startsWith("No files")) return answer(`I couldn't find any: ${result}`);
  const listed = entries.slice(0, MAX_LISTED).map((entry) => `- ${entry}`);
  const rest = entries.length > MAX_LISTED ? [`- … and ${entries.length - MAX_LISTED} more`] : [];
  const footer = lines.filter((line) => line.startsWith("("));
  return answer([heading, ...listed, ...rest, ...footer].join("\n"));
}

function exchangesSince(messages: MessageParam[]): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_use")
        exchanges.push({
          id: block.id,
          name: block.name,
          input: block.input as Record<string, any>,
          result: "",
          isError: false,
        });
      const exchange = block.type === "tool_result" && exchanges.find((e) => e.id === block.tool_use_id);
      if (block.type === "tool_result" && exchange) {
        exchange.result = typeof block.content === "string" ? block.content : "";
        exchange.isError = block.is_error === true;
      }
    }
  }
  return exchanges;
}

function toolUse(id: string, name: string, input: Record<string, unknown>): ContentBlock {
  return { type: "tool_use", id, name, input };
}

function answer(text: string): ContentBlock[] {
  return [{ type: "text", text }];
}

/** The search term behind a grep pattern: without (?i) and regex escapes. */
function termOf(pattern: string): string {
  return pattern.replace(/^\(\?i\)/, "").replace(/\\(.)/g, "$1");
}
