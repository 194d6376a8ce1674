// Variants: a `--variant "cap=50,descriptions=concise"` spec read into a named ToolDesign, the baseline first.
//
// Each knob is a part of a ToolDesign (src/lab/designs.ts); a variant changes
// only the knobs it names and keeps Scout's own values for the rest.
import fs from "node:fs";
import { type Tool, toolNames } from "../core/tool.js";
import { BUDGET_NOTE } from "../guards/result-budget.js";
import { DEFAULT_DESIGN, makeTools, type ToolDesign } from "./designs.js";

/** The smallest and largest result cap a variant may ask for. */
export const MIN_CAP = 10;
export const MAX_CAP = 500;
/** Most variants in one run, the baseline included: each one runs every question again. */
export const MAX_VARIANTS = 8;

export interface Variant {
  /** "baseline", or the knobs as given ("cap=50,descriptions=concise"). */
  name: string;
  design: ToolDesign;
  /** `descriptions=FILE.json`: your own wording for some tools, by name (the rest keep the design's). */
  descriptions?: Record<string, string>;
}

/** Largest descriptions file read, and longest description in it. */
export const MAX_DESCRIPTIONS_BYTES = 64 * 1024;
export const MAX_DESCRIPTION_CHARS = 4000;

/** The variant's tools: its design's, with its own descriptions where it has them (the budget sentence kept). */
export function toolsOf(variant: Variant): Tool[] {
  return makeTools(variant.design).map((tool) =>
    variant.descriptions?.[tool.name] === undefined
      ? tool
      : { ...tool, description: `${variant.descriptions[tool.name]} ${BUDGET_NOTE}` },
  );
}

/** Reads a descriptions file: a JSON object of tool name → description. A message says what is wrong, or null. */
function readDescriptions(file: string): Record<string, string> | string {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_DESCRIPTIONS_BYTES) return `${file} is ${size} bytes; at most ${MAX_DESCRIPTIONS_BYTES}`;
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    return `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${file} is not JSON: ${(error as Error).message}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${file} must be a JSON object of tool name → description, e.g. {"grep": "Search file contents."}`;
  const names = makeTools().map((tool) => tool.name);
  for (const [name, description] of Object.entries(value)) {
    if (!names.includes(name)) return `${file}: unknown tool "${name}"; tools: ${toolNames(makeTools())}`;
    if (typeof description !== "string" || !description.trim())
      return `${file}: the description of ${name} must be a non-empty string`;
    if (description.length > MAX_DESCRIPTION_CHARS)
      return `${file}: the description of ${name} is ${description.length} characters; at most ${MAX_DESCRIPTION_CHARS}`;
  }
  return value as Record<string, string>;
}

export const BASELINE: Variant = { name: "baseline", design: DEFAULT_DESIGN };

/** The knobs, each with the values it takes (for messages) and how it sets the design. */
const KNOBS: Record<
  string,
  { values: string; set(design: ToolDesign, value: string, variant: Partial<Variant>): string | null }
> = {
  cap: {
    values: `N (${MIN_CAP}–${MAX_CAP})`,
    set(design, value) {
      const cap = Number(value);
      if (!/^\d+$/.test(value) || cap < MIN_CAP || cap > MAX_CAP)
        return `cap must be a whole number from ${MIN_CAP} to ${MAX_CAP}`;
      design.cap = cap;
      return null;
    },
  },
  descriptions: {
    values: "concise|full|FILE.json",
    set(design, value, variant) {
      if (value.endsWith(".json")) {
        const read = readDescriptions(value);
        if (typeof read === "string") return read;
        variant.descriptions = read;
        return null;
      }
      if (value !== "concise" && value !== "full") return "descriptions must be concise, full or a FILE.json";
      design.descriptions = value;
      return null;
    },
  },
  "line-numbers": {
    values: "on|off",
    set(design, value) {
      if (value !== "on" && value !== "off") return "line-numbers must be on or off";
      design.lineNumbers = value === "on";
      return null;
    },
  },
  sort: {
    values: "mtime|path",
    set(design, value) {
      if (value !== "mtime" && value !== "path") return "sort must be mtime or path";
      design.sort = value;
      return null;
    },
  },
};

/** "cap=N (10–500), descriptions=concise|full, …", for messages and the usage text. */
export const KNOWN_KNOBS = Object.entries(KNOBS)
  .map(([name, knob]) => `${name}=${knob.values}`)
  .join(", ");

/** Reads one spec; returns the variant, or a message that names the bad part and lists the known knobs. */
export function parseVariant(spec: string): Variant | { error: string } {
  const design: ToolDesign = { ...DEFAULT_DESIGN };
  const extra: Partial<Variant> = {};
  const seen = new Set<string>();
  const parts = spec.split(",").map((part) => part.trim());
  for (const part of parts) {
    const match = /^([\w-]+)=(.*)$/.exec(part);
    if (!match) return { error: `--variant "${spec}": "${part}" is not knob=value; known knobs: ${KNOWN_KNOBS}` };
    const [, name, value] = match;
    const knob = Object.hasOwn(KNOBS, name) ? KNOBS[name] : undefined;
    if (!knob) return { error: `--variant "${spec}": unknown knob "${name}"; known knobs: ${KNOWN_KNOBS}` };
    if (seen.has(name)) return { error: `--variant "${spec}": knob "${name}" is given twice` };
    seen.add(name);
    const problem = knob.set(design, value, extra);
    if (problem) return { error: `--variant "${spec}": ${problem}, got "${value}"; known knobs: ${KNOWN_KNOBS}` };
  }
  return { name: parts.join(","), design, ...extra };
}

/** The baseline, then each spec in the order given; an error message for the first bad or repeated one. */
export function parseVariants(specs: string[]): Variant[] | { error: string } {
  const variants = [BASELINE];
  for (const spec of specs) {
    const variant = parseVariant(spec);
    if ("error" in variant) return variant;
    if (variants.some((other) => other.name === variant.name))
      return { error: `--variant "${spec}" is given twice (the baseline always runs first)` };
    variants.push(variant);
  }
  if (variants.length > MAX_VARIANTS)
    return { error: `at most ${MAX_VARIANTS - 1} variants besides the baseline, got ${specs.length}` };
  return variants;
}
