// The shape of src/, checked: imports point down the layers, no cycles, no tool imports another, small files that say their job.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers.js";

/** Longest a src file may be, in lines. */
const MAX_LINES = 250;

/**
 * The layers, lowest first; a file may import from its own layer or any
 * lower one. src/types.ts (types only) and src/escape.ts (how text is made safe to print) may be imported from anywhere.
 * tokens/count.ts (estimateTokens and the Counter type) sits beside the
 * agent, so the models and the step log can count without reaching up.
 */
const LAYERS: [name: string, owns: (file: string) => boolean][] = [
  ["shared", (file) => file === "types.ts" || file === "escape.ts"],
  ["workspace", (file) => file.startsWith("workspace/")],
  ["tools", (file) => file.startsWith("tools/")],
  ["agent", (file) => ["agent.ts", "prompt.ts", "tool-calls.ts", "tokens/count.ts"].includes(file)],
  ["models", (file) => file.startsWith("models/")],
  ["top", () => true], // cli.ts, repl.ts, steplog.ts, the rest of tokens/
];

/** Every .ts file under a folder, relative to it, with "/". */
function sourceFiles(dir: string, prefix = ""): string[] {
  const entries = fs.readdirSync(path.join(dir, prefix), { withFileTypes: true });
  return entries
    .flatMap((entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return sourceFiles(dir, rel);
      return entry.name.endsWith(".ts") ? [rel] : [];
    })
    .sort();
}

/** The src files each src file imports (static, dynamic and type-only), by relative path. */
function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir)) {
    const text = fs.readFileSync(path.join(srcDir, file), "utf8");
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gms),
      ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
      ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
    ].map((match) => match[1]);
    const local = specifiers
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
      .map((target) => target.replace(/\.js$/, ".ts"));
    graph.set(file, [...new Set(local)]);
  }
  return graph;
}

function layerOf(file: string): number {
  return LAYERS.findIndex(([, owns]) => owns(file));
}

/** A file under src/tools/ that defines a tool (a `: Tool<…> =` or `: Tool =` export). */
/** A tool file defines a tool: `export const x: Tool = …`, or a maker `export function makeX(…): Tool<…>`. */
function isToolFile(srcDir: string, file: string): boolean {
  const text = fs.readFileSync(path.join(srcDir, file), "utf8");
  return (
    file.startsWith("tools/") && /export (const \w+: Tool(<[^>]*>)? =|function make\w+\([^)]*\): Tool<)/.test(text)
  );
}

/** Every problem with the shape of src/, one line each; empty when all is well. */
function architectureProblems(srcDir: string): string[] {
  const graph = importGraph(srcDir);
  const problems: string[] = [];
  for (const [file, imports] of graph) {
    for (const target of imports) {
      if (!graph.has(target)) problems.push(`${file} imports ${target}, which is not a file in src/`);
      else if (layerOf(target) > layerOf(file))
        problems.push(
          `${file} (${LAYERS[layerOf(file)][0]}) imports ${target} (${LAYERS[layerOf(target)][0]}): an import up a layer`,
        );
      else if (file !== "tools/index.ts" && isToolFile(srcDir, target) && file.startsWith("tools/"))
        problems.push(`${file} imports the tool ${target}: shared helpers belong in a module of their own`);
    }
  }
  problems.push(...cycles(graph).map((cycle) => `import cycle: ${cycle.join(" -> ")}`));
  for (const file of graph.keys()) {
    const lines = fs.readFileSync(path.join(srcDir, file), "utf8").split("\n");
    const length = lines.at(-1) === "" ? lines.length - 1 : lines.length;
    if (length > MAX_LINES) problems.push(`${file} has ${length} lines (at most ${MAX_LINES})`);
    const opening = openingParagraph(lines);
    if (opening === "") problems.push(`${file} does not open with a comment saying its job`);
    else if (sentences(opening) !== 1)
      problems.push(
        `${file} opens with ${sentences(opening)} sentences; its first paragraph should be one: "${opening}"`,
      );
  }
  return problems;
}

/** The file's first comment paragraph (after a #! line), up to a "//" line or the code. */
function openingParagraph(lines: string[]): string {
  const start = lines[0]?.startsWith("#!") ? 1 : 0;
  const paragraph: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith("// ")) break;
    paragraph.push(line.slice(3));
  }
  return paragraph.join(" ").trim();
}

/** How many sentences a text holds: ends are ".", "!" or "?" before a space or the end, not in "e.g.". */
function sentences(text: string): number {
  const ends = text.replace(/\b(e\.g|i\.e|etc)\./g, "$1").match(/[.!?](?=\s|$)/g) ?? [];
  return Math.max(ends.length, text.length > 0 ? 1 : 0);
}

/** Each import cycle once, as the files around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "visiting");
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "visiting") found.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target) && graph.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("the architecture of src/", () => {
  const srcDir = path.join(REPO_ROOT, "src");

  it("has no upward import, no cycle, no tool importing a tool, no long or unexplained file", () => {
    expect(architectureProblems(srcDir)).toEqual([]);
  });

  it("knows the tool files: every tool in the registry, and no helper module", () => {
    const toolFiles = sourceFiles(srcDir).filter((file) => isToolFile(srcDir, file));
    expect(toolFiles).toEqual(
      expect.arrayContaining(["tools/glob.ts", "tools/grep.ts", "tools/list_files.ts", "tools/read_file.ts"]),
    );
    expect(importGraph(srcDir).get("tools/index.ts")).toEqual(expect.arrayContaining(toolFiles));
  });

  it("finds its imports: the agent reaches the tools, and every layer has files", () => {
    const graph = importGraph(srcDir);
    expect(graph.get("agent.ts")).toContain("tools/index.ts");
    expect(graph.get("cli.ts")).toContain("models/claude.ts");
    for (const [name] of LAYERS.slice(1))
      expect([...graph.keys()].some((file) => LAYERS[layerOf(file)][0] === name)).toBe(true);
  });

  it("would catch an upward import, a cycle, a tool importing a tool, and a file without its sentence", () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), "scout-arch-"));
    try {
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
        fs.writeFileSync(path.join(tree, file), text);
      };
      write("workspace/workspace.ts", '// Paths.\nimport { x } from "../tools/a.js";\n');
      write("tools/a.ts", '// Tool a.\nimport { b } from "./b.js";\nexport const a: Tool = {};\n');
      write("tools/b.ts", '// Tool b.\nimport { a } from "./a.js";\nexport function makeB(design: D): Tool<A> {}\n');
      write("agent.ts", "export const loop = 1;\n");
      write("repl.ts", "// Two sentences. Not one.\n");
      write("steplog.ts", `// Long.\n${"export {};\n".repeat(MAX_LINES)}`);
      expect(architectureProblems(tree).sort()).toEqual(
        [
          "workspace/workspace.ts (workspace) imports tools/a.ts (tools): an import up a layer",
          "tools/a.ts imports the tool tools/b.ts: shared helpers belong in a module of their own",
          "tools/b.ts imports the tool tools/a.ts: shared helpers belong in a module of their own",
          "import cycle: tools/a.ts -> tools/b.ts -> tools/a.ts",
          "agent.ts does not open with a comment saying its job",
          `steplog.ts has ${MAX_LINES + 1} lines (at most ${MAX_LINES})`,
          'repl.ts opens with 2 sentences; its first paragraph should be one: "Two sentences. Not one."',
        ].sort(),
      );
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });
});
