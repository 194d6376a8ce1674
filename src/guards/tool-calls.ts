// The tool calls of one model message, checked before any runs: a call the loop cannot run is answered with an is_error result, and the turn goes on.
//
// A model's message is input from outside. A tool_use block may have no
// input, input that is not JSON or not an object (the SDK parses streamed
// input when it is first read, and throws then), input nested thousands deep
// (a recursive check would overflow the stack), or there may be a thousand of
// them (1,000 read_file results made the next request 28.9 MB). Each such call
// is refused with a result that says why, and its block in the history gets
// the input {} so the history can still be sent.

/** A tool_use block as the Messages API writes it (the agent's ContentBlock; named here, since the agent imports this file). */
interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** Most tool calls one message may ask for; the rest are answered "not run" (Claude asks for a few at a time). */
export const MAX_TOOL_CALLS_PER_MESSAGE = 25;
/** Deepest nesting of objects and arrays in a tool's input: every tool takes a flat object. */
export const MAX_INPUT_DEPTH = 32;

/** A tool_use block's input that could not be read (not JSON): the model adapter keeps why, the loop answers with it. */
export class UnreadableInput {
  constructor(readonly why: string) {}
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /** Set when the call is not run: the result the model gets instead. */
  refused?: { content: string; isError: true };
}

/** The message's content made safe to keep and send, and its tool calls, each checked. */
export function checkToolCalls<Block extends { type: string }>(
  content: Block[],
): { content: Block[]; calls: ToolCall[] } {
  const calls: ToolCall[] = [];
  const safe = content.map((item): Block => {
    if (item.type !== "tool_use") return item;
    const block = item as unknown as ToolUseBlock;
    const { id, name } = block;
    const problem = inputProblem(() => block.input);
    if (problem) {
      calls.push({ id, name, input: {}, refused: { content: `Not run: ${problem}.`, isError: true } });
      const sendable: ToolUseBlock = { type: "tool_use", id, name, input: {} }; // built, not spread: input may throw
      return sendable as unknown as Block;
    }
    const n = calls.length + 1;
    const overCap = `Not run: one message may ask for at most ${MAX_TOOL_CALLS_PER_MESSAGE} tool calls (MAX_TOOL_CALLS_PER_MESSAGE); this was call ${n}. Ask for the rest in your next message.`;
    calls.push({
      id,
      name,
      input: block.input,
      ...(n > MAX_TOOL_CALLS_PER_MESSAGE ? { refused: { content: overCap, isError: true } } : {}),
    });
    return item;
  });
  return { content: safe, calls };
}

/** Why a tool_use block's input cannot be used, or undefined when it is an object of bounded depth. */
function inputProblem(read: () => unknown): string | undefined {
  let input: unknown;
  try {
    input = read();
  } catch (error) {
    return `the tool call's input is not valid JSON (${(error as Error).message.slice(0, 200)})`;
  }
  if (input instanceof UnreadableInput) return input.why;
  if (input === undefined) return "the tool call has no input; send a JSON object of arguments";
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return `the tool call's input must be a JSON object of arguments, got ${Array.isArray(input) ? "an array" : input === null ? "null" : typeof input}`;
  if (depthOver(input, MAX_INPUT_DEPTH))
    return `the tool call's input is nested more than ${MAX_INPUT_DEPTH} levels deep (MAX_INPUT_DEPTH); arguments are flat`;
  return undefined;
}

/** Whether `value` nests objects or arrays deeper than `max`, found without recursion. */
function depthOver(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
