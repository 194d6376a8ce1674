// A build of the CLI with a fifth tool in its registry, so tests whose expectations depend on the tools can show they assume no number.
//
// Lesson 14 has learners add a tool (outline); the issue that asked for it
// found tests that broke only because they counted four. Tests that run the
// CLI take their expectations from a tool list and run once with Scout's
// build and once with this one.
import fs from "node:fs";
import path from "node:path";
import { tools } from "../src/core/scout.js";
import { toolSchemas } from "../src/core/tool.js";
import { BUDGET_NOTE } from "../src/guards/result-budget.js";
import { CLI, REPO_ROOT } from "./helpers.js";

/** The fifth tool as the model sees it (src/core/scout.ts adds the budget sentence to its description). */
const ECHO = {
  name: "echo",
  description: "Repeats the given text back unchanged, on one line.",
  input_schema: {
    type: "object" as const,
    properties: { text: { type: "string" as const, description: "the text to repeat" } },
    required: ["text"],
    additionalProperties: false as const,
  },
};

export type Schema = ReturnType<typeof toolSchemas>[number];

export interface Build {
  /** The CLI to run. */
  cli: string;
  /** Its tools, as it sends them to the model: what the expectations are computed from. */
  schemas: Schema[];
  remove(): void;
}

/** Scout's own build: dist/cli.js and the registry. */
export function scoutBuild(): Build {
  return { cli: CLI, schemas: toolSchemas(tools), remove() {} };
}

/**
 * A copy of dist/ whose tool list (core/scout.js) has ECHO after the last tool, inside the
 * repository (so the copy finds node_modules), removed by `remove`.
 */
export function fifthToolBuild(): Build {
  const cache = path.join(REPO_ROOT, "node_modules", ".cache"); // not there yet after a fresh npm ci
  fs.mkdirSync(cache, { recursive: true });
  const root = fs.mkdtempSync(path.join(cache, "scout-fifth-tool-"));
  try {
    fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(root, "package.json"));
    const registry = path.join(root, "dist", "core", "scout.js");
    const source = fs.readFileSync(registry, "utf8");
    const echo = `{ ...${JSON.stringify(ECHO)}, run: async ({ text }) => ({ content: String(text), isError: false }) }`;
    // tools = [readFile, …].map(…): ECHO goes last, after whatever tools are there.
    const added = source.replace(/(tools = \[[^\]]*)\]\.map\(/, `$1, ${echo}].map(`);
    if (added === source) throw new Error(`fifthToolBuild: no "tools = [ … ].map(" in ${registry}`);
    fs.writeFileSync(registry, added);
  } catch (error) {
    fs.rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return {
    cli: path.join(root, "dist", "cli.js"),
    schemas: [...toolSchemas(tools), { ...ECHO, description: `${ECHO.description} ${BUDGET_NOTE}` }],
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The builds the count-dependent tests run against, each with its label (part of the tests' names). */
export const BUILDS = [
  ["Scout's tools", scoutBuild],
  ["with a fifth tool added, as lesson 14 asks", fifthToolBuild],
] as const;
