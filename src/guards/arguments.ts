// Tool arguments as the model sent them, checked against the tool's JSON schema before the tool runs: what is
// plainly meant is eased ("5" is 5), what is wrong is refused with a message naming the argument.

type JsonType = "string" | "integer";
export interface PropertySchema {
  type: JsonType;
  description: string;
  minimum?: number;
  maximum?: number;
}

/** What the checks read of a tool: its name and its input schema. */
interface Schema {
  name: string;
  input_schema: { properties: Record<string, PropertySchema>; required: string[] };
}

/**
 * Arguments a model commonly gets slightly wrong, taken where their meaning is plain: a whole number sent as
 * a string ("5") is that number, and one over its maximum (limit 3000) is the maximum. Returns the arguments
 * to check and run, and a note for each change, which the result then states. Anything else is left for
 * checkArgs to refuse: a number under its minimum (offset 0 may mean the first line or none), "5.5", "five".
 */
export function easeArgs(tool: Schema, input: unknown): { input: unknown; notes: string[] } {
  const notes: string[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { input, notes };
  const eased: Record<string, unknown> = { ...input };
  for (const [key, value] of Object.entries(eased)) {
    const schema = Object.hasOwn(tool.input_schema.properties, key) ? tool.input_schema.properties[key] : undefined;
    if (schema?.type !== "integer") continue;
    let number = value;
    if (typeof value === "string" && /^\s*[+-]?\d{1,15}\s*$/.test(value)) {
      number = Number(value);
      notes.push(`${key} was the string ${JSON.stringify(value)}, read as the number ${number}`);
    }
    if (typeof number === "number" && Number.isSafeInteger(number) && schema.maximum !== undefined) {
      if (number > schema.maximum) {
        notes.push(`${key} ${number} is over its maximum, ${schema.maximum}, which was used`);
        number = schema.maximum;
      }
    }
    eased[key] = number;
  }
  return { input: eased, notes };
}

/** The line a result ends with when easeArgs changed arguments, or "". */
export function easedNote(notes: string[]): string {
  return notes.length ? `(arguments taken as meant: ${notes.join("; ")})` : "";
}

/**
 * Checks tool arguments against the tool's schema: unknown fields, missing
 * required ones, wrong types and out-of-range numbers. Returns an error
 * message naming the argument, or null when the arguments are fine.
 */
export function checkArgs(tool: Schema, input: unknown): string | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return `${tool.name} expects a JSON object of arguments`;
  }
  const args = input as Record<string, unknown>;
  const { properties, required } = tool.input_schema;
  // Own properties only: "constructor" or "toString" are in every object, but are no argument.
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(properties, key)) {
      return `unknown argument "${key}" for ${tool.name}; expected: ${Object.keys(properties).join(", ")}`;
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(args, key) || args[key] === undefined)
      return `missing required argument "${key}" (${properties[key].description})`;
  }
  for (const [key, value] of Object.entries(args)) {
    const schema = properties[key];
    if (schema.type === "string" && typeof value !== "string") {
      return `argument "${key}" must be a string, got ${describe(value)}`;
    }
    if (schema.type === "integer") {
      // Safe integers only: 1e999 parses to Infinity, and 2**60 cannot count lines exactly.
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        return `argument "${key}" must be a whole number, got ${describe(value)}`;
      }
      if (schema.minimum !== undefined && value < schema.minimum) {
        return `argument "${key}" must be at least ${schema.minimum}, got ${value}`;
      }
      if (schema.maximum !== undefined && value > schema.maximum) {
        return `argument "${key}" must be at most ${schema.maximum}, got ${value}`;
      }
    }
  }
  return null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") {
    // JSON.stringify would call 1e999 (Infinity) "null".
    if (!Number.isFinite(value)) return `a number too large to represent (${value})`;
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) return `number ${value}, too large to count exactly`;
  }
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : `${typeof value} ${JSON.stringify(value)}`;
}
