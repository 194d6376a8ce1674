// A learner's own loop, tool or model adapter (lessons 2 and 7), loaded into the real REPL: `scout --loop FILE`, `--tool FILE`, `--adapter FILE`.
//
// The files are TypeScript, run as they are: lessons/typescript-hooks.mjs
// (the hooks `npm run check` uses) compiles each as it is imported, and maps
// its `../../src/X.js` imports to the running dist/X.js, so the learner's code
// and Scout share one agent.ts, one TurnQuit, one tool registry. A file that
// does not export what its option needs is a usage error naming the export.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Model, runTurn } from "./core/loop.js";
import { UsageError } from "./options.js";
import type { Tool } from "./core/tool.js";

/** The hooks that compile a .ts file as it is imported; they ship with the lessons, beside the exercises. */
const HOOKS = new URL("../lessons/typescript-hooks.mjs", import.meta.url);

export interface LearnerCode {
  /** What the Session takes instead of Scout's: the loop, and Scout's tools with the learner's in place of theirs. */
  session: { runTurn?: typeof runTurn; tools?: Tool[] };
  /** The model of this name, through the learner's adapter. */
  model?: (name: string) => Model;
}

/** Loads the files named by --loop, --tool and --adapter; nothing when none is given. */
export async function loadLearnerCode(
  files: { loop?: string; tool?: string; adapter?: string },
  offline: boolean,
): Promise<LearnerCode> {
  const code: LearnerCode = { session: {} };
  if (!files.loop && !files.tool && !files.adapter) return code;
  if (files.adapter && offline)
    throw new UsageError("--adapter talks to the Messages API: it needs ANTHROPIC_API_KEY (and no --offline)");
  const { register } = await import("node:module");
  register(HOOKS.href, import.meta.url, { data: { useDist: true } });
  if (files.loop) code.session.runTurn = exported(await load("--loop", files.loop), "--loop", "runTurn");
  if (files.adapter) {
    const makeModel = exported<MakeModel>(await load("--adapter", files.adapter), "--adapter", "makeModel");
    const baseURL = process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com";
    code.model = (name) => makeModel({ baseURL, apiKey: process.env.ANTHROPIC_API_KEY ?? "", name });
  }
  if (files.tool) {
    const learner = toolsOf(await load("--tool", files.tool), files.tool);
    const names = new Set(learner.map((tool) => tool.name));
    const { tools } = await import("./core/scout.js");
    code.session.tools = [...tools.filter((tool) => !names.has(tool.name)), ...learner];
  }
  return code;
}

/** What lessons/build/model.ts exports (lesson 7): a model, given the API's address, a key and a model name. */
type MakeModel = (options: { baseURL: string; apiKey: string; name: string }) => Model;

async function load(option: string, file: string): Promise<Record<string, unknown>> {
  const abs = path.resolve(file);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) throw new UsageError(`${option} ${file}: no such file`);
  try {
    return await import(pathToFileURL(abs).href);
  } catch (error) {
    throw new UsageError(`${option} ${file} could not be loaded: ${(error as Error).message.split("\n")[0]}`);
  }
}

function exported<T>(module: Record<string, unknown>, option: string, name: string): T {
  if (typeof module[name] !== "function")
    throw new UsageError(`${option}: the file does not export a function ${name}`);
  return module[name] as T;
}

/** The Tool objects a module exports, and the tools its make… functions make with the default design. */
function toolsOf(module: Record<string, unknown>, file: string): Tool[] {
  const isTool = (value: unknown): value is Tool =>
    typeof value === "object" && value !== null && "name" in value && "input_schema" in value && "run" in value;
  const found = Object.entries(module).flatMap(([name, value]) => {
    if (isTool(value)) return [value];
    if (typeof value === "function" && /^make[A-Z]/.test(name)) {
      const made = (value as () => unknown)();
      return isTool(made) ? [made] : [];
    }
    return [];
  });
  if (found.length === 0)
    throw new UsageError(`--tool ${file}: the file exports no tool (an object with name, input_schema and run)`);
  return found;
}
