// `scout tool NAME 'JSON'`: the built CLI prints exactly what the model would
// get, and its exit status says ok (0), tool error (1) or usage error (2).
import fs from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tools } from "../src/core/scout.js";
import { toolNames } from "../src/core/tool.js";
import { MODULES_CLI, makeTree, runCli } from "./helpers.js";
import { moduleProbe } from "./module-probe.js";

const root = makeTree({
  "a.txt": { content: "hello\nworld\n", mtime: 2_000 },
  "src/main.ts": { content: "export const world = 1;\n", mtime: 1_000 },
  ".env": "SECRET_CLI_Zq81\n",
});
fs.utimesSync(path.join(root, "src"), 500, 500);

describe("scout tool", () => {
  it("runs a tool in the current directory and prints its text, exit 0", async () => {
    const run = await runCli(["tool", "grep", '{"pattern":"world"}'], { cwd: root });
    expect(run).toEqual({ code: 0, stdout: "a.txt:2:world\nsrc/main.ts:1:export const world = 1;\n", stderr: "" });
  });

  it("prints the same text as the model gets for each tool", async () => {
    expect((await runCli(["tool", "read_file", '{"path":"a.txt","offset":2}'], { cwd: root })).stdout).toBe(
      "2\tworld\n(lines 2-2 of 2)\n",
    );
    expect((await runCli(["tool", "list_files"], { cwd: root })).stdout).toBe(
      "a.txt\nsrc/\n(1 entry hidden by ignore rules or protection)\n",
    );
    expect((await runCli(["tool", "glob", '{"pattern":"**/*.ts"}'], { cwd: root })).stdout).toBe("src/main.ts\n");
  });

  it("exits 1 when the tool reports an error, printing the error as the model sees it", async () => {
    const run = await runCli(["tool", "read_file", '{"path":".env"}'], { cwd: root });
    expect(run).toEqual({
      code: 1,
      stdout: 'Error: path ".env" is protected (secrets, keys and .git internals are never read or listed)\n',
      stderr: "",
    });
  });

  it("exits 1 for bad arguments, which the model could also send", async () => {
    const run = await runCli(["tool", "grep", '{"pattern":"x","context":-2}'], { cwd: root });
    expect(run).toMatchObject({ code: 1, stdout: 'Error: argument "context" must be at least 0, got -2\n' });
    expect((await runCli(["tool", "grep", "[1]"], { cwd: root })).code).toBe(1);
  });

  it("exits 2 for an unknown tool, on stderr", async () => {
    const run = await runCli(["tool", "write_file", "{}"], { cwd: root });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: `scout: unknown tool "write_file"; available: ${toolNames(tools)}\nTry: scout --help\n`,
    });
  });

  it("exits 2 for JSON it cannot parse", async () => {
    const run = await runCli(["tool", "grep", "{pattern: x}"], { cwd: root });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^scout: the arguments are not valid JSON \(.+\): \{pattern: x\}\nTry: scout --help\n$/);
  });

  it("exits 2 without a tool name, or with a second argument", async () => {
    expect(await runCli(["tool"], { cwd: root })).toMatchObject({
      code: 2,
      stderr: "scout: scout tool needs a tool name; try: scout tool --list\nTry: scout --help\n",
    });
    expect((await runCli(["tool", "grep", '{"pattern":"a"}', "extra"], { cwd: root })).code).toBe(2);
    expect((await runCli(["tool", "grep", "--bogus"], { cwd: root })).code).toBe(2);
  });

  it("--list prints each tool's name and description", async () => {
    const run = await runCli(["tool", "--list"], { cwd: root });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(tools.map((tool) => `${tool.name}\n  ${tool.description}\n\n`).join(""));
    // Scout's four come first; a tool added to the registry (lesson 14's outline) breaks nothing here.
    expect(tools.map((tool) => tool.name).slice(0, 4)).toEqual(["read_file", "list_files", "glob", "grep"]);
  });

  it("--cwd DIR sets the workspace, before or after the tool's arguments", async () => {
    const elsewhere = path.dirname(root);
    expect(await runCli(["tool", "--cwd", root, "glob", '{"pattern":"*.txt"}'], { cwd: elsewhere })).toEqual({
      code: 0,
      stdout: "a.txt\n",
      stderr: "",
    });
    expect(
      await runCli(["tool", "read_file", '{"path":"src/main.ts"}', "--cwd", path.join(root, "src")], {
        cwd: elsewhere,
      }),
    ).toMatchObject({
      code: 1,
      stdout: "Error: file not found: src/main.ts; did you mean: main.ts?\n",
    });
  });

  it("exits 2 when --cwd is not a directory", async () => {
    const run = await runCli(["tool", "--cwd", path.join(root, "a.txt"), "list_files"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(": not a directory");
  });

  it("never prints the workspace's host path, even for paths outside it", async () => {
    for (const json of ['{"path":"../x"}', `{"path":${JSON.stringify(path.join(path.dirname(root), "x"))}}`]) {
      const run = await runCli(["tool", "read_file", json], { cwd: root });
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(path.dirname(root));
    }
  });
});

