// YOUR permission rule (lesson 12): finish it until `npm run check -- permissions` passes every case.
//
// Agents that edit files and run commands decide in code what a tool call
// may do, never by asking the model. This is the smallest such rule, a deny
// list: denyTools gives back the tool set to pass to runTurn, in which a
// call to a denied tool is refused, as an error result the model reads.
// The cases (lessons/cases/permissions.ts) are its whole specification. Stuck?
// `npm run check -- permissions` prints a hint under each FAIL, and
// lessons/solutions/permissions.ts is one answer.
import type { Tool } from "../../src/core/tool.js";

export function denyTools(toolSet: Tool[], denied: readonly string[]): Tool[] {
  // TODO: a tool named in `denied` keeps its schema but answers with fail(…) instead of running.
  void denied;
  return toolSet;
}
