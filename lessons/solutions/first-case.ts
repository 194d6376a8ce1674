// One solution to lesson 15's test-first exercise: a case that wrong outline tools fail and a finished one passes.
//
// Check it with: npm run check -- first-case lessons/solutions/first-case.ts
import assert from "node:assert/strict";
import type { Case } from "../cases/case.js";
import { withTree } from "../cases/case.js";
import type { Outline } from "../cases/outline.js";
import { runTool } from "../../src/core/tool.js";
import { Workspace } from "../../src/core/workspace.js";

export const firstCase: Case<Outline> = {
  name: "outline shows a Python file's one definition, with its line number, and nothing else",
  hint: "One line per definition, LINE: TEXT, as lessons/cases/outline.ts describes.",
  run: async (tool) => {
    const result = await withTree({ "app.py": "import os\n\ndef main():\n    return 1\n" }, (root) =>
      runTool(tool.name, { path: "app.py" }, { workspace: new Workspace(root) }, [tool]),
    );
    assert.equal(result.isError, false, result.content);
    assert.equal(result.content, "3: def main():", "the one definition, as LINE: TEXT, and nothing else");
  },
};
