import { describe, expect, it } from "vitest";
import { call, makeTree, runCli } from "./helpers.js";

describe("smoke", () => {
  it("greps a real file through the CLI", async () => {
    const root = makeTree({ "a.txt": "hello\nworld\n" });
    const run = await runCli(["tool", "grep", '{"pattern":"wor"}'], { cwd: root });
    expect(run.stdout).toBe("a.txt:2:world\n");
    expect(run.code).toBe(0);
  });
  it("reads in-process", async () => {
    const root = makeTree({ "a.txt": "hello\nworld\n" });
    const result = await call(root, "read_file", { path: "a.txt" });
    expect(result.content).toBe("1\thello\n2\tworld\n(lines 1-2 of 2)");
  });
});

describe("the scout command", () => {
  it("runs as a program, as npx and npm's bin link run it (executable, with its #! line)", async () => {
    const { stdout: version } = await runCli(["--version"], { launch: "program" });
    expect(version).toMatch(/^scout \d+\.\d+\.\d+\n$/);
  });
});
