// The tool-design knobs (cap, descriptions, line numbers, sort) change what the tools send and return.
import { describe, expect, it } from "vitest";
import { tools } from "../src/core/scout.js";
import { makeTools } from "../src/lab/designs.js";
import { runTool, toolSchemas } from "../src/core/tool.js";
import { DEFAULT_DESIGN, type ToolDesign } from "../src/lab/designs.js";
import { estimateTokens } from "../src/tokens/count.js";
import { Workspace } from "../src/core/workspace.js";
import { makeTree } from "./helpers.js";

/** Five files, newest first: e.txt (5,000 s) … a.txt (1,000 s), so mtime order is the reverse of path order. */
function fiveFiles(): string {
  return makeTree(
    Object.fromEntries(
      ["a", "b", "c", "d", "e"].map((name, i) => [
        `${name}.txt`,
        { content: "MARK\nsecond line\n", mtime: 1_000 * (i + 1) },
      ]),
    ),
  );
}

async function run(root: string, design: Partial<ToolDesign>, name: string, input: object) {
  const toolSet = makeTools({ ...DEFAULT_DESIGN, ...design });
  return (await runTool(name, input, { workspace: new Workspace(root) }, toolSet)).content;
}

describe("tool designs", () => {
  it("Scout's own design is the default registry, exactly", () => {
    expect(toolSchemas(makeTools(DEFAULT_DESIGN))).toEqual(toolSchemas(tools));
  });

  it("cap=N caps glob, grep and list_files at N lines, and the descriptions say N", async () => {
    const root = fiveFiles();
    expect(await run(root, { cap: 2 }, "glob", { pattern: "*.txt" })).toBe(
      "e.txt\nd.txt\n(showing the 2 newest of 5 files; use a narrower pattern or path to see others)",
    );
    expect((await run(root, { cap: 2 }, "grep", { pattern: "MARK" })).split("\n")).toEqual([
      "e.txt:1:MARK",
      "d.txt:1:MARK",
      "(showing the first 2 lines; more matches exist — narrow pattern, path or include)",
    ]);
    expect((await run(root, { cap: 2 }, "list_files", {})).split("\n")[2]).toMatch(/^\(showing 2 of 5 entries/);
    expect(await run(root, { cap: 1 }, "read_file", { path: "a.txt" })).toBe(
      "1\tMARK\n(lines 1-1 of 2; call read_file with offset=2 to continue)",
    );
    for (const tool of makeTools({ ...DEFAULT_DESIGN, cap: 37 })) expect(tool.description).toMatch(/at most 37/i);
    const readFile = makeTools({ ...DEFAULT_DESIGN, cap: 37 })[0];
    expect(readFile.input_schema.properties.limit.maximum).toBe(37);
  });

  it("sort=path orders files by path in glob, grep and list_files", async () => {
    const root = fiveFiles();
    expect(await run(root, { sort: "path" }, "glob", { pattern: "*.txt" })).toBe("a.txt\nb.txt\nc.txt\nd.txt\ne.txt");
    expect(await run(root, { sort: "path" }, "grep", { pattern: "MARK" })).toBe(
      "a.txt:1:MARK\nb.txt:1:MARK\nc.txt:1:MARK\nd.txt:1:MARK\ne.txt:1:MARK",
    );
    expect(await run(root, { sort: "path" }, "list_files", {})).toBe("a.txt\nb.txt\nc.txt\nd.txt\ne.txt");
    expect(await run(root, {}, "list_files", {})).toBe("e.txt\nd.txt\nc.txt\nb.txt\na.txt");
    for (const tool of makeTools({ ...DEFAULT_DESIGN, sort: "path" })) expect(tool.description).not.toMatch(/newest/);
  });

  it("sort=path with many hits takes rg's path-sorted pass and still stops at the cap", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, "0")}.txt`] = "MARK\n".repeat(50);
    const root = makeTree(files);
    const lines = (await run(root, { sort: "path", cap: 60 }, "grep", { pattern: "MARK" })).split("\n");
    expect(lines.length).toBe(61);
    expect(lines[0]).toBe("f00.txt:1:MARK");
    expect(lines[59]).toBe("f01.txt:10:MARK");
  });

  it("line-numbers off sends read_file's lines bare, with the footer kept", async () => {
    const root = fiveFiles();
    expect(await run(root, { lineNumbers: false }, "read_file", { path: "a.txt" })).toBe(
      "MARK\nsecond line\n(lines 1-2 of 2)",
    );
  });

  it("concise descriptions are shorter, cost fewer tokens, and still state the cap", () => {
    const full = toolSchemas(makeTools(DEFAULT_DESIGN));
    const concise = toolSchemas(makeTools({ ...DEFAULT_DESIGN, descriptions: "concise" }));
    for (const [i, tool] of concise.entries()) {
      expect(tool.description.length).toBeLessThan(full[i].description.length);
      expect(tool.description).toContain(`at most ${DEFAULT_DESIGN.cap}`);
    }
    const tokens = (schemas: typeof full) => schemas.reduce((sum, s) => sum + estimateTokens(JSON.stringify(s)), 0);
    expect(tokens(concise)).toBeLessThan(tokens(full));
  });
});
