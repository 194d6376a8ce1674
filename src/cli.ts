#!/usr/bin/env node
// The command line: picks the model and the workspace, then runs the REPL, one tool, or `scout tokens`.
//
// `scout` starts the REPL (or answers piped questions, or one -p question);
// `scout tool NAME JSON` runs one tool directly.
// Exit status: 0 ok, 1 when a model call (or the tool) failed, 2 for usage errors.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_MAX_STEPS, type Model } from "./agent.js";
import { labCommand } from "./lab/command.js";
import { DEFAULT_MODEL, claudeModel, describeApiError, exactCounter, hasCredentials } from "./models/claude.js";
import { OFFLINE_NOTICE, offlineModel } from "./models/offline.js";
import { Session, runPiped, runTerminal } from "./repl.js";
import { StepLog, traceWriter } from "./steplog.js";
import { estimateCounter } from "./tokens/count.js";
import { formatSchemaCosts, measureSchemaCosts, type SchemaCosts } from "./tokens/schema-costs.js";
import { findTool, runTool, toolNames, tools } from "./tools/index.js";
import { Workspace } from "./workspace/workspace.js";

const USAGE = `Usage:
  scout [options]            the REPL: ask questions about the code in the workspace
  echo "question" | scout    answer each line of stdin, then exit
  scout -p "question"        answer one question, then exit
  scout tool NAME 'JSON'     run one tool and print exactly what the model would get
  scout tool --list          list the tools and their descriptions
  scout tokens [--json] [--tool NAME] [--model NAME] [--offline]
                             what each tool's schema costs in tokens
  scout lab QUESTIONS.json [--variant SPEC]… [--offline | --model NAME] [--runs N] [--json] [--html FILE]
                             run a question set with tool designs side by side (scout lab --help)

Options:
  --cwd DIR                  the workspace root (default: the current directory)
  --model NAME               Claude model (default: $SCOUT_MODEL or ${DEFAULT_MODEL})
  --offline                  use the offline teaching model even if a key is set
  --max-steps N              most model calls per question (default ${DEFAULT_MAX_STEPS})
  --quiet                    hide the step log
  --verbose                  also print every tool result
  --trace FILE               append every step to FILE as JSON lines
  -p, --print "question"     answer one question and exit
  -h, --help | --version

Without ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), Scout uses its offline
teaching model: a fixed search-then-read policy, not an LLM. ANTHROPIC_BASE_URL
points Scout at any server that speaks the Messages API.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "tool") return toolCommand(argv.slice(1));
  if (argv[0] === "tokens") return tokensCommand(argv.slice(1));
  if (argv[0] === "lab") return labCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
      cwd: { type: "string" },
      model: { type: "string" },
      offline: { type: "boolean" },
      "max-steps": { type: "string" },
      quiet: { type: "boolean" },
      verbose: { type: "boolean" },
      trace: { type: "string" },
      print: { type: "string", short: "p" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.version) {
    console.log(readVersion());
    return 0;
  }
  if (positionals.length)
    throw new UsageError(`unexpected argument "${positionals[0]}"; to ask one question use -p "question"`);
  const maxSteps = Number(values["max-steps"] ?? DEFAULT_MAX_STEPS);
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new UsageError(`--max-steps must be a whole number of at least 1, got "${values["max-steps"]}"`);

  const workspace = openWorkspace(values.cwd);
  const offline = values.offline || !hasCredentials();
  const model: Model = offline ? offlineModel() : claudeModel(values.model ?? process.env.SCOUT_MODEL ?? DEFAULT_MODEL);
  const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const color = Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  const log = new StepLog({
    quiet: values.quiet,
    verbose: values.verbose,
    color,
    spinner: Boolean(process.stderr.isTTY),
    holdText: !process.stdout.isTTY,
  });
  const session = new Session({
    model,
    workspace,
    maxSteps,
    log,
    trace: values.trace ? traceWriter(values.trace) : undefined,
    // The REPL knows no model: what differs between them is picked here.
    offline,
    counter: offline ? estimateCounter : exactCounter(),
    describeError: describeApiError,
  });

  if (terminal && values.print === undefined) {
    const mode = offline ? OFFLINE_NOTICE : `Claude (${model.name})`;
    return runTerminal(
      session,
      `${readVersion()} · model: ${mode}\nworkspace: ${workspace.root}\nType a question, or /help.`,
    );
  }
  if (offline && !values.quiet) console.error(`(${OFFLINE_NOTICE})`); // no banner here, so say it once
  if (values.print !== undefined) return (await session.ask(values.print)) ? 0 : 1;
  return runPiped(session);
}

/** `scout tool NAME 'JSON'`: one tool call, printed exactly as the model sees it. */
async function toolCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { list: { type: "boolean" }, cwd: { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    for (const tool of tools) console.log(`${tool.name}\n  ${tool.description}\n`);
    return 0;
  }
  const [name, json = "{}", ...extra] = positionals;
  if (!name) throw new UsageError("scout tool needs a tool name; try: scout tool --list");
  if (extra.length)
    throw new UsageError(`unexpected argument "${extra[0]}"; pass the tool's arguments as one JSON string`);
  if (!findTool(name)) throw new UsageError(`unknown tool "${name}"; available: ${toolNames()}`);
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON (${(error as Error).message}): ${json}`);
  }
  const result = await runTool(name, input, { workspace: openWorkspace(values.cwd) });
  console.log(result.content);
  return result.isError ? 1 : 0;
}

/** `scout tokens`: what each tool's schema costs, exact with a key, estimated without. */
async function tokensCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      json: { type: "boolean" },
      tool: { type: "string" },
      model: { type: "string" },
      offline: { type: "boolean" },
    },
  });
  if (values.tool && !findTool(values.tool))
    throw new UsageError(`unknown tool "${values.tool}"; available: ${toolNames()}`);
  const exact = !values.offline && hasCredentials();
  const modelName = values.model ?? process.env.SCOUT_MODEL ?? DEFAULT_MODEL;
  let costs: SchemaCosts;
  try {
    costs = await measureSchemaCosts(
      exact ? exactCounter() : estimateCounter,
      exact ? "exact" : "estimate",
      modelName,
      values.tool,
    );
  } catch (error) {
    console.error(`scout tokens: ${await describeApiError(error)}`);
    return 1;
  }
  console.log(values.json ? JSON.stringify(costs, null, 2) : formatSchemaCosts(costs));
  return 0;
}

export function openWorkspace(dir = process.cwd()): Workspace {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--cwd ${dir}: not a directory`);
  return new Workspace(dir);
}

function readVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return `scout ${pkg.version}`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    console.error(`scout: ${(error as Error).message}`);
    if (usage) console.error("Try: scout --help");
    process.exitCode = usage ? 2 : 1;
  },
);
