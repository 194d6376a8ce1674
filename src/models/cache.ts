// Prompt caching: where Scout asks the Messages API to cache the start of a request, with cache_control breakpoints.
//
// A request is read in the order tools → system → messages, and a breakpoint
// caches everything up to and including the block that carries it. Scout
// places two, well under the API's limit of four:
//   1. on the system prompt: tools and system prompt, the same on every call;
//   2. on the last block of the newest message: the whole conversation so far,
//      which the next call sends again with two more messages at the end.
// The API looks back from a breakpoint for the longest prefix it cached
// before, so call n+1 reads what call n wrote and writes only what is new.
// A prefix shorter than the model's minimum (src/tokens/model-sizes.ts) is
// simply not cached: no error, no charge, so the breakpoints are always set.
import type Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, ModelRequest } from "../core/loop.js";

/** The only cache type the API knows: it lives 5 minutes, renewed by every read. */
export const EPHEMERAL = { type: "ephemeral" } as const;

/** The request's system, tools and messages as the API gets them, with Scout's breakpoints when `cache` is on. */
export function withCacheBreakpoints(request: ModelRequest, cache: boolean) {
  const system: Anthropic.TextBlockParam[] | string = cache
    ? [{ type: "text", text: request.system, cache_control: EPHEMERAL }]
    : request.system;
  const messages = cache ? markNewest(request.messages) : request.messages;
  return { system, tools: request.tools, messages };
}

/** claudeModel's `prepare` with caching on: every request marked (what --no-cache turns off). */
export function cachedRequest(request: ModelRequest) {
  return withCacheBreakpoints(request, true);
}

/** A copy of the history whose newest message's last block carries a breakpoint; the history itself is untouched. */
function markNewest(messages: MessageParam[]): MessageParam[] {
  if (messages.length === 0) return messages;
  const newest = messages[messages.length - 1];
  const blocks: Anthropic.ContentBlockParam[] =
    typeof newest.content === "string" ? [{ type: "text", text: newest.content }] : [...newest.content];
  const last = blocks[blocks.length - 1];
  if (!last || last.type === "thinking" || last.type === "redacted_thinking") return messages;
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL };
  return [...messages.slice(0, -1), { ...newest, content: blocks } as MessageParam];
}

/** How many breakpoints a request carries (tests and /request count them). */
export function countBreakpoints(value: unknown): number {
  return (JSON.stringify(value).match(/"cache_control":/g) ?? []).length;
}
