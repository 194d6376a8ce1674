// Counting tokens: the Counter type every count goes through, and the offline estimate.
//
// Two ways to count: exact, with the API's free count_tokens endpoint (whose
// numbers are themselves the API's estimate; see models/claude.ts), or an
// offline estimate with @anthropic-ai/tokenizer, the tokenizer of older
// Claude models, which is only approximate for current ones. Every figure
// says which it is.
import { createRequire } from "node:module";
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import type { MessageParam } from "../core/loop.js";
import type { toolSchemas } from "../core/tool.js";

interface Encoder {
  encode(text: string, allowedSpecial: "all"): Uint32Array;
}
let encoder: Encoder | undefined;

// The tokenizer is WebAssembly, and V8 recompiles its hot functions with its optimizing compiler as they
// run; on 2 cores that costs more than it saves. With the baseline compiler alone the build took a median
// 241 ms instead of 666 ms on a worker (8 builds each, load 6), and a counting `scout -p` 0.30 s of CPU
// instead of 0.52 s (5 runs each, load 1.5); a 30,000-character count takes ~10 ms instead of ~7. Set
// before any tokenizer is built, on this thread or a worker (the flag is process-wide, and nothing else in
// Scout is WebAssembly).
v8.setFlagsFromString("--liftoff-only");
/**
 * Texts already counted, with their counts: see estimateTokens. At most this many characters are kept (about
 * a million tokens of text, 4-8 MB); past them the memory starts again, empty, so memory stays bounded. An
 * offline session whose history outgrows it is counted whole at every step again, as before counts were kept.
 */
const MAX_REMEMBERED_CHARS = 4_000_000;
const remembered = new Map<string, number>();
let rememberedChars = 0;

/**
 * Estimated tokens of a text, counted as the package's countTokens does, but
 * with one encoder kept for the whole run: building it costs ~100 ms, and
 * countTokens builds a new one on every call. It loads on first use, so
 * start-up stays fast. Counts are remembered: the step log, the trace and
 * the session's usage each ask about the same tool result, every request
 * re-sends the same system prompt, tools and history, and a 30,000-character
 * text takes ~14 ms to tokenize.
 */
export function estimateTokens(text: string): number {
  const known = remembered.get(text);
  if (known !== undefined) return known;
  const tokens = countOnce(text);
  if (text.length > MAX_REMEMBERED_CHARS) return tokens; // too big to keep: what is kept stays
  if (rememberedChars + text.length > MAX_REMEMBERED_CHARS) {
    remembered.clear();
    rememberedChars = 0;
  }
  remembered.set(text, tokens);
  rememberedChars += text.length;
  return tokens;
}

/** Tokenizes `text`: on the helper thread when there is one, else here. */
function countOnce(text: string): number {
  const counted = helper && countOnHelper(text);
  if (counted !== undefined && counted !== false) return counted;
  encoder ??= (createRequire(import.meta.url)("@anthropic-ai/tokenizer") as { getTokenizer(): Encoder }).getTokenizer();
  return encoder.encode(text.normalize("NFKC"), "all").length;
}

/** Where the messages go in the frame estimateRequestTokens writes around them. */
const MESSAGES_SLOT = '"messages":0';

/**
 * Estimated tokens of a whole request written as JSON (what the offline model reports as its input), counted
 * message by message, so the history a turn re-sends at every step is tokenized once, not at each step again.
 * The sum is exactly the count of the whole text: the tokenizer cuts its text into pieces with a regular
 * expression and counts each piece alone, and it always cuts between the `{"` that opens a message and the
 * letter of its first key (no piece holds a `"` followed by a letter, no special token holds `{` or `"`, and
 * Unicode normalisation joins neither ASCII character to its neighbour). Exact for plain data, which is what
 * the loop sends (a toJSON that depends on its key could differ). Tested against the whole count on every
 * request of offline turns (test/tokens.test.ts).
 */
