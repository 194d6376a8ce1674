// Lesson 9's graded questions: the most expensive schema and why, the fixed cost of any tool, the hidden prompt.
import { tools } from "../../src/core/scout.js";
import { DEFAULT_MODEL } from "../../src/core/claude.js";
import { SYSTEM_PROMPT } from "../../src/core/scout.js";
import { scaledEstimateCounter, toolPromptTokens } from "../../src/tokens/model-sizes.js";
import { FIXED_QUESTION, measureSchemaCosts } from "../../src/tokens/schema-costs.js";
import { toolSchemas } from "../../src/core/tool.js";
import { BUDGET_NOTE } from "../../src/guards/result-budget.js";
import { isList, isNumber, type Question } from "./answers.js";

/** What one request costs offline (estimated, as that model's tokenizer counts) on `scout tokens`'s default model. */
const requestCost = (tools: ReturnType<typeof toolSchemas>) =>
  scaledEstimateCounter({
    model: DEFAULT_MODEL,
    system: SYSTEM_PROMPT,
    messages: [{ role: "user", content: FIXED_QUESTION }],
    tools,
  });

export const lesson09: Question[] = [
  {
    n: 1,
    ask: "`npx scout tokens`: which tool's schema costs the most, and is its description or its input_schema the bigger part? (e.g. glob description)",
    hint: "The first table's +N column is each schema's cost; the second table splits it into description and input_schema.",
    judge: isList(async () => {
      const costs = await measureSchemaCosts(scaledEstimateCounter, "estimate", DEFAULT_MODEL);
      const top = costs.tools.reduce((a, b) => (b.marginal > a.marginal ? b : a));
      const parts = costs.parts.find((p) => p.name === top.name)!;
      return [top.name, parts.description.tokens >= parts.input_schema.tokens ? "description" : "input_schema"];
    }, true),
  },
  {
    n: 2,
    ask: 'add a fifth tool to the tools list in src/core/scout.ts: name "noop", description "Does nothing.", no arguments. Its marginal cost in `npx scout tokens`? (then remove it)',
    hint: 'Its schema is {type: "object", properties: {}, required: [], additionalProperties: false}; the list adds the budget sentence to every description. Rebuild (npm run build) before scout tokens.',
    judge: async (answer) => {
      const noop = {
        name: "noop",
        description: `Does nothing. ${BUDGET_NOTE}`,
        input_schema: { type: "object" as const, properties: {}, required: [], additionalProperties: false as const },
      };
      const marginal = (await requestCost([...toolSchemas(tools), noop])) - (await requestCost(toolSchemas(tools)));
      const written = Number(/\d+/.exec(answer)?.[0]);
      // Key order in a hand-written schema can move the estimate by a token or two.
      return Math.abs(written - marginal) <= 2 ? null : `"${answer}" is not it`;
    },
  },
  {
    n: 3,
    ask: "`npx scout tokens --model claude-opus-4-7 --offline`: how many tokens is the hidden tool-use prompt it adds?",
    hint: "It is its own row under the baseline; the footnote says where the figure comes from.",
    judge: isNumber(async () => toolPromptTokens("claude-opus-4-7") ?? -1),
  },
];