describe("start-up: a command loads only the packages it uses", () => {
  // A file Node runs first (--require), which names at exit every package that
  // require() loaded, including CommonJS packages an ES module imported, and
  // every file of dist/ that it loaded (the bin and the bundle are CommonJS).
  // (The module probe, beside it, names the ES module packages.)
  const probe = makeTree({
    "loaded.cjs": `process.on("exit", () => {
  const files = Object.keys(require.cache);
  const names = files.map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file)?.[1]);
  const dist = files.map((file) => /\\/dist\\/([^/]+)$/.exec(file)?.[1]);
  const line = (label, list) => label + ": " + [...new Set(list.filter(Boolean))].sort().join(" ") + "\\n";
  require("node:fs").writeSync(2, line("loaded", names) + line("dist", dist) + "fast-glob ran: " + fastGlobRan + "\\n");
});
// fast-glob's settings ask os.cpus() when its code first runs: how to see it run inside the bundle too.
let fastGlobRan = "no";
const os = require("node:os");
const cpus = os.cpus;
os.cpus = (...args) => ((fastGlobRan = "yes"), cpus(...args));
`,
  });
  // ES module packages (rg's is one) go past require.cache: the module probe's hooks see them load, bundle or not.
  const probed = async (args: string[], label: "loaded" | "dist" | "fast-glob ran", cli?: string) => {
    const modules = moduleProbe();
    const NODE_OPTIONS = `${modules.env.NODE_OPTIONS} --require ${path.join(probe, "loaded.cjs")}`;
    const run = await runCli(args, { cwd: root, env: { ...modules.env, NODE_OPTIONS }, cli });
    expect(run.code).toBe(0);
    const listed = new RegExp(`^${label}: (.*)$`, "m").exec(run.stderr)?.[1].split(" ").filter(Boolean) ?? [];
    if (label !== "loaded") return listed;
    const esModules = modules.loaded().filter((entry) => entry.startsWith("package:"));
    return [...new Set([...listed, ...esModules.map((entry) => entry.slice("package:".length))])].sort();
  };
  const packagesLoaded = (args: string[], cli?: string) => probed(args, "loaded", cli);

  it("scout --version reads the bin alone; every other command runs from the bundle", async () => {
    expect(await probed(["--version"], "dist")).toEqual(["scout.cjs"]);
    expect(await probed(["tool", "read_file", '{"path":"a.txt"}'], "dist")).toEqual(["bundle.cjs", "scout.cjs"]);
  });

  it("scout --version and read_file load no package, grep only @vscode/ripgrep (rg's path), inside the bin's bundle", async () => {
    expect(await packagesLoaded(["--version"])).toEqual([]);
    expect(await packagesLoaded(["tool", "read_file", '{"path":"a.txt"}'])).toEqual([]);
    expect(await packagesLoaded(["tool", "grep", '{"pattern":"world"}'], MODULES_CLI)).toEqual(["@vscode/ripgrep"]);
    // The bin's bundle holds rg's package (an ES module: src/build.cts), so from the bin grep loads none.
    expect(await packagesLoaded(["tool", "grep", '{"pattern":"world"}'])).toEqual([]);
  });

  it("glob runs fast-glob, the pattern engine, when it runs, and from the bin out of the bundle", async () => {
    const glob = ["tool", "glob", '{"pattern":"**/*.ts"}'];
    expect(await packagesLoaded(glob, MODULES_CLI)).toContain("fast-glob");
    // The bin's bundle holds fast-glob (src/build.cts): its code runs there only when a glob does.
    expect(await packagesLoaded(glob)).toEqual([]);
    expect(await probed(glob, "fast-glob ran")).toEqual(["yes"]);
    expect(await probed(["tool", "read_file", '{"path":"a.txt"}'], "fast-glob ran")).toEqual(["no"]);
    expect(await probed(["tool", "grep", '{"pattern":"world"}'], "fast-glob ran")).toEqual(["no"]);
  });

  it("a read_file call loads no loop, model, REPL or token code", async () => {
    const probe = moduleProbe();
    const run = await runCli(["tool", "read_file", '{"path":"a.txt"}'], { cwd: root, env: probe.env, cli: probe.cli });
    expect(run.stdout).toBe("1\thello\n2\tworld\n(lines 1-2 of 2)\n");
    const loaded = probe.loaded();
    expect(loaded[0]).toBe("cli.js");
    expect(loaded).toContain("core/read_file.js");
    expect(
      loaded.filter((file) =>
        /^core\/(loop|session|claude)\.js$|^(trace|steplog)\.js$|^(models|repl|tokens|lab)\//.test(file),
      ),
    ).toEqual([]);
    // The first toLocaleString loads locale data (~20 ms): the tool descriptions' "30,000" is grouped by hand.
    expect(loaded).not.toContain("(toLocaleString)");
  });

  // Node 20 has no compile cache API (the test is skipped there); 22.8+ does.
  const hasCompileCache = "enableCompileCache" in nodeModule;
  it.skipIf(!hasCompileCache)(
    "on Node 22.8+, keeps compiled modules in the OS temp folder's compile cache",
    async () => {
      const tmp = makeTree({});
      const run = await runCli(["tool", "read_file", '{"path":"a.txt"}'], { cwd: root, env: { TMPDIR: tmp } });
      expect(run.code).toBe(0);
      expect(fs.readdirSync(tmp)).toContain("node-compile-cache");
    },
  );
});
