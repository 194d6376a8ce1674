// A logging proxy for the Messages API: it forwards every request unchanged and prints what was sent, one summary per request.
//
// Usage: node lessons/proxy.mjs [--upstream URL] [--port N] [--full]
// then, in another terminal: ANTHROPIC_BASE_URL=http://127.0.0.1:N npx scout
// The key is forwarded but never printed. --full prints each request body whole.
import http from "node:http";
import https from "node:https";

/** A long string is shown cut to this many characters, with its full length. */
const PREVIEW_CHARS = 60;

const preview = (text) => {
  const flat = JSON.stringify(text);
  return flat.length > PREVIEW_CHARS + 2 ? `${flat.slice(0, PREVIEW_CHARS)}…" (${text.length} chars)` : flat;
};

/** " [cache]" when the block carries a cache_control mark: the API caches the request up to there. */
const cacheMark = (block) => (block?.cache_control ? " [cache]" : "");

/** One block of a message, in a few words. */
function describeBlock(block) {
  return describeBlockOnly(block) + cacheMark(block);
}

function describeBlockOnly(block) {
  if (block.type === "text") return `text ${preview(block.text)}`;
  if (block.type === "tool_use") return `tool_use ${block.id} ${block.name} ${JSON.stringify(block.input)}`;
  if (block.type === "tool_result") {
    const content = typeof block.content === "string" ? block.content : JSON.stringify(block.content);
    return `tool_result ${block.tool_use_id}${block.is_error ? " (is_error)" : ""} ${preview(content)}`;
  }
  return block.type;
}

/** The lines that summarise one request: what the model is sent, never the key. */
export function describeRequest(method, path, headers, body) {
  const lines = [`→ ${method} ${path}`];
  const key = headers["x-api-key"] ? "x-api-key" : headers.authorization ? "authorization" : "none";
  lines.push(`  headers: anthropic-version ${headers["anthropic-version"] ?? "(none)"}; key in ${key} (not shown)`);
  if (!body) return lines;
  lines.push(`  model ${body.model}, max_tokens ${body.max_tokens}${body.stream ? ", stream" : ""}`);
  if (typeof body.system === "string") lines.push(`  system: ${preview(body.system)}`);
  else if (Array.isArray(body.system)) lines.push(`  system: ${body.system.map(describeBlock).join(" + ")}`);
  if (body.tools)
    lines.push(`  tools (${body.tools.length}): ${body.tools.map((tool) => tool.name + cacheMark(tool)).join(", ")}`);
  lines.push(`  messages (${body.messages?.length ?? 0}):`);
  (body.messages ?? []).forEach((message, i) => {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    lines.push(`    [${i}] ${message.role}: ${blocks.map(describeBlock).join(" + ")}`);
  });
  return lines;
}

/** Starts the proxy on 127.0.0.1; `print` gets each summary line. Resolves to its URL and a close function. */
export async function startProxy({ upstream, port = 0, full = false, print = console.log }) {
  const target = new URL(upstream);
  const client = target.protocol === "https:" ? https : http;
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    let body;
    try {
      body = raw.length ? JSON.parse(raw.toString("utf8")) : undefined;
    } catch {
      body = undefined; // not JSON: forwarded all the same
    }
    for (const line of describeRequest(req.method, req.url, req.headers, body)) print(line);
    if (full && body) print(JSON.stringify(body, null, 2));
    const headers = { ...req.headers, host: target.host };
    const forward = client.request(new URL(req.url, target), { method: req.method, headers }, (answer) => {
      const events = [];
      answer.on("data", (chunk) => {
        for (const match of chunk.toString("utf8").matchAll(/^event: (\w+)/gm)) events.push(match[1]);
      });
      answer.on("end", () => {
        const kind = answer.headers["content-type"]?.split(";")[0] ?? "no content-type";
        print(
          `← ${answer.statusCode} ${kind}${events.length ? `: ${events.length} events (${events.join(", ")})` : ""}`,
        );
      });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", (error) => {
      print(`← proxy could not reach ${target.origin}: ${error.message}`);
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: `proxy: ${error.message}` } }));
    });
    forward.end(raw);
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i === -1 ? fallback : args[i + 1];
  };
  const proxy = await startProxy({
    upstream: option("--upstream", "https://api.anthropic.com"),
    port: Number(option("--port", "8377")),
    full: args.includes("--full"),
  });
  console.log(`Logging proxy on ${proxy.url}; run Scout with ANTHROPIC_BASE_URL=${proxy.url}`);
}
