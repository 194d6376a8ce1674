// The experiment: every question of a set, in a fresh conversation, once per variant and run, through the one
// agent loop with the variant's tools, each step recorded.
//
// Nothing here re-implements the agent: runTurn gets the variant's tool
// set (makeTools) and the runner only listens to its step events.
import { listens } from "../models/listening.js";
import { type Model, runTurn } from "../core/loop.js";
import { estimateTokens } from "../tokens/count.js";
import type { makeTools } from "./designs.js";
import { Workspace } from "../core/workspace.js";
import type { QuestionSet } from "./question-set.js";
import { grade } from "./questions.js";
import { toolsOf, type Variant } from "./variants.js";

/** Questions in flight at once: enough to keep a model busy, few enough not to hit rate limits at once. */
export const MAX_CONCURRENT_QUESTIONS = 4;

/** One step of a run: a model call with the usage it reported, or a tool call with the size of its result. */
export type Step =
  | { kind: "model"; inputTokens: number; outputTokens: number; cacheRead?: number; cacheWrite?: number }
  | { kind: "tool"; name: string; resultTokens: number; isError: boolean };

/** One question answered once by one variant. */
export interface RunRecord {
  right: boolean;
  /** Why a wrong answer is wrong ("" when right). */
  why: string;
  answer: string;
  stopReason: string;
  /** The tools called in order ("read_file (error)" for an error result), then "answer" (or the stop reason). */
  path: string[];
  modelCalls: number;
  /** Every token of every request (cache reads and writes included): what a design makes the model read. */
  inputTokens: number;
  outputTokens: number;
  /** Tool results, estimated locally (they are sent again with every later request). */
  toolResultTokens: number;
  toolResultTokensByTool: Record<string, number>;
  steps: Step[];
  /** Set when the turn failed (an API error that outlasted the retries). */
  error?: string;
}

export interface ExperimentOptions {
  set: QuestionSet;
  variants: Variant[];
  runs: number;
  /** A model for one question: called once per question, variant and run. */
  makeModel: () => Model;
  concurrency?: number;
  maxSteps?: number;
  /**
   * Tokens to add to each model call's input: offline, the hidden tool-use prompt the API would add to every
   * request that carries tools (src/tokens/model-sizes.ts), which the offline model's estimate cannot see.
   * 0 (the default) with Claude, whose usage already holds it.
   */
  hiddenPrompt?: number;
  describeError?: (error: unknown) => Promise<string>;
  /** Told when a variant's first question starts (in order), and after each question. */
  onProgress?: (event: Progress) => void;
}

export type Progress =
  | { type: "variant"; variant: Variant; index: number }
  | { type: "question"; done: number; total: number; variant: Variant; id: string; right: boolean };

/** Runs everything; the records are [variant][question][run], whatever order they finished in. */
export async function runExperiment(options: ExperimentOptions): Promise<RunRecord[][][]> {
  const { set, variants, runs, makeModel, concurrency = MAX_CONCURRENT_QUESTIONS, onProgress = () => {} } = options;
  const records: RunRecord[][][] = variants.map(() => set.questions.map(() => []));
  const jobs: { v: number; q: number; r: number }[] = [];
  for (let v = 0; v < variants.length; v++)
    for (let q = 0; q < set.questions.length; q++) for (let r = 0; r < runs; r++) jobs.push({ v, q, r });
  const toolSets = variants.map(toolsOf);
  const workspace = new Workspace(set.workspace);

  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { v, q, r } = jobs[next++];
      if (q === 0 && r === 0) onProgress({ type: "variant", variant: variants[v], index: v });
      const question = set.questions[q];
      const record = await askOnce(question.question, {
        ...options,
        model: makeModel(),
        workspace,
        tools: toolSets[v],
      });
      const { right, why } = record.error ? { right: false, why: record.error } : grade(record.answer, question.expect);
      records[v][q][r] = { ...record, right, why };
      onProgress({ type: "question", done: ++done, total: jobs.length, variant: variants[v], id: question.id, right });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
  return records;
}

/** One question in a new, empty conversation; every step recorded. */
async function askOnce(
  question: string,
  options: ExperimentOptions & { model: Model; workspace: Workspace; tools: ReturnType<typeof makeTools> },
): Promise<RunRecord> {
  const record: RunRecord = {
    right: false,
    why: "",
    answer: "",
    stopReason: "",
    path: [],
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    toolResultTokens: 0,
    toolResultTokensByTool: {},
    steps: [],
  };
  try {
    const turn = await runTurn(question, [], {
      model: options.model,
      workspace: options.workspace,
      tools: options.tools,
      maxSteps: options.maxSteps,
      onStep(event) {
        if (listens(options.model)) options.model.onStep(event); // the offline model reads the tools' facts
        if (event.type === "model_response") {
          const { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens } = event.usage;
          const input =
            input_tokens +
            (cache_read_input_tokens ?? 0) +
            (cache_creation_input_tokens ?? 0) +
            (options.hiddenPrompt ?? 0);
          record.steps.push({
            kind: "model",
            inputTokens: input,
            outputTokens: output_tokens,
            ...(cache_read_input_tokens ? { cacheRead: cache_read_input_tokens } : {}),
            ...(cache_creation_input_tokens ? { cacheWrite: cache_creation_input_tokens } : {}),
          });
          record.modelCalls++;
          record.inputTokens += input;
          record.outputTokens += output_tokens;
        } else if (event.type === "tool_result") {
          const resultTokens = estimateTokens(event.result.content);
          record.steps.push({ kind: "tool", name: event.name, resultTokens, isError: event.result.isError });
          record.path.push(event.result.isError ? `${event.name} (error)` : event.name);
          record.toolResultTokens += resultTokens;
          record.toolResultTokensByTool[event.name] = (record.toolResultTokensByTool[event.name] ?? 0) + resultTokens;
        }
      },
    });
    record.answer = turn.text;
    record.stopReason = turn.stopReason;
    record.path.push(turn.stopReason === "end_turn" ? "answer" : turn.stopReason);
  } catch (error) {
    const describe = options.describeError ?? (async (e: unknown) => (e as Error).message);
    record.error = await describe(error);
    record.stopReason = "error";
    record.path.push("error");
  }
  return record;
}
