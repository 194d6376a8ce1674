// `scout lab QUESTIONS.json [--variant SPEC]… [--offline] [--model NAME] [--runs N] [--concurrency N] [--json | --csv] [--differs] [--html FILE]
// [--cwd DIR]`: runs a question set once per tool design and reports what each design cost and answered.
//
// Exit status: 0 done, 1 when a run failed (an API error, an unwritable
// --html file), 2 for bad input (the options, the question set, a variant).
import fs from "node:fs";
import path from "node:path";
import { didYouMean, parseOptions } from "../parse-options.js";
import type { Model } from "../core/loop.js";
import { claudeModel, DEFAULT_MODEL, hasCredentials } from "../core/claude.js";
import { describeApiError } from "../models/api-errors.js";
import { cachedRequest } from "../models/cache.js";
import { exactCounter } from "../tokens/exact-count.js";
import { OFFLINE_MODEL_NAME, offlineModel } from "../models/offline.js";
import { checkBaseUrl } from "../options.js";
import { PersonFileError, writePersonFile } from "../person-file.js";
import { SYSTEM_PROMPT } from "../core/scout.js";
import { estimateCounter, estimateTokens } from "../tokens/count.js";
import { hiddenPromptTokens } from "../tokens/model-sizes.js";
import { withBackoff } from "./backoff.js";
import { renderHtml } from "./html.js";
import { loadQuestionSet, QuestionSetError } from "./question-set.js";
import { buildReport, countSchemaTokens } from "./report.js";
import { MAX_CONCURRENT_QUESTIONS, type Progress, runExperiment } from "./runner.js";
import { escapePath } from "../guards/escape.js";
import { formatCsv } from "./csv.js";
import { formatReport } from "./table.js";
import { KNOWN_KNOBS, parseVariants } from "./variants.js";

/** Most runs of each question per variant (--runs). */
export const MAX_RUNS = 20;
/** Most questions in flight at once (--concurrency): more only meets the API's rate limits sooner. */
export const MAX_CONCURRENCY = 16;

export const LAB_USAGE = `Usage: scout lab QUESTIONS.json [--variant SPEC]… [--offline] [--model NAME] [--runs N] [--json] [--html FILE] [--cwd DIR]

Runs every question of the set in a fresh conversation, with Scout's own tools (the
baseline) and then with each variant, and reports right answers and tokens side by side.

  --variant SPEC   a tool design: knobs joined by commas, e.g. "cap=50,descriptions=concise";
                   knobs: ${KNOWN_KNOBS}
  --offline        the offline teaching model (the default without a key; deterministic)
  --model NAME     a Claude model; offline, the one the estimates stand for (its hidden prompt and prices),
                   as in the REPL (default: $SCOUT_MODEL or ${DEFAULT_MODEL})
  --runs N         ask each question N times per variant (1–${MAX_RUNS}, default 1): mean, standard deviation,
                   range, and the paired difference from the baseline with its 95% interval
  --concurrency N  questions in flight at once (1–${MAX_CONCURRENCY}, default ${MAX_CONCURRENT_QUESTIONS})
  --json           print the report as one JSON document instead of the table
  --csv            print one CSV row per variant, question and run instead of the table
  --differs        in the table, list only the questions whose verdict differs between variants
  --html FILE      also write the report as one self-contained HTML page with charts
  --cwd DIR        the workspace, instead of the one the set names`;

