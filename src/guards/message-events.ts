// A streamed answer put together from the API's events, as the SDK's MessageStream does, except for a tool's input that is not JSON.
//
// The SDK parses a tool_use block's input when the block ends, and throws if
// it is not JSON; the whole answer is then lost as an "unexpected error".
// Here such an input is kept as an UnreadableInput, which the loop answers
// with an is_error result (src/guards/tool-calls.ts), and the turn goes on.
import type Anthropic from "@anthropic-ai/sdk";
import { UnreadableInput } from "./tool-calls.js";

type Event = Anthropic.RawMessageStreamEvent;
type Block = Record<string, unknown> & { type: string };
/** The message as the loop reads it (the core's ModelResponse); its usage is checked by the caller. */
interface StreamedMessage {
  model: string;
  content: Anthropic.ContentBlockParam[];
  stop_reason: string | null;
  usage: Anthropic.Usage;
}

/** Reads the events to the end and returns the message; `onText` gets each piece of text as it comes. */
export async function messageFromEvents(
  events: AsyncIterable<Event>,
  onText?: (text: string) => void,
): Promise<StreamedMessage> {
  let message: (Omit<StreamedMessage, "content"> & { content: Block[] }) | undefined;
  const json: string[] = []; // each tool_use block's input, as it streams
  for await (const event of events) {
    if (event.type === "message_start") {
      const { model, stop_reason, usage } = event.message;
      message = { model, stop_reason, usage: { ...usage }, content: [] };
    }
    if (!message) continue;
    if (event.type === "content_block_start") {
      message.content[event.index] = { ...(event.content_block as unknown as Block) };
      json[event.index] = "";
    } else if (event.type === "content_block_delta") {
      const block = message.content[event.index];
      if (event.delta.type === "text_delta" && block?.type === "text") {
        block.text = `${block.text ?? ""}${event.delta.text}`;
        onText?.(event.delta.text);
      } else if (event.delta.type === "input_json_delta") json[event.index] += event.delta.partial_json;
    } else if (event.type === "content_block_stop") {
      const block = message.content[event.index];
      if (block?.type === "tool_use" && json[event.index]) block.input = parsedInput(json[event.index]);
    } else if (event.type === "message_delta") {
      message.stop_reason = event.delta.stop_reason;
      // The counters are whole-message totals, given when they apply: overwritten, never added.
      for (const [key, value] of Object.entries(event.usage))
        if (value !== null && value !== undefined) (message.usage as unknown as Record<string, unknown>)[key] = value;
    }
  }
  if (!message) throw new Error("the API's stream ended before the answer began");
  return { ...message, content: message.content.filter(Boolean) as unknown as StreamedMessage["content"] };
}

function parsedInput(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    return new UnreadableInput(`the tool call's input is not valid JSON (${(error as Error).message.slice(0, 200)})`);
  }
}
