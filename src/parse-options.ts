// The command line's options, parsed by Node's parseArgs, with its errors said in Scout's words.
//
// parseArgs says "Unknown option '--jsn'. To specify a positional argument
// starting with a '-', place it at the end of the command after '--', as
// in '-- "--jsn"' (quotes unbalanced); Scout says "unknown option --jsn;
// did you mean --json?". This file imports nothing else, so `scout
// --version` stays quick; the nearest name is found only on an error.
import { type ParseArgsConfig, parseArgs } from "node:util";

/** A mistake in the options: exit status 2, like UsageError; `unknown` is the option nobody knows. */
export class OptionError extends Error {
  constructor(
    message: string,
    readonly unknown?: string,
    readonly known: string[] = [],
  ) {
    super(message);
  }
}

/** parseArgs, throwing OptionError instead of Node's ERR_PARSE_ARGS_* errors. */
export function parseOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!code?.startsWith("ERR_PARSE_ARGS")) throw error;
    const known = Object.entries(config.options ?? {}).flatMap(([name, option]) => [
      `--${name}`,
      ...(option.short ? [`-${option.short}`] : []),
    ]);
    const unknown = /^Unknown option '([^']*)'/.exec(message)?.[1];
    if (unknown !== undefined) throw new OptionError(`unknown option ${unknown}`, unknown, known);
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1];
    if (missing) throw new OptionError(`${missing} needs a value`);
    const valued = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message)?.[1];
    if (valued) throw new OptionError(`${valued} takes no value`);
    const positional = /^Unexpected argument '([^']*)'/.exec(message)?.[1];
    if (positional !== undefined) throw new OptionError(`unexpected argument ${positional}`);
    throw new OptionError(message);
  }
}

/** "; did you mean --json?" for the nearest known option within a few edits, or "". */
export async function didYouMean(error: unknown): Promise<string> {
  if (!(error instanceof OptionError) || !error.unknown?.startsWith("--")) return ""; // -x: too little to guess from
  const { editDistance } = await import("./guards/similar-paths.js");
  const typed = error.unknown.split("=")[0];
  const max = Math.max(1, Math.floor(typed.length / 3));
  const [nearest] = error.known
    .map((name) => ({ name, distance: editDistance(typed, name, max) }))
    .filter(({ distance }) => distance <= max)
    .sort((a, b) => a.distance - b.distance);
  return nearest ? `; did you mean ${nearest.name}?` : "";
}
