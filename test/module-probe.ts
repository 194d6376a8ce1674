// Which of Scout's own modules a command loads, and whether it formats a number with locale data on the way:
// a file Node runs first (--import) registers a module hook that logs each dist/ module as it loads.
import fs from "node:fs";
import path from "node:path";
import { MODULES_CLI, makeTree } from "./helpers.js";

/**
 * The hook, run by Node off the main thread: one line per module of dist/ as it loads, and "package:NAME" per
 * ES module of a package (marked; the CommonJS ones, which Scout requires, go past Node 20's module hooks).
 */
const HOOKS = `import fs from "node:fs";
export async function load(url, context, nextLoad) {
  const match = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/|\\/dist\\/(.*)$/.exec(url);
  if (match) fs.appendFileSync(process.env.SCOUT_PROBE_LOG, (match[1] ? "package:" + match[1] : match[2]) + "\\n");
  return nextLoad(url, context);
}
`;

/**
 * Run first: registers the hook, logs "(prompt)" at each write of the REPL's prompt line (so what loaded before
 * the first is the lines above it), and counts toLocaleString calls, whose first call loads locale data (~20 ms): start-up
 * must not pay for it.
 */
const REGISTER = `import fs from "node:fs";
import { register } from "node:module";
register(new URL("./hooks.mjs", import.meta.url));
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
  if (String(chunk).includes("you > ")) fs.appendFileSync(process.env.SCOUT_PROBE_LOG, "(prompt)\\n");
  return write.call(this, chunk, ...rest);
};
const toLocaleString = Number.prototype.toLocaleString;
Number.prototype.toLocaleString = function (...args) {
  fs.appendFileSync(process.env.SCOUT_PROBE_LOG, "(toLocaleString)\\n");
  return toLocaleString.apply(this, args);
};
`;

export interface ModuleProbe {
  /**
   * The CLI to run with it: dist/cli.js, whose modules Node's module hooks see load; `scout` itself runs them
   * from one CommonJS bundle, which the hooks do not see into.
   */
  cli: string;
  /** The environment that makes a CLI run log to this probe (NODE_OPTIONS and the log file). */
  env: Record<string, string>;
  /**
   * What was logged so far: modules relative to dist/ ("tools/grep.js"), "package:NAME" per ES module of a
   * package, "(prompt)" per write of the prompt line, and "(toLocaleString)" per call.
   */
  loaded(): string[];
  /** Resolves once `entry` has been logged; rejects, with what was logged, after `ms`. */
  until(entry: string, ms?: number): Promise<void>;
}

/** A new probe, its files in a temporary folder (removed after the test file, as every makeTree is). */
export function moduleProbe(): ModuleProbe {
  const dir = makeTree({ "hooks.mjs": HOOKS, "register.mjs": REGISTER, "loaded.log": "" }, "scout-probe-");
  const log = path.join(dir, "loaded.log");
  return {
    cli: MODULES_CLI,
    env: { NODE_OPTIONS: `--import ${path.join(dir, "register.mjs")}`, SCOUT_PROBE_LOG: log },
    loaded: () => fs.readFileSync(log, "utf8").split("\n").filter(Boolean),
    async until(entry, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const lines = fs.readFileSync(log, "utf8").split("\n");
        if (lines.includes(entry)) return;
        if (Date.now() > deadline) throw new Error(`${entry} was not loaded; loaded:\n${lines.join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20)); // the log is a file another process writes
      }
    },
  };
}
