#!/usr/bin/env node
// The command line: `scout tool NAME JSON` runs one tool directly. Exit
// status: 0 ok, 1 when the tool (or the model) reported an error, 2 for usage errors.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { runTool, tools } from "./tools/index.js";
import { Workspace } from "./workspace.js";

const USAGE = `Usage:
  scout tool NAME 'JSON'     run one tool and print exactly what the model would get
  scout tool --list          list the tools and their descriptions
  scout --help | --version

Options:
  --cwd DIR                  the workspace root (default: the current directory)`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "tool") return toolCommand(argv.slice(1));
  const { values } = parseArgs({ args: argv, options: { help: { type: "boolean" }, version: { type: "boolean" }, cwd: { type: "string" } } });
  if (values.version) {
    console.log(readVersion());
    return 0;
  }
  console.log(USAGE);
  return 0;
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
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"; pass the tool's arguments as one JSON string`);
  if (!tools.some((tool) => tool.name === name)) {
    throw new UsageError(`unknown tool "${name}"; available: ${tools.map((tool) => tool.name).join(", ")}`);
  }
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

export function openWorkspace(dir = process.cwd()): Workspace {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--cwd ${dir}: not a directory`);
  return new Workspace(dir);
}

function readVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return `scout ${pkg.version}`;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    console.error(`scout: ${(error as Error).message}`);
    if (usage) console.error("Try: scout --help");
    process.exitCode = usage ? 2 : 1;
  },
);