export async function labCommand(argv: string[]): Promise<number> {
  const usageError = (message: string) => {
    console.error(`scout lab: ${escapePath(message)}\nTry: scout lab --help`);
    return 2;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usageError((error as Error).message + (await didYouMean(error)));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(LAB_USAGE);
    return 0;
  }
  if (positionals.length !== 1)
    return usageError(
      positionals.length
        ? `one question set at a time, got ${positionals.length}`
        : "which question set? give a QUESTIONS.json file",
    );
  if (values.json && values.csv) return usageError("--json and --csv exclude each other");
  const concurrency = Number(values.concurrency ?? MAX_CONCURRENT_QUESTIONS);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
    return usageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${values.concurrency}"`);
  // Decimal digits only: Number() would also take "1e1", "0x2" and " 2".
  const runs = values.runs === undefined ? 1 : /^[0-9]{1,3}$/.test(values.runs) ? Number(values.runs) : Number.NaN;
  if (!(runs >= 1 && runs <= MAX_RUNS))
    return usageError(
      `--runs must be a whole number from 1 to ${MAX_RUNS} in decimal digits, got ${JSON.stringify(values.runs?.slice(0, 40))}`,
    );
  // Offline, --model names the model the estimates stand for; only a run with Claude needs a sound base URL.
  if (values.model && !values.offline && hasCredentials()) {
    try {
      checkBaseUrl();
    } catch (error) {
      return usageError((error as Error).message);
    }
  }
  const variants = parseVariants(values.variant ?? []);
  if ("error" in variants) return usageError(variants.error);
  if (values.cwd !== undefined && !(fs.existsSync(values.cwd) && fs.statSync(values.cwd).isDirectory()))
    return usageError(`--cwd ${values.cwd}: not a directory`);
  // Checked before the run, which may take long, rather than when the page is written.
  if (values.html !== undefined) {
    const folder = path.dirname(path.resolve(values.html));
    if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory())
      return usageError(`--html ${values.html}: the folder ${folder} does not exist`);
    if (fs.existsSync(values.html) && fs.statSync(values.html).isDirectory())
      return usageError(`--html ${values.html}: is a directory; give a file name`);
  }
  let set: ReturnType<typeof loadQuestionSet>;
  try {
    set = loadQuestionSet(positionals[0], values.cwd);
  } catch (error) {
    if (error instanceof QuestionSetError) return usageError(error.message);
    throw error;
  }

  const offline = values.offline || !hasCredentials();
  const modelName = offline ? OFFLINE_MODEL_NAME : (values.model ?? process.env.SCOUT_MODEL ?? DEFAULT_MODEL);
  // Offline figures stand for the Claude model Scout would use: its hidden tool-use prompt is added to each call.
  const estimatesFor = offline ? (values.model ?? process.env.SCOUT_MODEL ?? DEFAULT_MODEL) : undefined;
  const hiddenPrompt = estimatesFor === undefined ? 0 : hiddenPromptTokens(estimatesFor, 1);
  const progress = progressLine();
  let toldUsage = false; // once for the whole lab, though each run has its own model
  const usageNotice = (text: string) => {
    if (!toldUsage) progress.note(text);
    toldUsage = true;
  };
  const makeModel = (): Model =>
    offline
      ? offlineModel()
      : withBackoff(claudeModel(modelName, undefined, { prepare: cachedRequest, onNotice: usageNotice }), {
          onWait: (ms) => progress.note(`rate limited; waiting ${ms / 1000} s`),
        });
  let schemaTokens: number[];
  try {
    schemaTokens = await countSchemaTokens(
      variants,
      offline ? estimateCounter : exactCounter(),
      modelName,
      estimatesFor,
    );
  } catch (error) {
    console.error(`scout lab: counting the schemas: ${await describeApiError(error)}`); // escaped, credentials cut
    return 1;
  }
  const records = await runExperiment({
    set,
    variants,
    runs,
    concurrency,
    hiddenPrompt,
    makeModel,
    describeError: describeApiError,
    onProgress: progress.update,
  });
  progress.done();
  const report = buildReport({
    set,
    variants,
    records,
    schemaTokens,
    schemaMode: offline ? "estimate" : "exact",
    model: modelName,
    offline,
    runs,
    estimatesFor,
    // Offline, what the system breakpoint would cache: the tools with their hidden prompt, and the system prompt.
    stablePrefix: schemaTokens.map((tokens) => tokens + estimateTokens(SYSTEM_PROMPT)),
  });
  if (values.csv) process.stdout.write(formatCsv(report));
  else console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report, { differs: values.differs }));
  if (values.html !== undefined) {
    try {
      writePersonFile(values.html, renderHtml(report), { option: "--html" }); // never a FIFO or a device
    } catch (error) {
      if (!(error instanceof PersonFileError)) throw error;
      console.error(`scout lab: ${escapePath(error.message)}`);
      return 1;
    }
    console.error(`lab: wrote ${escapePath(values.html)}`);
  }
  return report.errors ? 1 : 0;
}

function parse(argv: string[]) {
  return parseOptions({
    args: argv,
    allowPositionals: true,
    options: {
      variant: { type: "string", multiple: true },
      offline: { type: "boolean" },
      model: { type: "string" },
      runs: { type: "string" },
      concurrency: { type: "string" },
      json: { type: "boolean" },
      csv: { type: "boolean" },
      differs: { type: "boolean" },
      html: { type: "string" },
      cwd: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/**
 * Progress on stderr. On a terminal, one line rewritten after every question; otherwise (a pipe, a
 * file, the lessons' tests) one line as each variant starts, which is the same on every run.
 */
function progressLine() {
  const terminal = Boolean(process.stderr.isTTY);
  let shown = false;
  return {
    update(event: Progress) {
      if (event.type === "variant") {
        if (!terminal) console.error(`lab: ${event.variant.name} (variant ${event.index + 1})…`);
        return;
      }
      if (!terminal) return;
      const mark = event.right ? "✓" : "✗";
      process.stderr.write(`\r\x1b[Klab: ${event.done}/${event.total} · ${event.variant.name} · ${event.id} ${mark}`);
      shown = true;
    },
    note(text: string) {
      if (terminal) process.stderr.write(`\r\x1b[Klab: ${text}`);
      else console.error(`lab: ${text}`);
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[K");
    },
  };
}
