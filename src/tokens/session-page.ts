// `scout tokens --trace FILE --html OUT`: a traced session as one self-contained page: each call's input split
// into where it went, its cache reads and writes, and the timeline of requests and replies with each block's tokens.
//
// The split is the local estimate the terminal prints (token-split.ts); the
// cache figures are the usage the trace recorded. No script, font or image
// from anywhere: the page is the same offline and in ten years.
import type { ContentBlock, MessageParam, Usage } from "../core/loop.js";
import { escapeXml, stackedBarChart } from "../lab/charts.js";
import { pageStart } from "../lab/html.js";
import { blockText } from "./count.js";
import { formatCount } from "../guards/format.js";
import { toolPromptTokens } from "./model-sizes.js";
import { estimateFor, MAX_SPLIT_CALLS, type Split, splitRequest } from "./token-split.js";
import type { Trace, TracedCall } from "./trace-read.js";

/** One colour per category, none shared with the cache chart's: a colour means one thing on the page. */
export const CATEGORY_COLOURS: Record<string, string> = {
  "system prompt": "#4e79a7",
  "tool schemas": "#f28e2b",
  "hidden prompt": "#edc948",
  "history text": "#76b7b2",
  "read_file results": "#59a14f",
  "list_files results": "#b07aa1",
  "glob results": "#9c755f",
  "grep results": "#e15759",
};
/** For categories of tools Scout does not have (a trace from another tool set), in turn. */
const SPARE_COLOURS = ["#ff9da7", "#bab0ac", "#b6992d", "#17becf"];
export const CACHE_COLOURS: Record<string, string> = {
  "sent plain": "#3b3b98",
  "cache read": "#d37295",
  "cache write": "#79706e",
};

/** Characters of a block shown in the timeline (its tokens count the whole block). */
export const MAX_BLOCK_PREVIEW = 240;

const STYLE = `
body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1100px; color: #1d1d1f; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; font-size: 1.2rem; }
.meta, .note { color: #555; } .note { font-size: .9rem; }
table { border-collapse: collapse; margin: .6rem 0; } th, td { padding: .25rem .7rem; border-bottom: 1px solid #ddd; vertical-align: top; }
th { text-align: left; background: #f4f4f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: .3rem; }
svg text { font-size: 13px; fill: #1d1d1f; }
.legend span { display: inline-block; margin-right: 1rem; } .legend i { display: inline-block; width: 12px; height: 12px; margin-right: .3rem; vertical-align: -1px; }
.call { border-left: 3px solid #ccc; padding: .2rem 0 .2rem .8rem; margin: 1rem 0; }
.call h3 { font-size: 1rem; margin: 0 0 .3rem; } .side { font-weight: 600; color: #444; margin-top: .3rem; }
.block { font-size: .88rem; margin: .15rem 0; } .block code { white-space: pre-wrap; word-break: break-word; color: #333; }
.kind { display: inline-block; min-width: 9.5rem; color: #555; } .tok { display: inline-block; min-width: 5rem; text-align: right; margin-right: .6rem; font-variant-numeric: tabular-nums; }
`;

export function renderSessionPage(trace: Trace, options: { file: string; model: string }): string {
  const { file, model } = options;
  const title = `scout session: ${file}`;
  const models = [...new Set(trace.calls.map((call) => call.model))].join(", ");
  const meta = `${trace.calls.length} model call${trace.calls.length === 1 ? "" : "s"} · ${trace.turns} turn${trace.turns === 1 ? "" : "s"} · ran on ${models || "no model"}`;
  return [
    ...pageStart(title, STYLE, meta),
    ...splitSection(trace, model),
    ...cacheSection(trace.calls),
    ...timelineSection(trace, model),
    "</body></html>",
    "",
  ].join("\n");
}

/** The colour of each category, in the order given: Scout's own fixed, others from the spares. */
function coloursOf(keys: string[]): Map<string, string> {
  let spare = 0;
  return new Map(
    keys.map((key) => [key, CATEGORY_COLOURS[key] ?? SPARE_COLOURS[spare++ % SPARE_COLOURS.length]] as const),
  );
}

function splitSection(trace: Trace, model: string): string[] {
  const heading = "<h2>Where the input tokens went</h2>";
  if (trace.calls.length > MAX_SPLIT_CALLS)
    return [
      heading,
      `<p class="note">Shown for traces of at most ${formatCount(MAX_SPLIT_CALLS)} model calls; this one has ${formatCount(trace.calls.length)}.</p>`,
    ];
  if (!trace.calls.every((call) => call.sent))
    return [
      heading,
      '<p class="note">This trace lacks the questions or the model\'s replies needed to rebuild each request (an older trace): no split.</p>',
    ];
  const splits = trace.calls.map((call) => splitRequest(call.sent ?? [], model));
  const total: Split = new Map();
  for (const split of splits) for (const [key, n] of split) total.set(key, (total.get(key) ?? 0) + n);
  const all = [...total.values()].reduce((a, b) => a + b, 0);
  const colours = coloursOf([...total.keys()]);
  const rows = [...total].map(
    ([key, n]) =>
      `<tr><td><span class="legend"><i style="background:${colours.get(key)}"></i></span>${escapeXml(key)}</td>` +
      `<td class="num" data-category="${escapeXml(key)}" data-tokens="${n}">~${formatCount(n)}</td>` +
      `<td class="num">${all === 0 ? "0.0" : ((n / all) * 100).toFixed(1)}%</td></tr>`,
  );
  const hidden =
    toolPromptTokens(model) === undefined
      ? ` The hidden tool-use prompt has no published size for ${model}: not counted.`
      : "";
  return [
    heading,
    `<p class="note">A local estimate for ${escapeXml(model)} (the API reports only each request's total). A tool's results are re-sent with every later call, so they count again each time.${escapeXml(hidden)}</p>`,
    `<table id="split"><tr><th>category</th><th>tokens</th><th>share</th></tr>${rows.join("")}` +
      `<tr><td><b>in all</b></td><td class="num" data-category="in all" data-tokens="${all}">~${formatCount(all)}</td><td></td></tr></table>`,
    '<div id="split-chart">',
    stackedBarChart(
      "Input tokens of each model call, by category",
      splits.map((split, i) => ({
        label: `call ${i + 1}`,
        text: `~${formatCount([...split.values()].reduce((a, b) => a + b, 0))}`,
        parts: [...split]
          .filter(([, n]) => n > 0)
          .map(([key, n]) => ({
            value: n,
            colour: colours.get(key) ?? "",
            name: key,
            data: { call: String(i + 1), category: key },
          })),
      })),
      [...colours],
    ),
    "</div>",
  ];
}

