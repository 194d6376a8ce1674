// The shape of src/, checked: rings whose imports point inward, a core read in one sitting, no cycles, no tool importing another, files that say their job.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEARNER_FILES, REPO_ROOT } from "./helpers.js";

/**
 * The rings, innermost first; a file may import from its own ring or an inner one. The guards harden what the
 * core does (and name what they guard); the core is the agent; the instruments plug into it (events, a Model,
 * a Tool[]); the front (the CLI and the REPL) puts it all before a person.
 */
const RINGS: [name: string, owns: (file: string) => boolean][] = [
  ["guards", (file) => file.startsWith("guards/")],
  ["core", (file) => file.startsWith("core/")],
  [
    "instruments",
    (file) =>
      (/^(models|tokens|lab)\//.test(file) && !file.endsWith("/command.ts")) ||
      ["steplog.ts", "trace.ts", "person-file.ts"].includes(file),
  ],
  ["front", () => true], // cli.ts, repl/, the commands (lab/command.ts, tokens/command.ts), options.ts, …
];

/** Ring 0 is read in one sitting: at most this many files and lines, comments included. */
const CORE_MAX_FILES = 10;
const CORE_MAX_LINES = 900;
/** What the core may import from outside src/: Node's built-ins and the SDK. */
const CORE_PACKAGES = /^(node:|@anthropic-ai\/sdk$)/;
/** What the guards may import from outside src/: Node and the libraries that do the hardening's work. */
const GUARD_PACKAGES = /^(node:|@anthropic-ai\/sdk$|@vscode\/ripgrep$|fast-glob$|braces$|ignore$)/;

/** Every .ts (and .cts) file under a folder, relative to it, with "/". */
function sourceFiles(dir: string, prefix = ""): string[] {
  const entries = fs.readdirSync(path.join(dir, prefix), { withFileTypes: true });
  return entries
    .flatMap((entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return sourceFiles(dir, rel);
      return /\.c?ts$/.test(entry.name) ? [rel] : []; // .cts: src/scout.cts, the CommonJS bin
    })
    .sort();
}

/** Every module a src file imports (static, dynamic and type-only), as written. */
function specifiersOf(srcDir: string, file: string): string[] {
  const text = fs.readFileSync(path.join(srcDir, file), "utf8");
  return [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gms),
    ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
  ].map((match) => match[1]);
}

/** The src files each src file imports (static, dynamic and type-only), by relative path. */
function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir)) {
    const local = specifiersOf(srcDir, file)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
      .map((target) => target.replace(/\.js$/, ".ts"));
    graph.set(file, [...new Set(local)]);
  }
  return graph;
}

function ringOf(file: string): number {
  return RINGS.findIndex(([, owns]) => owns(file));
}

/** A tool file defines a tool: `export const x: Tool<…> = …`. */
function isToolFile(srcDir: string, file: string): boolean {
  return /export const \w+: Tool(<[^>]*>)? =/.test(fs.readFileSync(path.join(srcDir, file), "utf8"));
}

/** A file's length in lines. */
function lineCount(srcDir: string, file: string): number {
  const lines = fs.readFileSync(path.join(srcDir, file), "utf8").split("\n");
  return lines.at(-1) === "" ? lines.length - 1 : lines.length;
}

