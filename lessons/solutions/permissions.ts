// One solution to lesson 12's permission rule: a denied tool keeps its schema, and its run refuses.
//
// Check it with: npm run check -- permissions lessons/solutions/permissions.ts
import { fail, type Tool } from "../../src/core/tool.js";

export function denyTools(toolSet: Tool[], denied: readonly string[]): Tool[] {
  return toolSet.map((tool) =>
    denied.includes(tool.name)
      ? // A new object: the set given (Scout's registry, say) keeps its own run.
        { ...tool, run: async () => fail(`${tool.name} is denied by a permission rule; answer without it`) }
      : tool,
  );
}
