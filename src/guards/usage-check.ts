// Usage as a server reports it, checked: every figure must be a count of tokens, or it is treated as unknown (0).
//
// Scout adds usage up and prices it. A server that reports "100" (a string),
// -5, 1e308 or "12abc" would make the sums strings ("01001e+308…") and the
// dollars NaN; such a figure counts as 0 instead, and the caller says so once.
/** Token counts of one model call, as the Messages API reports them. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** More tokens than any model's context window holds: a usage figure above this is not believed. */
export const MAX_USAGE_TOKENS = 100_000_000;

const REQUIRED = ["input_tokens", "output_tokens"] as const;
const OPTIONAL = ["cache_read_input_tokens", "cache_creation_input_tokens"] as const;

/** The usage with each bad figure counted as 0, and the bad ones named ("input_tokens \"100\""). */
export function checkUsage(raw: unknown): { usage: Usage; bad: string[] } {
  const given = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const bad: string[] = [];
  const count = (key: string, optional: boolean): number | undefined => {
    const value = given[key];
    if (optional && (value === undefined || value === null)) return undefined;
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= MAX_USAGE_TOKENS)
      return value;
    bad.push(`${key} ${value === undefined ? "missing" : String(JSON.stringify(value)).slice(0, 40)}`);
    return 0;
  };
  const usage: Usage = { input_tokens: count(REQUIRED[0], false) ?? 0, output_tokens: count(REQUIRED[1], false) ?? 0 };
  for (const key of OPTIONAL) {
    const value = count(key, true);
    if (value !== undefined) usage[key] = value;
  }
  return { usage, bad };
}

/** The one line said when a server's usage was not believed. */
export function badUsageNotice(bad: string[]): string {
  return `the API reported usage that is not a count of tokens (${bad.join(", ")}): counted as 0, so this session's token and dollar figures are incomplete; said once`;
}
