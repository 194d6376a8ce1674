// A deterministic model that replays the responses it is given, in order, and records every request it saw.
//
// Tests use it to drive the loop step by step; lessons and experiments use it
// to show a run that is the same every time, with tool calls, stop reasons
// and usage chosen by hand. It streams a reply's text as Claude would.
import type { ContentBlock, Model, ModelRequest, Usage } from "../core/loop.js";

export const SCRIPTED_MODEL_NAME = "scripted";
/** The usage a reply reports when the script gives none. */
export const SCRIPTED_USAGE: Usage = { input_tokens: 10, output_tokens: 5 };

/** One reply: what the model answers (usage optional), or an Error that call throws. */
export type ScriptedReply = { content: ContentBlock[]; stop_reason: string | null; usage?: Usage } | Error;

export interface ScriptedModel extends Model {
  /** A deep copy of every request, in the order they came. */
  readonly requests: ModelRequest[];
  /** The replies not used yet. */
  readonly replies: ScriptedReply[];
}

/** A model that answers each call with the next reply; a call past the end throws. */
export function scriptedModel(replies: ScriptedReply[], name = SCRIPTED_MODEL_NAME): ScriptedModel {
  const requests: ModelRequest[] = [];
  const queue = [...replies];
  return {
    name,
    requests,
    replies: queue,
    async createMessage(request, { signal, onText }) {
      // A copy: the loop keeps appending to the history it sends.
      requests.push(structuredClone(request));
      signal?.throwIfAborted();
      const reply = queue.shift();
      if (!reply) throw new Error("the script ran out of replies");
      if (reply instanceof Error) throw reply;
      for (const block of reply.content) if (block.type === "text") onText?.(block.text);
      return {
        model: name,
        content: reply.content,
        stop_reason: reply.stop_reason,
        usage: reply.usage ?? SCRIPTED_USAGE,
      };
    },
  };
}

/** A text block, for writing scripts. */
export function text(text: string): ContentBlock {
  return { type: "text", text };
}

/** A tool_use block, for writing scripts. */
export function toolUse(id: string, name: string, input: unknown): ContentBlock {
  return { type: "tool_use", id, name, input };
}
