// A model that listens to the loop's events as well as answering: the offline model keeps each tool's facts.
import type { Model, StepEvent } from "../core/loop.js";

export interface ListeningModel extends Model {
  /** Called with every event of the turn, before the next model call. */
  onStep(event: StepEvent): void;
}

/** Whether a model listens to the loop's events too; whoever runs a turn then hands it each one. */
export function listens(model: Model): model is ListeningModel {
  return typeof (model as Partial<ListeningModel>).onStep === "function";
}
