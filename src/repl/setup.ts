// The session the command line asks for, built from its options: the workspace, the model (Claude, the
// offline teaching model, a replay, or a learner's adapter), the step log and the trace.
//
// Each part loads when it is chosen: with a key, the offline model is never loaded; offline, no SDK client.
import { describeApiError } from "../models/api-errors.js";
import { checkBaseUrl, maxStepsOption, openTrace, openWorkspace, replayOf, UsageError } from "../options.js";
import { StepLog } from "../steplog.js";
import type { Pricing } from "../tokens/cost.js";
import { estimateCounter } from "../tokens/count.js";
import { exactCounter } from "../tokens/exact-count.js";
import { withCacheBreakpoints } from "../models/cache.js";
import { type ModelChoice, Session, say } from "./session.js";

/** The command line's options that shape the session (src/cli.ts parses them). */
export interface SessionValues {
  cwd?: string;
  model?: string;
  offline?: boolean;
  "max-steps"?: string;
  "no-cache"?: boolean;
  "show-request"?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  trace?: string;
  replay?: string;
  step?: boolean;
  print?: string;
  json?: boolean;
  loop?: string;
  tool?: string;
  adapter?: string;
}

export async function setUpSession(values: SessionValues, positionals: string[]) {
  const { DEFAULT_MODEL, claudeModel, hasCredentials } = await import("../core/claude.js");
  if (positionals.length)
    throw new UsageError(`unexpected argument "${positionals[0]}"; to ask one question use -p "question"`);
  const maxSteps = maxStepsOption(values["max-steps"]);
  if (values.json && values.print === undefined) throw new UsageError('--json goes with -p "question"');
  if (values["show-request"] && values.print === undefined)
    throw new UsageError("--show-request works with -p; in the REPL, type /request");
  if (values.step && !process.stdin.isTTY)
    throw new UsageError("--step needs a terminal: it waits for a key before each step (stdin is not a terminal)");

  const workspace = openWorkspace(values.cwd);
  const replayed = values.replay === undefined ? undefined : await replayOf(values.replay, (t) => log.notice(t));
  const offline = values.offline || replayed !== undefined || !hasCredentials();
  if (!offline) checkBaseUrl();
  const learner = await (await import("../learner-code.js")).loadLearnerCode(values, offline);
  // An answer's Markdown is drawn only where a person reads it with colour: a terminal, no NO_COLOR, no --json.
  const drawMarkdown = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !values.json;
  const { MarkdownStream, loadMarked } = drawMarkdown
    ? await import("../repl/markdown.js")
    : { MarkdownStream: undefined, loadMarked: undefined };
  const log = new StepLog({
    quiet: values.quiet,
    verbose: values.verbose,
    color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
    spinner: Boolean(process.stderr.isTTY),
    holdText: !process.stdout.isTTY,
    writeAnswer: values.json ? () => {} : undefined, // --json prints the answer inside its object
    answerDrawer: MarkdownStream && ((write) => new MarkdownStream(write, () => process.stdout.columns || 80)),
    pricing: (): Pricing => session.choice.pricing,
  });
  // Offline, tokens are estimates, priced as the Claude model a key would use.
  const claudeName = values.model ?? process.env.SCOUT_MODEL ?? DEFAULT_MODEL;
  const cache = !values["no-cache"];
  const retryNotice = (text: string) => log.notice(`(${text})`);
  const offlineChoice = async (): Promise<ModelChoice> => {
    const { OFFLINE_BY_CHOICE_NOTICE, OFFLINE_NOTICE, offlineModel } = await import("../models/offline.js");
    return {
      model: offlineModel(),
      label: values.offline && hasCredentials() ? OFFLINE_BY_CHOICE_NOTICE : OFFLINE_NOTICE,
      estimated: true,
      pricing: { model: claudeName, estimate: true },
    };
  };
  const claudeChoice = (name: string): ModelChoice => ({
    model:
      learner.model?.(name) ??
      claudeModel(name, retryNotice, { prepare: (request) => withCacheBreakpoints(request, cache) }),
    label: `Claude (${name})${learner.model ? `, through your adapter ${values.adapter}` : ""}`,
    estimated: false,
    pricing: { model: name, estimate: false, cache },
  });
  const session = new Session({
    choice: replayed ?? (offline ? await offlineChoice() : claudeChoice(claudeName)),
    chooseModel: (name) =>
      offline ? `the offline teaching model answers here; model names are ignored (${name})` : claudeChoice(name),
    describeError: async (error) => replayed?.stopped(error) ?? describeApiError(error),
    // /tokens and /request load their code when typed: the prompt comes up without it (and without the tools).
    schemaCosts: async (choice) => {
      const { formatSchemaCosts, measureSchemaCosts } = await import("../tokens/schema-costs.js");
      const { scaledEstimateCounter } = await import("../tokens/model-sizes.js");
      const counter = choice.estimated ? scaledEstimateCounter : exactCounter(retryNotice);
      return formatSchemaCosts(
        await measureSchemaCosts(counter, choice.estimated ? "estimate" : "exact", choice.pricing.model),
      );
    },
    describeRequest: async (choice, request) =>
      (await import("../tokens/request-view.js")).formatRequest(request, {
        model: choice.pricing.model,
        mode: choice.estimated ? "estimate" : "exact",
        counter: choice.estimated ? estimateCounter : exactCounter(retryNotice),
        cache: cache && !choice.estimated,
      }),
    loadForTurn: loadMarked,
    workspace,
    cache,
    maxSteps,
    log,
    trace: values.trace === undefined ? undefined : await openTrace(values.trace, say), // a failed write: one line
    ...learner.session,
  });
  return { session, workspace, offline, log };
}
