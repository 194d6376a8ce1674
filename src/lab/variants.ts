// Variants: a `--variant "cap=50,descriptions=concise"` spec read into a named ToolDesign, the baseline first.
//
// Each knob is a real parameter of the tools (see ToolDesign in
// src/tools/tool.ts); a variant changes only the knobs it names and keeps
// Scout's own values for the rest.
import { DEFAULT_DESIGN, type ToolDesign } from "../tools/tool.js";

/** The smallest and largest result cap a variant may ask for. */
export const MIN_CAP = 10;
export const MAX_CAP = 500;
/** Most variants in one run, the baseline included: each one runs every question again. */
export const MAX_VARIANTS = 8;

export interface Variant {
  /** "baseline", or the knobs as given ("cap=50,descriptions=concise"). */
  name: string;
  design: ToolDesign;
}

export const BASELINE: Variant = { name: "baseline", design: DEFAULT_DESIGN };

/** The knobs, each with the values it takes (for messages) and how it sets the design. */
const KNOBS: Record<string, { values: string; set(design: ToolDesign, value: string): string | null }> = {
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
    values: "concise|full",
    set(design, value) {
      if (value !== "concise" && value !== "full") return "descriptions must be concise or full";
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
    const problem = knob.set(design, value);
    if (problem) return { error: `--variant "${spec}": ${problem}, got "${value}"; known knobs: ${KNOWN_KNOBS}` };
  }
  return { name: parts.join(","), design };
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
