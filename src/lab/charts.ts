// Charts as inline SVG text, drawn from numbers alone: horizontal bars, and a small line chart per question,
// so the lab's HTML page needs no script, no library and no network.
//
// Every bar and point carries its number in data- attributes, so a test (or
// a curious reader with the browser's inspector) can check what is drawn
// against the --json report.
import { formatCount } from "../guards/format.js";
import { escapePath } from "../guards/escape.js";

/** One colour per variant, in order (the baseline is the first); enough for MAX_VARIANTS. */
export const VARIANT_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f", "#edc948"];

export interface Bar {
  label: string;
  value: number;
  /** The bar's length is value / max of the chart (or of `scaleMax`). */
  colour: string;
  /** What is written after the bar, e.g. "73,417" or "22/22". */
  text: string;
  /** data- attributes for the bar, e.g. { variant: "baseline", figure: "inputTokens" }. */
  data: Record<string, string>;
}

const BAR_HEIGHT = 26;
const BAR_GAP = 10;
const LABEL_WIDTH = 230;
const BAR_AREA = 420;
const TEXT_WIDTH = 110;

/** Horizontal bars, one per row, with labels on the left and numbers on the right. */
export function barChart(title: string, bars: Bar[], scaleMax = Math.max(1, ...bars.map((b) => b.value))): string {
  const height = bars.length * (BAR_HEIGHT + BAR_GAP) + BAR_GAP;
  const width = LABEL_WIDTH + BAR_AREA + TEXT_WIDTH;
  const rows = bars.map((bar, i) => {
    const y = BAR_GAP + i * (BAR_HEIGHT + BAR_GAP);
    const length = Math.max(1, Math.round((bar.value / scaleMax) * BAR_AREA));
    const middle = y + BAR_HEIGHT / 2 + 5;
    return [
      `<text x="${LABEL_WIDTH - 8}" y="${middle}" text-anchor="end">${escapeXml(clip(bar.label, 30))}</text>`,
      `<rect class="bar" x="${LABEL_WIDTH}" y="${y}" width="${length}" height="${BAR_HEIGHT}" fill="${bar.colour}"` +
        ` data-value="${bar.value}"${dataAttributes(bar.data)}><title>${escapeXml(`${bar.label}: ${bar.text}`)}</title></rect>`,
      `<text x="${LABEL_WIDTH + length + 6}" y="${middle}">${escapeXml(bar.text)}</text>`,
    ].join("");
  });
  return (
    `<figure class="chart"><figcaption>${escapeXml(title)}</figcaption>` +
    `<svg role="img" aria-label="${escapeXml(title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `${rows.join("")}</svg></figure>`
  );
}

export interface Stack {
  label: string;
  /** The segments, left to right, each with its own colour and data- attributes. */
  parts: { value: number; colour: string; data: Record<string, string> }[];
  text: string;
}

/** Horizontal bars made of segments (a variant's tool-result tokens, tool by tool), with a legend. */
export function stackedBarChart(title: string, stacks: Stack[], legend: [name: string, colour: string][]): string {
  const scaleMax = Math.max(1, ...stacks.map((s) => s.parts.reduce((sum, p) => sum + p.value, 0)));
  const height = stacks.length * (BAR_HEIGHT + BAR_GAP) + BAR_GAP;
  const width = LABEL_WIDTH + BAR_AREA + TEXT_WIDTH;
  const rows = stacks.map((stack, i) => {
    const y = BAR_GAP + i * (BAR_HEIGHT + BAR_GAP);
    let x = LABEL_WIDTH;
    const segments = stack.parts.map((part) => {
      const length = Math.round((part.value / scaleMax) * BAR_AREA);
      const rect =
        `<rect class="bar" x="${x}" y="${y}" width="${length}" height="${BAR_HEIGHT}" fill="${part.colour}"` +
        ` data-value="${part.value}"${dataAttributes(part.data)}><title>${escapeXml(`${stack.label}: ${formatCount(part.value)}`)}</title></rect>`;
      x += length;
      return rect;
    });
    const middle = y + BAR_HEIGHT / 2 + 5;
    return (
      `<text x="${LABEL_WIDTH - 8}" y="${middle}" text-anchor="end">${escapeXml(clip(stack.label, 30))}</text>` +
      `${segments.join("")}<text x="${x + 6}" y="${middle}">${escapeXml(stack.text)}</text>`
    );
  });
  const key = legend.map(([name, colour]) => `<span><i style="background:${colour}"></i>${escapeXml(name)}</span>`);
  return (
    `<figure class="chart"><figcaption>${escapeXml(title)}</figcaption><p class="legend">${key.join("")}</p>` +
    `<svg role="img" aria-label="${escapeXml(title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `${rows.join("")}</svg></figure>`
  );
}