function cacheSection(calls: TracedCall[]): string[] {
  const cached = calls.some(
    (call) => (call.usage.cache_read_input_tokens ?? 0) + (call.usage.cache_creation_input_tokens ?? 0) > 0,
  );
  const part = (call: number, figure: string, value: number) => ({
    value,
    colour: CACHE_COLOURS[figure],
    name: figure,
    data: { call: String(call), figure },
  });
  const stacks = calls.map((call, i) => {
    const read = call.usage.cache_read_input_tokens ?? 0;
    const written = call.usage.cache_creation_input_tokens ?? 0;
    return {
      label: `call ${i + 1}`,
      text: formatCount(call.usage.input_tokens + read + written),
      parts: [
        part(i + 1, "cache read", read),
        part(i + 1, "cache write", written),
        part(i + 1, "sent plain", call.usage.input_tokens),
      ],
    };
  });
  return [
    "<h2>Cache reads and writes</h2>",
    `<p class="note">As the trace recorded each call's usage${cached ? "" : "; nothing was read from or written to the cache in this session"}.</p>`,
    '<div id="cache-chart">',
    stackedBarChart(
      "Input tokens of each model call: read from the cache, written to it, sent plain",
      stacks,
      Object.entries(CACHE_COLOURS),
    ),
    "</div>",
  ];
}

function timelineSection(trace: Trace, model: string): string[] {
  const shown = trace.calls.slice(0, MAX_SPLIT_CALLS);
  const sections = shown.map((call, i) => {
    const before = i > 0 && call.messages > trace.calls[i - 1].messages ? trace.calls[i - 1].messages : 0;
    const sent = call.sent;
    const request = sent
      ? sent
          .slice(before)
          .filter((message) => message.role === "user")
          .flatMap((message) => blocksOf(message))
          .map((block) => blockLine(block, model, toolNames(sent)))
      : ['<div class="block note">(the request\'s messages are not in this trace)</div>'];
    const resent =
      before > 0
        ? `<div class="block note">+ the ${before} earlier message${before === 1 ? "" : "s"}, sent again</div>`
        : "";
    const reply = call.content
      ? call.content.map((block) => blockLine(block, model, new Map()))
      : ['<div class="block note">(the reply is not in this trace)</div>'];
    return (
      `<section class="call" data-call="${i + 1}"><h3>call ${i + 1} · ${escapeXml(call.model)}${call.time ? ` · ${escapeXml(new Date(call.time).toISOString())}` : ""}</h3>` +
      `<div class="side">request (${call.messages} message${call.messages === 1 ? "" : "s"})</div>${resent}${request.join("")}` +
      `<div class="side">reply · ${escapeXml(describe(call.usage))}</div>${reply.join("")}</section>`
    );
  });
  const more =
    trace.calls.length > shown.length
      ? [`<p class="note">… and ${formatCount(trace.calls.length - shown.length)} more calls, not shown.</p>`]
      : [];
  return [
    "<h2>Timeline</h2>",
    `<p class="note">Each request's new blocks and each reply's, with their tokens (local estimates for ${escapeXml(model)}; the usage line is as recorded).</p>`,
    '<div id="timeline">',
    ...sections,
    ...more,
    "</div>",
  ];
}

function blocksOf(message: MessageParam): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** Each tool_use id of the conversation with its tool's name, so a result says whose it is. */
function toolNames(messages: MessageParam[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages)
    for (const block of blocksOf(message)) if (block.type === "tool_use") names.set(block.id, block.name);
  return names;
}

function blockLine(block: ContentBlock, model: string, names: Map<string, string>): string {
  const kind =
    block.type === "tool_result"
      ? `${names.get(block.tool_use_id) ?? "tool"} result${block.is_error ? " (error)" : ""}`
      : block.type === "tool_use"
        ? `tool_use ${block.name}`
        : block.type;
  const text = blockText(block);
  const tokens = estimateFor(text, model);
  const preview = text.length > MAX_BLOCK_PREVIEW ? `${text.slice(0, MAX_BLOCK_PREVIEW - 1)}…` : text;
  return (
    `<div class="block" data-kind="${escapeXml(kind)}" data-tokens="${tokens}"><span class="tok">~${formatCount(tokens)}</span>` +
    `<span class="kind">${escapeXml(kind)}</span><code>${escapeXml(preview)}</code></div>`
  );
}

function describe(usage: Usage): string {
  const parts = [`input ${formatCount(usage.input_tokens)}`, `output ${formatCount(usage.output_tokens)}`];
  if (usage.cache_read_input_tokens) parts.push(`cache read ${formatCount(usage.cache_read_input_tokens)}`);
  if (usage.cache_creation_input_tokens) parts.push(`cache write ${formatCount(usage.cache_creation_input_tokens)}`);
  return parts.join(" · ");
}