/** Every problem with the shape of src/, one line each; empty when all is well. */
function architectureProblems(srcDir: string): string[] {
  const graph = importGraph(srcDir);
  const problems: string[] = [];
  for (const [file, imports] of graph) {
    const ring = ringOf(file);
    for (const target of imports) {
      if (!graph.has(target)) problems.push(`${file} imports ${target}, which is not a file in src/`);
      else if (ringOf(target) > ring)
        problems.push(`${file} (${RINGS[ring][0]}) imports ${target} (${RINGS[ringOf(target)][0]}): an import outward`);
      else if (isToolFile(srcDir, file) && isToolFile(srcDir, target))
        problems.push(`${file} imports the tool ${target}: shared helpers belong in a module of their own`);
      // A core tool reads alone: beside the contract it leans only on guards, named for what they guard.
      else if (isToolFile(srcDir, file) && ring === 1 && ringOf(target) === 1 && target !== "core/tool.ts")
        problems.push(`${file} imports ${target}: a tool in the core leans only on core/tool.ts and the guards`);
    }
    const allowed = ring === 0 ? GUARD_PACKAGES : ring === 1 ? CORE_PACKAGES : undefined;
    for (const specifier of specifiersOf(srcDir, file).filter((name) => !name.startsWith(".")))
      if (allowed && !allowed.test(specifier))
        problems.push(`${file} (${RINGS[ring][0]}) imports the package ${specifier}`);
    const opening = openingParagraph(fs.readFileSync(path.join(srcDir, file), "utf8").split("\n"));
    if (opening === "") problems.push(`${file} does not open with a comment saying its job`);
    else if (sentences(opening) !== 1)
      problems.push(
        `${file} opens with ${sentences(opening)} sentences; its first paragraph should be one: "${opening}"`,
      );
  }
  const core = [...graph.keys()].filter((file) => ringOf(file) === 1 && !LEARNER_FILES.includes(file));
  const coreLines = core.reduce((sum, file) => sum + lineCount(srcDir, file), 0);
  if (core.length > CORE_MAX_FILES) problems.push(`core/ has ${core.length} files (at most ${CORE_MAX_FILES})`);
  if (coreLines > CORE_MAX_LINES) problems.push(`core/ has ${coreLines} lines (at most ${CORE_MAX_LINES})`);
  problems.push(...cycles(graph).map((cycle) => `import cycle: ${cycle.join(" -> ")}`));
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

/**
 * Lesson 0's map of src/ (its ```text block that starts "src/"): each file it names, under the ring whose
 * heading ("ring 0, the core", "guards/", "instruments", "front") comes before it.
 */
function mapOfSrc(markdown: string): Map<string, string> {
  const block = /```text\nsrc\/\n([\s\S]*?)```/.exec(markdown)?.[1] ?? "";
  const HEADINGS: [RegExp, string][] = [
    [/^ {2}ring 0, the core\b/, "core"],
    [/^ {2}guards\/, /, "guards"],
    [/^ {2}instruments$/, "instruments"],
    [/^ {2}front$/, "front"],
  ];
  const map = new Map<string, string>();
  let ring = "";
  for (const line of block.split("\n")) {
    ring = HEADINGS.find(([heading]) => heading.test(line))?.[1] ?? ring;
    const file = /^ {2}([\w/.-]+\.c?ts)\s/.exec(line)?.[1];
    if (file) map.set(file, ring);
  }
  return map;
}

describe("the architecture of src/", () => {
  const srcDir = path.join(REPO_ROOT, "src");

  it("is mapped in lesson 0, every file under its ring, and the map names no file that is not there", () => {
    const map = mapOfSrc(fs.readFileSync(path.join(REPO_ROOT, "lessons/00-start-here.md"), "utf8"));
    const files = sourceFiles(srcDir).filter((file) => !LEARNER_FILES.includes(file));
    expect(
      files.filter((file) => !map.has(file)),
      "files missing from the map",
    ).toEqual([]);
    expect(
      [...map.keys()].filter((file) => !files.includes(file)),
      "mapped files that do not exist",
    ).toEqual([]);
    const misplaced = files.filter((file) => map.get(file) !== RINGS[ringOf(file)][0]);
    expect(
      misplaced.map((file) => `${file} is mapped under ${map.get(file)}, is in ${RINGS[ringOf(file)][0]}`),
    ).toEqual([]);
  });

  it("has imports that point inward, no cycle, no tool importing a tool, a core within budget, and files that say their job", () => {
    expect(architectureProblems(srcDir)).toEqual([]);
  });

  it("uses import.meta.url only where the bundle's one URL gives the same answer", () => {
    // dist/bundle.cjs is every bundled module's import.meta.url (package.json's build): right for
    // createRequire, which finds a package from any folder of dist/, and for a path from a file at src/'s top.
    const wrong = sourceFiles(srcDir).flatMap((file) =>
      fs
        .readFileSync(path.join(srcDir, file), "utf8")
        .split("\n")
        .filter((line) => line.includes("import.meta.url") && !/^\s*(\/\/|\*)/.test(line))
        .filter((line) => file.includes("/") && !line.includes("createRequire(import.meta.url)"))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(wrong).toEqual([]);
  });

  it("knows the four tools: each defined in the core, and in Scout's list", () => {
    const toolFiles = sourceFiles(srcDir).filter((file) => isToolFile(srcDir, file));
    expect(toolFiles).toEqual(["core/glob.ts", "core/grep.ts", "core/list_files.ts", "core/read_file.ts"]);
    expect(importGraph(srcDir).get("core/scout.ts")).toEqual(expect.arrayContaining(toolFiles));
  });

  it("finds its imports: the loop reaches the tools' contract, and every ring has files", () => {
    const graph = importGraph(srcDir);
    expect(graph.get("core/loop.ts")).toContain("core/tool.ts");
    expect(graph.get("cli.ts")).toContain("core/claude.ts");
    for (const [name] of RINGS) expect([...graph.keys()].some((file) => RINGS[ringOf(file)][0] === name)).toBe(true);
  });

  it("reads a map: its rings' headings and the files under each", () => {
    const map = mapOfSrc(
      "```text\nsrc/\n  ring 0, the core: x\n  core/loop.ts  the loop\n  guards/, the hardening\n  guards/a.ts  a\n  front\n  cli.ts  b\n```\n",
    );
    expect([...map]).toEqual([
      ["core/loop.ts", "core"],
      ["guards/a.ts", "guards"],
      ["cli.ts", "front"],
    ]);
  });

  it("would catch an outward import, a package the core may not use, a cycle, a tool importing a tool, a core over budget and a file without its sentence", () => {
    const tree = fs.mkdtempSync(path.join(os.tmpdir(), "scout-arch-"));
    try {
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
        fs.writeFileSync(path.join(tree, file), text);
      };
      write("guards/open.ts", '// Opens.\nimport { x } from "../core/a.js";\n');
      write("core/a.ts", '// Tool a.\nimport { b } from "./b.js";\nexport const a: Tool = {};\n');
      write("core/b.ts", '// Tool b.\nimport { a } from "./a.js";\nexport const b: Tool<B> = {};\n');
      write("core/c.ts", '// Uses a library.\nimport fg from "fast-glob";\n');
      write("core/loop.ts", `export const loop = 1;\n${"// more\n".repeat(CORE_MAX_LINES)}`);
      write("steplog.ts", '// Two sentences. Not one.\nimport { run } from "./repl/run.js";\n');
      write("repl/run.ts", "// Runs.\nexport const run = 1;\n");
      expect(architectureProblems(tree).sort()).toEqual(
        [
          "guards/open.ts (guards) imports core/a.ts (core): an import outward",
          "steplog.ts (instruments) imports repl/run.ts (front): an import outward",
          "core/a.ts imports the tool core/b.ts: shared helpers belong in a module of their own",
          "core/b.ts imports the tool core/a.ts: shared helpers belong in a module of their own",
          "core/c.ts (core) imports the package fast-glob",
          "import cycle: core/a.ts -> core/b.ts -> core/a.ts",
          "core/loop.ts does not open with a comment saying its job",
          `core/ has ${CORE_MAX_LINES + 9} lines (at most ${CORE_MAX_LINES})`,
          'steplog.ts opens with 2 sentences; its first paragraph should be one: "Two sentences. Not one."',
        ].sort(),
      );
    } finally {
      fs.rmSync(tree, { recursive: true, force: true });
    }
  });
});
