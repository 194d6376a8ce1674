// `scout tokens`: what each tool's schema costs, exact with a key and estimated without, or with --trace what a traced run cost and would cost elsewhere.
import { parseOptions } from "../parse-options.js";
import { escapeControl } from "../guards/escape.js";
import { DEFAULT_MODEL, hasCredentials } from "../core/claude.js";
import { describeApiError } from "../models/api-errors.js";
import { exactCounter } from "./exact-count.js";
import { UsageError } from "../options.js";
import { tools } from "../core/scout.js";
import { toolNames } from "../core/tool.js";
import { scaledEstimateCounter } from "./model-sizes.js";
import { formatSchemaCosts, measureSchemaCosts, type SchemaCosts } from "./schema-costs.js";
import { readTrace } from "./trace-read.js";
import { whatIf } from "./what-if.js";

export const TOKENS_USAGE = `Usage:
  scout tokens [--json] [--tool NAME] [--model NAME] [--offline]
  scout tokens --trace FILE [--model NAME] [--offline]
What each tool's schema costs in tokens and dollars: exact with a key (the API's count_tokens), else an estimate.
  --json          the same figures as JSON
  --tool NAME     one tool's schema, property by property
  --model NAME    the model to count and price for (default: $SCOUT_MODEL or ${DEFAULT_MODEL})
  --offline       estimate locally even if a key is set
  --trace FILE    a --trace file: what it cost, and would cost on --model NAME, with and without caching`;

export async function tokensCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions({
    args: argv,
    options: {
      json: { type: "boolean" },
      tool: { type: "string" },
      model: { type: "string" },
      offline: { type: "boolean" },
      trace: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(TOKENS_USAGE);
    return 0;
  }
  const exact = !values.offline && hasCredentials();
  if (values.trace !== undefined) return traceWhatIf(values.trace, values.model, exact);
  if (values.tool && !tools.some((tool) => tool.name === values.tool))
    throw new UsageError(`unknown tool "${values.tool}"; available: ${toolNames(tools)}`);
  const modelName = values.model ?? process.env.SCOUT_MODEL ?? DEFAULT_MODEL;
  let costs: SchemaCosts;
  try {
    costs = await measureSchemaCosts(
      exact ? exactCounter() : scaledEstimateCounter,
      exact ? "exact" : "estimate",
      modelName,
      values.tool,
    );
  } catch (error) {
    console.error(escapeControl(`scout tokens: ${await describeApiError(error)}`));
    return 1;
  }
  console.log(values.json ? JSON.stringify(costs, null, 2) : formatSchemaCosts(costs));
  return 0;
}

/** `scout tokens --trace FILE [--model NAME]`: what the traced run cost, and would cost on NAME, with and without caching. */
async function traceWhatIf(file: string, other: string | undefined, exact: boolean): Promise<number> {
  const trace = readTrace(file); // a PersonFileError naming --trace when it cannot be read
  try {
    const fallback = process.env.SCOUT_MODEL ?? DEFAULT_MODEL;
    const counter = exact ? exactCounter() : scaledEstimateCounter;
    console.log(await whatIf(trace, { other, fallback, exact, counter, file }));
  } catch (error) {
    console.error(escapeControl(`scout tokens: ${await describeApiError(error)}`));
    return 1;
  }
  return 0;
}
