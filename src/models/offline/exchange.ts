// A tool call the offline model made, with its result, and what the result says: capped, or nothing found.
//
// It reads the tools' structured facts when it saw the call run (offlineModel's onStep), so rewording a footer
// does not change its moves; a call it did not see (a resumed session) is judged by its text.
import type { ToolFacts } from "../../core/tool.js";

export interface Exchange {
  batch: number;
  name: string;
  input: Record<string, any>;
  result: string;
  isError: boolean;
  /** The tool's structured facts, when the model saw the call run (its onStep); else only the text is known. */
  facts?: ToolFacts;
}

/** Whether a glob found no file: its facts say so, or, for a call the model did not see run, its text. */
export function foundNothing(exchange: Exchange): boolean {
  return exchange.facts ? exchange.facts.total === 0 : exchange.result.startsWith("No files");
}

/** Whether grep stopped at its cap: its facts say so, or, for a call the model did not see run, its footer. */
export function isCapped(search: { result: string; facts?: ToolFacts }): boolean {
  return search.facts ? search.facts.capped === true : /more matches exist/.test(search.result);
}
