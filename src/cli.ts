#!/usr/bin/env node
// The command line: picks the model and the workspace, then runs the REPL, one tool, or `scout tokens`.
//
// `scout` starts the REPL (or answers piped questions, or one -p question);
// `scout tool NAME JSON` runs one tool directly (src/tool-command.ts). The REPL knows no model:
// what differs between them is picked here and handed in.
// Exit status: 0 ok, 1 when a model call (or the tool) failed, 2 for usage errors, 130 when cancelled.
// Each command imports what it uses when it runs (`await import`): `scout tool` loads no model, no REPL.
// `scout` itself runs this file from dist/bundle.cjs, behind src/scout.cts.
import fs from "node:fs";
import * as nodeModule from "node:module";

const usage = async () => {
  const { DEFAULT_MAX_STEPS } = await import("./core/loop.js");
  const { DEFAULT_MODEL } = await import("./core/claude.js");
  return `Usage:
  scout [options]            the REPL: ask questions about the code in the workspace
  echo "question" | scout    answer each line of stdin, then exit
  scout -p "question"        answer one question, then exit
  cat file | scout -p "q"    answer one question about what stdin holds (sent along with it)
  scout tool NAME 'JSON'     run one tool and print exactly what the model would get
  scout tool --list          list the tools and their descriptions
  scout tokens [--json] [--tool NAME] [--model NAME] [--offline]
                             what each tool's schema costs in tokens
  scout tokens --trace FILE [--model NAME] [--offline] [--html OUT]
                             what a --trace run cost, and would cost on NAME, with and without caching
  scout lab QUESTIONS.json [--variant SPEC]… [--offline] [--model NAME] [--runs N] [--json] [--html FILE]
                             run a question set with tool designs side by side (scout lab --help)

Options:
  --cwd DIR                  the workspace root (default: the current directory)
  --model NAME               Claude model (default: $SCOUT_MODEL or ${DEFAULT_MODEL})
  --offline                  use the offline teaching model even if a key is set
  --max-steps N              most model calls per question (default ${DEFAULT_MAX_STEPS})
  --no-cache                 do not ask the API to cache requests (prompt caching is on by default)
  --show-request             with -p: print the last request sent, block by block, with its tokens
  --quiet                    hide the step log
  --verbose                  also print every tool result
  --trace FILE               append the session to FILE as JSON lines
  --replay TRACE             answer from a --trace recording instead of a model (no key; the tools run live)
  --step                     step-through: pause before each model call and tool call (terminal only)
  --no-history               keep no question history (default: ~/.scout_history, or $SCOUT_HISTORY)
  --continue | --resume      resume this workspace's last REPL session | pick one of the recent ones
                             (kept in ~/.scout/sessions, or $SCOUT_SESSIONS; SCOUT_SESSIONS= keeps none)
  -p, --print "question"     answer one question and exit
  --json                     with -p: print one JSON object (answer, steps, usage) on stdout
  --loop|--tool|--adapter FILE  your own loop, tool or model adapter (lessons 2, 7) · -h, --help · -v, --version

Exit status: 0 answered, 1 a model call failed, 2 usage error, 130 cancelled (Ctrl-C).
Without ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), Scout uses its offline
teaching model: a fixed search-then-read policy, not an LLM. ANTHROPIC_BASE_URL
points Scout at any server that speaks the Messages API.`;
};

/** The REPL's options (`scout --help` lists them). */
const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  cwd: { type: "string" },
  model: { type: "string" },
  offline: { type: "boolean" },
  "max-steps": { type: "string" },
  "no-cache": { type: "boolean" },
  "show-request": { type: "boolean" },
  quiet: { type: "boolean" },
  verbose: { type: "boolean" },
  trace: { type: "string" },
  replay: { type: "string" },
  step: { type: "boolean" },
  "no-history": { type: "boolean" },
  continue: { type: "boolean" },
  resume: { type: "boolean" },
  print: { type: "string", short: "p" },
  json: { type: "boolean" },
  // a learner's own loop, tool or model adapter, run in the real REPL (src/learner-code.ts)
  loop: { type: "string" },
  tool: { type: "string" },
  adapter: { type: "string" },
} as const;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "tool") return (await import("./tool-command.js")).toolCommand(argv.slice(1));
  if (argv[0] === "tokens") return (await import("./tokens/command.js")).tokensCommand(argv.slice(1));
  if (argv[0] === "lab") return (await import("./lab/command.js")).labCommand(argv.slice(1));
  const { parseOptions } = await import("./parse-options.js");
  const { values, positionals } = parseOptions({ args: argv, allowPositionals: true, options: OPTIONS });
  if (values.help) {
    console.log(await usage());
    return 0;
  }
  if (values.version) {
    console.log(readVersion());
    return 0;
  }
  // A terminal and no -p: the REPL. It counts tokens for its first answer, so the tokenizer starts building on
  // another thread now, while the REPL's modules load, not from its banner on (~100 ms later; issue 22).
  const repl = Boolean(process.stdin.isTTY && process.stdout.isTTY) && values.print === undefined;
  if (repl) (await import("./tokens/count.js")).warmTokenizer();
  const { UsageError } = await import("./options.js");
  const { setUpSession } = await import("./repl/setup.js");
  const { session, workspace, offline, log } = await setUpSession(values, positionals);
  const modelIgnored = offline && values.model !== undefined;
  const ignoredNote = `(--model ${values.model} is ignored: the offline teaching model answers)`;

  if (repl) {
    const { runTerminal } = await import("./repl/terminal.js");
    const banner = `${readVersion()} · model: ${session.choice.label}\nworkspace: ${workspace.root}`;
    return runTerminal(session, {
      banner: `${banner}${modelIgnored ? `\n${ignoredNote}` : ""}\nType a question, or /help.`,
      noHistory: values["no-history"],
      step: values.step,
      resume: values.resume ? "pick" : values.continue ? "continue" : undefined,
    });
  }
  if (values.continue || values.resume)
    throw new UsageError(`--${values.resume ? "resume" : "continue"} needs a terminal`);
  if (offline && !values.quiet) console.error(`(${session.choice.label})`); // no banner here, so say it once
  if (modelIgnored && !values.quiet) console.error(ignoredNote);
  const { runOnce, runPiped } = await import("./repl/piped.js");
  if (values.print !== undefined) {
    if (values.step) session.stepThrough = (await import("./repl/step.js")).stepper(() => log.step + 1);
    const code = await runOnce(session, values.print, { json: values.json });
    if (values["show-request"]) console.error(await session.describeLastRequest());
    return code;
  }
  return runPiped(session);
}

function readVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return `scout ${pkg.version}`;
}

// Node 22.8+ can cache what it compiles of each module on disk (in the OS temp folder;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off), so later runs skip most compiling. Node 20
// cannot: it has no enableCompileCache, so the `?.` skips the call. (src/scout.cts does the
// same for the bundle; here it is for `node dist/cli.js`.)
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (error) => {
    const { UsageError } = await import("./options.js");
    const { OptionError, didYouMean } = await import("./parse-options.js");
    const { escapeControl } = await import("./guards/escape.js");
    const usage = error instanceof UsageError || error instanceof OptionError;
    console.error(escapeControl(`scout: ${(error as Error).message}${usage ? await didYouMean(error) : ""}`));
    if (usage) console.error("Try: scout --help");
    process.exitCode = usage ? 2 : 1;
  },
);