export function estimateRequestTokens(request: { messages: readonly unknown[] }): number {
  const frame = JSON.stringify({ ...request, messages: 0 }); // the same keys, in the same order
  const at = frame.indexOf(MESSAGES_SLOT);
  if (at < 0 || frame.indexOf(MESSAGES_SLOT, at + 1) >= 0) return estimateTokens(JSON.stringify(request));
  let piece = `${frame.slice(0, at)}"messages":[`;
  let tokens = 0;
  for (let i = 0; i < request.messages.length; i++) {
    const json = JSON.stringify(request.messages[i]) ?? "null"; // as JSON writes an undefined element or a hole
    if (i > 0) piece += ",";
    if (!/^\{"[A-Za-z]/.test(json)) {
      piece += json; // no cut the tokenizer always makes: counted with its neighbours
      continue;
    }
    tokens += estimateTokens(`${piece}{"`);
    piece = json.slice(2);
  }
  return tokens + estimateTokens(`${piece}]${frame.slice(at + MESSAGES_SLOT.length)}`);
}

/**
 * The tokenizer built on another thread: building it takes 0.2-1.2 s here (the busier the machine, the
 * longer), which the REPL's first answer would otherwise wait for. warmTokenizer starts the build as the
 * REPL starts (src/cli.ts, before the REPL's own modules load), while they load and the person types; then estimateTokens asks the thread and waits for its count (a shared
 * flag, so the call stays synchronous), and waits for the build itself only if Enter came first. If the
 * thread fails, counting falls back to this one.
 */
let helper: { worker: Worker; flags: Int32Array } | undefined;
/** How long one count may wait for the thread (the build included) before counting falls back to this thread. */
const HELPER_WAIT_MS = 10_000;

const HELPER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const flags = new Int32Array(workerData.shared);
const encoder = require(workerData.tokenizer).getTokenizer();
parentPort.on("message", (text) => {
  Atomics.store(flags, 1, encoder.encode(text.normalize("NFKC"), "all").length);
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
});`;

/** Starts building the tokenizer on a worker thread (once); the process does not wait for it to exit. */
export function warmTokenizer(): void {
  if (encoder || helper) return;
  const shared = new SharedArrayBuffer(8);
  const tokenizer = createRequire(import.meta.url).resolve("@anthropic-ai/tokenizer");
  const worker = new Worker(HELPER_SOURCE, { eval: true, workerData: { shared, tokenizer } });
  worker.unref();
  worker.on("error", () => (helper = undefined));
  helper = { worker, flags: new Int32Array(shared) };
}

/** The thread's count of `text`, or false when it did not answer in time (then it is not asked again). */
function countOnHelper(text: string): number | false {
  const { worker, flags } = helper!;
  Atomics.store(flags, 0, 0);
  worker.postMessage(text);
  if (Atomics.wait(flags, 0, 0, HELPER_WAIT_MS) === "timed-out") {
    helper = undefined;
    void worker.terminate();
    return false;
  }
  return Atomics.load(flags, 1);
}

type ToolSchema = ReturnType<typeof toolSchemas>[number];
export interface CountRequest {
  model: string;
  system?: string;
  messages: MessageParam[];
  tools?: ToolSchema[];
}
/** Counts the input tokens of one request, exactly (API) or by estimate. */
export type Counter = (request: CountRequest) => Promise<number>;

/** The offline counter: the texts the request carries, tokenized locally. */
export const estimateCounter: Counter = async ({ system = "", messages, tools = [] }) =>
  estimateTokens(system) +
  messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0) +
  tools.reduce((sum, t) => sum + estimateTokens(JSON.stringify(t)), 0);

/** A message's estimated tokens: its text, a tool call's name and input, a tool result's content. */
export function estimateMessageTokens(message: MessageParam): number {
  if (typeof message.content === "string") return estimateTokens(message.content);
  return message.content.reduce((sum, block) => sum + estimateTokens(blockText(block)), 0);
}

/** The text of one content block that the model reads. */
export function blockText(block: Exclude<MessageParam["content"], string>[number]): string {
  if (block.type === "text") return block.text;
  if (block.type === "tool_use") return `${block.name} ${JSON.stringify(block.input)}`;
  if (block.type === "tool_result")
    return typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? "");
  return JSON.stringify(block);
}
