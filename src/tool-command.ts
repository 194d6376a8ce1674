// `scout tool NAME 'JSON'`: one tool, run as the loop would run it, its result printed exactly as the model gets it.
import { escapeControl } from "./guards/escape.js";
import { parseOptions } from "./parse-options.js";

const toolUsage = (toolNames: string) => `Usage:
  scout tool NAME 'JSON' [--cwd DIR]   run one tool and print exactly what the model would get
  scout tool --list                    list the tools and their descriptions
Exit status: 0, 1 when the result is an error, 2 for a usage error. Tools: ${toolNames}`;

/** `scout tool NAME 'JSON'`: one tool call, printed exactly as the model sees it. */
export async function toolCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: { list: { type: "boolean" }, cwd: { type: "string" }, help: { type: "boolean" } },
  });
  const { tools } = await import("./core/scout.js");
  const { runTool, toolNames } = await import("./core/tool.js");
  const { UsageError, openWorkspace } = await import("./options.js");
  if (values.help) {
    console.log(toolUsage(toolNames(tools)));
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
  if (!tools.some((tool) => tool.name === name))
    throw new UsageError(`unknown tool "${name}"; available: ${toolNames(tools)}`);
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON (${(error as Error).message}): ${json}`);
  }
  const result = await runTool(name, input, { workspace: openWorkspace(values.cwd) }, tools);
  // To a program, exactly what the model gets; to a person, with control characters made visible.
  console.log(process.stdout.isTTY ? escapeControl(result.content) : result.content);
  return result.isError ? 1 : 0;
}
