// What --json reports about one turn, kept by listening to the loop's step events.
//
// Each step, the answer, and how it ended; its usage is added up from its steps when it is read.
import type { StepEvent, Usage } from "../core/loop.js";

/** A step as --json reports it. */
export type JsonStep =
  | { n: number; type: "model"; model: string; stop_reason: string | null; usage: Usage; ms: number }
  | {
      n: number;
      type: "tool";
      name: string;
      input: unknown;
      is_error: boolean;
      skipped: boolean;
      result_chars: number;
      ms: number;
    };

export class JsonTurn {
  steps: JsonStep[] = [];
  text = "";
  stopReason = "";
  error: string | undefined;

  /** `n` is the step's number in the step log, which the trace uses too. */
  record(event: StepEvent, n: number): void {
    if (event.type === "model_response") {
      const { model, stopReason, usage, ms } = event;
      this.steps.push({ n, type: "model", model, stop_reason: stopReason, usage: { ...usage }, ms });
    }
    if (event.type === "tool_result") {
      const { name, input, result, ms } = event;
      const skipped = !!result.facts?.skipped;
      const result_chars = result.content.length;
      this.steps.push({ n, type: "tool", name, input, is_error: result.isError, skipped, result_chars, ms });
    }
    if (event.type === "turn_end") {
      this.text = event.result.text;
      this.stopReason = event.result.stopReason;
    }
  }

  /** The input and output tokens of its model calls. */
  get usage(): { input_tokens: number; output_tokens: number } {
    const models = this.modelUsages;
    return {
      input_tokens: models.reduce((sum, usage) => sum + usage.input_tokens, 0),
      output_tokens: models.reduce((sum, usage) => sum + usage.output_tokens, 0),
    };
  }

  /** The usage of each model call, for pricing. */
  get modelUsages(): Usage[] {
    return this.steps.flatMap((step) => (step.type === "model" ? [step.usage] : []));
  }
}
