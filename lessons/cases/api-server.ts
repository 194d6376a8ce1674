// A small stand-in for the Messages API, for tests and the course: it answers from a queue
// of scripted responses and records every request, so a test can run the
// real SDK (through the real CLI) and check exactly what was sent. It lives beside the
// shared cases because the model exercise's cases, lesson 12's grader and the proxy demo use it too.
// Point the SDK at it with ANTHROPIC_BASE_URL=server.url.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** The usage a message reports; the cache fields as the API reports prompt caching. */
export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** What the server does with one request. */
export type Scripted =
  | { kind: "message"; content: Block[]; stop_reason: string; usage: ApiUsage }
  | { kind: "error"; status: number; type: string; message: string; retryAfter?: number }
  | { kind: "stream_error"; type: string; message: string }
  | { kind: "stall"; text: string }
  | { kind: "count"; input_tokens: number }
  | { kind: "hang" }
  | { kind: "events"; events: { type: string; [key: string]: unknown }[] }
  | { kind: "slow"; ms: number; then: Scripted };

export const text = (text: string): Block => ({ type: "text", text });
export const toolUse = (id: string, name: string, input: Record<string, unknown>): Block => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** An assistant message; its stop_reason is tool_use when it holds a tool_use block, unless given. */
export function reply(
  content: Block[],
  stop_reason = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
  usage: ApiUsage = { input_tokens: 100, output_tokens: 20 },
): Scripted {
  return { kind: "message", content, stop_reason, usage };
}
/**
 * An HTTP error with the API's error body, e.g. apiError(529, "overloaded_error", "Overloaded"); with
 * `retryAfter`, a retry-after header asking the client to wait that many seconds, as the API sends with a 429.
 */
export const apiError = (status: number, type: string, message: string, retryAfter?: number): Scripted => ({
  kind: "error",
  status,
  type,
  message,
  retryAfter,
});
/** A stream that starts (status 200) and then fails with an error event, as an overload mid-answer does. */
export const streamError = (type: string, message: string): Scripted => ({ kind: "stream_error", type, message });
/** A stream that starts writing `text` and then stalls, never finishing (until the client gives up). */
export const stall = (text: string): Scripted => ({ kind: "stall", text });
/** A count_tokens answer. */
export const count = (input_tokens: number): Scripted => ({ kind: "count", input_tokens });
/** A stream of exactly these server-sent events (after status 200): malformed ones included, as a hostile server sends. */
export const events = (...list: { type: string; [key: string]: unknown }[]): Scripted => ({
  kind: "events",
  events: list,
});
/** Receives the request and never answers (until the client gives up). */
export const hang: Scripted = { kind: "hang" };
/** Answers `then` after `ms` milliseconds: a turn that takes a while, to type during. */
export const slow = (ms: number, then: Scripted): Scripted => ({ kind: "slow", ms, then });

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ApiServer {
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues answers for POST /v1/messages. */
  script(...responses: Scripted[]): void;
  /** Queues answers for POST /v1/messages/count_tokens. */
  scriptCount(...responses: Scripted[]): void;
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Resolves once `n` stalled streams (`stall`) have sent their text: the client is then reading a partial answer. */
  waitForStalls(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startApiServer(): Promise<ApiServer> {
  const queues: Record<string, Scripted[]> = { "/v1/messages": [], "/v1/messages/count_tokens": [] };
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let stalls = 0;
  const stallWaiters: { n: number; resolve: () => void }[] = [];
  const stalled = () => {
    stalls++;
    for (const w of stallWaiters.filter((w) => stalls >= w.n)) w.resolve();
  };

  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const path = (req.url ?? "").split("?")[0];
    const body = raw ? JSON.parse(raw) : undefined;
    requests.push({ path, headers: req.headers, body });
    for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();

    const queue = req.method === "POST" ? queues[path] : undefined;
    // Nothing scripted: a 400 (never retried) that says so, so the test fails clearly.
    let next =
      queue?.shift() ??
      apiError(400, "invalid_request_error", `api-server: nothing scripted for ${req.method} ${path}`);
    while (next.kind === "slow") {
      const { ms, then } = next;
      await new Promise((resolve) => setTimeout(resolve, ms));
      next = then;
    }
    if (next.kind === "hang") return; // the socket stays open until the client aborts
    if (next.kind === "error")
      return sendJson(
        res,
        next.status,
        { type: "error", error: { type: next.type, message: next.message } },
        next.retryAfter === undefined ? {} : { "retry-after": String(next.retryAfter) },
      );
    if (next.kind === "count") return sendJson(res, 200, { input_tokens: next.input_tokens });
    if (next.kind === "stream_error" || next.kind === "stall") return sendBrokenStream(res, next, body?.model, stalled);
    if (next.kind === "events") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const data of next.events) res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
      return res.end();
    }
    const message = {
      id: `msg_${requests.length}`,
      type: "message",
      role: "assistant",
      model: body?.model ?? "unknown",
      content: next.content,
      stop_reason: next.stop_reason,
      stop_sequence: null,
      usage: next.usage,
    };
    if (body?.stream) sendStream(res, message);
    else sendJson(res, 200, message);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script: (...responses) => queues["/v1/messages"].push(...responses),
    scriptCount: (...responses) => queues["/v1/messages/count_tokens"].push(...responses),
    waitForRequests: (n) => new Promise((resolve) => (requests.length >= n ? resolve() : waiters.push({ n, resolve }))),
    waitForStalls: (n) => new Promise((resolve) => (stalls >= n ? resolve() : stallWaiters.push({ n, resolve }))),
    close: () => {
      server.closeAllConnections(); // hung requests included
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * The message as server-sent events, in the order the real API sends them:
 * message_start (empty content), then per block content_block_start, deltas
 * (text_delta, or input_json_delta with the input JSON in pieces) and
 * content_block_stop, then message_delta (stop_reason, output tokens) and message_stop.
 */
function sendStream(
  res: http.ServerResponse,
  message: { content: Block[]; stop_reason: string; usage: ApiUsage },
): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: { type: string; [key: string]: unknown }) =>
    res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  send({
    type: "message_start",
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  send({ type: "ping" });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const piece of halves(block.text))
        send({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    } else {
      send({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      for (const piece of halves(JSON.stringify(block.input)))
        send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    send({ type: "content_block_stop", index });
  });
  send({
    type: "message_delta",
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send({ type: "message_stop" });
  res.end();
}

/** A stream that starts, then fails with an error event, or stalls after some text. */
function sendBrokenStream(
  res: http.ServerResponse,
  how: Scripted & { kind: "stream_error" | "stall" },
  model: string,
  onStalled: () => void,
): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: { type: string; [key: string]: unknown }, written?: () => void) =>
    res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`, written);
  const message = {
    id: "msg_broken",
    type: "message",
    role: "assistant",
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 1 },
  };
  send({ type: "message_start", message });
  if (how.kind === "stream_error") {
    send({ type: "error", error: { type: how.type, message: how.message } });
    res.end();
  } else {
    send({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    send({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: how.text } }, onStalled);
  }
}

/** Splits a string in two, so the client has to join the pieces as it would for a real stream. */
function halves(s: string): string[] {
  const middle = Math.ceil(s.length / 2);
  return [s.slice(0, middle), s.slice(middle)].filter(Boolean);
}