export interface Series {
  name: string;
  colour: string;
  /** One value per step (here: the input tokens of each model call). */
  values: number[];
}

const STEP_WIDTH = 260;
const STEP_HEIGHT = 130;
const MARGIN = { left: 52, right: 12, top: 12, bottom: 26 };

/** A small line chart: one line per series, steps along x, from 0 to the largest value along y. */
export function stepChart(title: string, series: Series[], data: Record<string, string>): string {
  const steps = Math.max(1, ...series.map((s) => s.values.length));
  const top = Math.max(1, ...series.flatMap((s) => s.values));
  const plotWidth = STEP_WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = STEP_HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (step: number) => MARGIN.left + (steps === 1 ? plotWidth / 2 : (step / (steps - 1)) * plotWidth);
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const axes = [
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotHeight}" class="axis"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotHeight}" x2="${MARGIN.left + plotWidth}" y2="${MARGIN.top + plotHeight}" class="axis"/>`,
    `<text x="${MARGIN.left - 4}" y="${MARGIN.top + 8}" text-anchor="end" class="tick">${formatCount(top)}</text>`,
    `<text x="${MARGIN.left - 4}" y="${MARGIN.top + plotHeight}" text-anchor="end" class="tick">0</text>`,
    ...Array.from(
      { length: steps },
      (_, step) => `<text x="${x(step)}" y="${STEP_HEIGHT - 8}" text-anchor="middle" class="tick">${step + 1}</text>`,
    ),
  ];
  // The first series (the baseline) is drawn widest and the later ones narrower on top of it,
  // so a variant that costs exactly what the baseline costs still shows both lines.
  const lines = series.map((s, i) => {
    const width = Math.max(1.5, 6 - 1.5 * i);
    const points = s.values.map((value, step) => `${x(step).toFixed(1)},${y(value).toFixed(1)}`);
    const dots = s.values.map(
      (value, step) =>
        `<circle class="point" cx="${x(step).toFixed(1)}" cy="${y(value).toFixed(1)}" r="${width / 2 + 2}" fill="${s.colour}"` +
        ` data-variant="${escapeXml(s.name)}" data-step="${step + 1}" data-value="${value}">` +
        `<title>${escapeXml(`${s.name}, call ${step + 1}: ${formatCount(value)} input tokens`)}</title></circle>`,
    );
    return `<polyline fill="none" stroke="${s.colour}" stroke-width="${width}" points="${points.join(" ")}"/>${dots.join("")}`;
  });
  return (
    `<figure class="step-chart"${dataAttributes(data)}><figcaption>${escapeXml(title)}</figcaption>` +
    `<svg role="img" aria-label="${escapeXml(title)}" width="${STEP_WIDTH}" height="${STEP_HEIGHT}" viewBox="0 0 ${STEP_WIDTH} ${STEP_HEIGHT}">` +
    `${axes.join("")}${lines.join("")}</svg></figure>`
  );
}

/** Text made safe for HTML and SVG, in content and in quoted attributes, control characters escaped. */
export function escapeXml(text: string): string {
  return escapePath(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function dataAttributes(data: Record<string, string>): string {
  return Object.entries(data)
    .map(([key, value]) => ` data-${key}="${escapeXml(value)}"`)
    .join("");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
