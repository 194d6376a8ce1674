// The loop against a scripted model. The shared cases live in test/cases/loop.ts, so
// `npm run check -- loop` holds a learner's loop (lessons/build/loop.ts) to exactly those tests,
// step-through mode (pause) and Ctrl-C between tool calls included.
import { describe, it } from "vitest";
import { runTurn } from "../src/agent.js";
import { loopCases } from "./cases/loop.js";

describe("runTurn", () => {
  for (const testCase of loopCases) it(testCase.name, () => testCase.run(runTurn));
});
