// Guardrails: bad arguments come back as errors naming the argument, and an
// adversarial suite tries every way out of the workspace and at protected
// files. Every outside or protected file holds a unique secret; no output
// (content or summary) may contain one, nor the host path of the workspace.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tools } from "../src/core/scout.js";
import { runTool, toolNames } from "../src/core/tool.js";
import type { ToolResult } from "../src/core/tool.js";
import { BUDGET_NOTE, MAX_ERROR_LINE_CHARS, MAX_RESULT_CHARS } from "../src/guards/result-budget.js";
import { formatCount } from "../src/guards/format.js";
import {
  checkToolCalls,
  MAX_INPUT_DEPTH,
  MAX_TOOL_CALLS_PER_MESSAGE,
  UnreadableInput,
} from "../src/guards/tool-calls.js";
import { openChecked, openCheckedFolder } from "../src/guards/opened.js";
import { Workspace } from "../src/core/workspace.js";
import { call, type FileSpec, makeTree, mkdirDeep, runCli, TOO_DEEP } from "./helpers.js";

describe("bad arguments through runTool", () => {
  const root = makeTree({ "a.txt": "a\n" });

  it.each([
    ["read_file", {}, 'missing required argument "path" (file path, relative to the workspace root)'],
    ["read_file", { path: 5 }, 'argument "path" must be a string, got number 5'],
    ["read_file", { path: null }, 'argument "path" must be a string, got null'],
    ["read_file", { path: "a.txt", offset: -1 }, 'argument "offset" must be at least 1, got -1'],
    ["read_file", { path: "a.txt", offset: 0 }, 'argument "offset" must be at least 1, got 0'],
    ["read_file", { path: "a.txt", limit: 0 }, 'argument "limit" must be at least 1, got 0'],
    ["read_file", { path: "a.txt", limit: -5 }, 'argument "limit" must be at least 1, got -5'],
    ["read_file", { path: "a.txt", offset: 1.5 }, 'argument "offset" must be a whole number, got number 1.5'],
    [
      "read_file",
      { path: "a.txt", offset: "three" },
      'argument "offset" must be a whole number, got the string "three"',
    ],
    ["read_file", { path: "a.txt", lines: 3 }, 'unknown argument "lines" for read_file; expected: path, offset, limit'],
    ["list_files", { path: ["a"] }, 'argument "path" must be a string, got an array'],
    ["list_files", { dir: "." }, 'unknown argument "dir" for list_files; expected: path'],
    ["glob", {}, 'missing required argument "pattern" (glob pattern, relative to path (e.g. **/*.ts))'],
    ["glob", { pattern: 1 }, 'argument "pattern" must be a string, got number 1'],
    ["glob", { pattern: "*", path: {} }, 'argument "path" must be a string, got object {}'],
    [
      "grep",
      { path: "." },
      'missing required argument "pattern" (Rust regex to search for, e.g. "fn main" or "TODO|FIXME")',
    ],
    ["grep", { pattern: "a", context: "2.5" }, 'argument "context" must be a whole number, got the string "2.5"'],
    ["grep", { pattern: "a", context: -1 }, 'argument "context" must be at least 0, got -1'],
    ["grep", { pattern: "a", context: true }, 'argument "context" must be a whole number, got boolean true'],
    ["grep", { pattern: "a", include: 3 }, 'argument "include" must be a string, got number 3'],
    [
      "grep",
      { pattern: "a", regex: true },
      'unknown argument "regex" for grep; expected: pattern, path, include, context',
    ],
    ["grep", null, "grep expects a JSON object of arguments"],
    ["grep", ["a"], "grep expects a JSON object of arguments"],
    ["list_files", "src", "list_files expects a JSON object of arguments"],
    ["write_file", { path: "a.txt" }, `unknown tool "write_file"; available tools: ${toolNames(tools)}`],
    // names every object has are no arguments; JSON.parse makes "__proto__" an own key, as the API's JSON does
    ...["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf"].map((key) => [
      "read_file",
      JSON.parse(`{"path":"a.txt","${key}":1}`),
      `unknown argument "${key}" for read_file; expected: path, offset, limit`,
    ]),
    [
      "grep",
      JSON.parse('{"__proto__":{"pattern":"a"}}'),
      'unknown argument "__proto__" for grep; expected: pattern, path, include, context',
    ],
    // numbers: JSON's 1e999 is Infinity, and integers past 2**53 are not exact
    [
      "read_file",
      JSON.parse('{"path":"a.txt","offset":1e999}'),
      'argument "offset" must be a whole number, got a number too large to represent (Infinity)',
    ],
    [
      "read_file",
      JSON.parse('{"path":"a.txt","offset":-1e999}'),
      'argument "offset" must be a whole number, got a number too large to represent (-Infinity)',
    ],
    [
      "read_file",
      { path: "a.txt", offset: 2 ** 60 },
      'argument "offset" must be a whole number, got number 1152921504606847000, too large to count exactly',
    ],
    ["grep", { pattern: "a", context: 1e-7 }, 'argument "context" must be a whole number, got number 1e-7'],
  ] as [string, unknown, string][])("%s %j", async (name, input, message) => {
    expect(await call(root, name, input)).toEqual({ content: `Error: ${message}`, isError: true, summary: "error" });
  });
});

// The layout: <base>/app is the workspace; everything else is outside it.
const SECRETS = {
  outside: "TOKEN_outside_q7Zk2",
  outsideDir: "TOKEN_outside_dir_W3vx",
  evil: "TOKEN_app_evil_P9m1",
  env: "TOKEN_dotenv_Lr4c",
  envUpper: "TOKEN_ENV_upper_Hd8e",
  envLocal: "TOKEN_env_local_Ys2n",
  idRsa: "TOKEN_id_rsa_Bq6t",
  idRsaUpper: "TOKEN_ID_RSA_upper_Kc5w",
  pem: "TOKEN_pem_Xa3j",
  gitConfig: "TOKEN_git_config_Fu7p",
  ssh: "TOKEN_ssh_Nz1g",
  aws: "TOKEN_aws_Vt8r",
  npmrc: "TOKEN_npmrc_Jm4s",
  netrc: "TOKEN_netrc_Ge9d",
  ignoreRules: "TOKEN_ignore_rules_Ow6b",
};
const base = makeTree({
  "app/src/main.ts": "export const answer = 42;\n",
  "app/.env.example": { content: "TOKEN=example\n", mtime: 2_000 },
  "app/.env": `API=${SECRETS.env}\n`,
  "app/.ENV": `API=${SECRETS.envUpper}\n`,
  "app/.Env.local": `API=${SECRETS.envLocal}\n`,
  "app/id_rsa": `${SECRETS.idRsa}\n`,
  "app/ID_RSA": `${SECRETS.idRsaUpper}\n`,
  "app/certs/server.pem": `${SECRETS.pem}\n`,
  "app/.git/config": `[remote] url = ${SECRETS.gitConfig}\n`,
  "app/.ssh/config": `Host ${SECRETS.ssh}\n`,
  "app/.aws/credentials": `aws_secret_access_key = ${SECRETS.aws}\n`,
  "app/.npmrc": `//registry/:_authToken=${SECRETS.npmrc}\n`,
  "app/.netrc": `machine x password ${SECRETS.netrc}\n`,
  "app/nested/readme.txt": { content: "TOKEN=nothing secret\n", mtime: 1_000 },
  "app-evil/secret.txt": `${SECRETS.evil}\n`,
  "outside/secret.txt": `${SECRETS.outside}\n`,
  "outside/dir/inner.txt": `${SECRETS.outsideDir}\n`,
  // Looks like a broken ignore file if rg is ever made to read it.
  "outside/rules": `${SECRETS.ignoreRules}{\n`,
});
const root = path.join(base, "app");
const outsideFile = path.join(base, "outside/secret.txt");
fs.symlinkSync("../outside/secret.txt", path.join(root, "link-out.txt"));
fs.symlinkSync(outsideFile, path.join(root, "link-out-abs.txt"));
fs.symlinkSync("../outside/dir", path.join(root, "link-dir"));
fs.symlinkSync("../../outside", path.join(root, "nested/link-up"));
fs.symlinkSync(".env", path.join(root, "link-env"));
fs.symlinkSync(".git", path.join(root, "link-git"));
fs.symlinkSync("/etc/passwd", path.join(root, "passwd"));
fs.symlinkSync(".", path.join(root, "nested/loop"));

/** No secret and no host path of the workspace, anywhere in what the model or the step log would see. */
function expectNoLeak(result: ToolResult): void {
  for (const text of [result.content, result.summary ?? ""]) {
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).not.toContain(base);
    expect(text).not.toMatch(/root:x?:0:0/); // /etc/passwd
  }
}

type Case = [label: string, tool: string, args: Record<string, unknown>, outcome: "refused" | "answered"];
const abs = (rel: string) => path.join(base, rel);

const ADVERSARIAL: Case[] = [
  // ../ in every path-like argument
  ["read_file ../", "read_file", { path: "../outside/secret.txt" }, "refused"],
  ["read_file ./../", "read_file", { path: "./../outside/secret.txt" }, "refused"],
  ["read_file src/../../", "read_file", { path: "src/./../../outside/secret.txt" }, "refused"],
  ["read_file deep ../", "read_file", { path: "../../../../../../../../etc/passwd" }, "refused"],
  ["list_files ..", "list_files", { path: ".." }, "refused"],
  ["list_files ../outside", "list_files", { path: "../outside" }, "refused"],
  ["glob path ../", "glob", { pattern: "*", path: "../outside" }, "refused"],
  ["glob pattern ../", "glob", { pattern: "../outside/*" }, "refused"],
  ["glob pattern **/../", "glob", { pattern: "**/../../outside/*" }, "refused"],
  ["glob pattern {..,src}", "glob", { pattern: "{..,src}/**" }, "refused"],
  ["glob pattern @(..)", "glob", { pattern: "@(..)/outside/*" }, "refused"],
  ["glob pattern braces making ..", "glob", { pattern: "{.,.}./outside/*" }, "refused"],
  // patterns that would expand or backtrack without bound (lesson 4)
  ["glob brace bomb with spaces", "glob", { pattern: "{ 1..1000}{ 1..1000}{ 1..1000}" }, "refused"],
  ["glob brace bomb with exponents", "glob", { pattern: "{1..1e3}{1..1e3}{1..1e3}" }, "refused"],
  ["glob brace bomb behind a quoted part", "glob", { pattern: '"x"{ 1..1000}{ 1..1000}' }, "refused"],
  ["grep include brace bomb", "grep", { pattern: "TOKEN", include: "{ 1..1000}{ 1..1000}{ 1..1000}" }, "refused"],
  ["glob backtracking wildcards", "glob", { pattern: "*a*a*a*a*a*b" }, "refused"],
  ["glob backtracking wildcards in braces", "glob", { pattern: "{x,**/*a*a*a*b}" }, "refused"],
  ["glob backtracking globstars", "glob", { pattern: "**/a/**/a/**/b" }, "refused"],
  ["glob backtracking extglob", "glob", { pattern: "+(a*)b" }, "refused"],
  ["glob smart case does not reveal .ENV", "glob", { pattern: "**/.env*" }, "answered"],
  ["glob literal name of a protected file", "glob", { pattern: "[c]erts/server.pem" }, "answered"],
  ["grep path ../", "grep", { pattern: "TOKEN", path: "../outside" }, "refused"],
  ["grep path ../file", "grep", { pattern: "TOKEN", path: "../outside/secret.txt" }, "refused"],
  ["grep include ../", "grep", { pattern: "TOKEN", include: "../outside/*" }, "refused"],
  ["grep include {..,x}", "grep", { pattern: "TOKEN", include: "{..,x}/*" }, "refused"],
  ["grep include @(..)", "grep", { pattern: "TOKEN", include: "@(..)/*" }, "refused"],
  ["grep include braces making ..", "grep", { pattern: "TOKEN", include: "{.,.}./outside/*" }, "refused"],
  // absolute paths
  ["read_file absolute outside", "read_file", { path: outsideFile }, "refused"],
  ["read_file /etc/passwd", "read_file", { path: "/etc/passwd" }, "refused"],
  ["list_files absolute base", "list_files", { path: base }, "refused"],
  ["list_files /", "list_files", { path: "/" }, "refused"],
  ["glob absolute pattern", "glob", { pattern: `${base}/outside/*` }, "refused"],
  ["glob absolute path", "glob", { pattern: "*", path: abs("outside") }, "refused"],
  ["grep absolute path", "grep", { pattern: "TOKEN", path: abs("outside") }, "refused"],
  ["grep absolute include", "grep", { pattern: "TOKEN", include: `${base}/**` }, "refused"],
  ["read_file absolute inside", "read_file", { path: path.join(root, "src/main.ts") }, "answered"],
  ["list_files absolute inside", "list_files", { path: path.join(root, "src") }, "answered"],
  ["grep absolute inside", "grep", { pattern: "answer", path: path.join(root, "src") }, "answered"],
  // a sibling named like the root with a suffix
  ["read_file ../app-evil", "read_file", { path: "../app-evil/secret.txt" }, "refused"],
  ["read_file absolute app-evil", "read_file", { path: abs("app-evil/secret.txt") }, "refused"],
  ["list_files ../app-evil", "list_files", { path: "../app-evil" }, "refused"],
  ["glob absolute app-evil", "glob", { pattern: "*", path: abs("app-evil") }, "refused"],
  ["grep ../app-evil", "grep", { pattern: "TOKEN", path: "../app-evil" }, "refused"],
  ["grep absolute app-evil", "grep", { pattern: "TOKEN", path: abs("app-evil") }, "refused"],
  // symlinks pointing outside
  ["read_file symlinked file", "read_file", { path: "link-out.txt" }, "refused"],
  ["read_file symlinked file, absolute target", "read_file", { path: "link-out-abs.txt" }, "refused"],
  ["read_file symlink to /etc/passwd", "read_file", { path: "passwd" }, "refused"],
  ["read_file through a symlinked dir", "read_file", { path: "link-dir/inner.txt" }, "refused"],
  ["read_file through a nested symlinked dir", "read_file", { path: "nested/link-up/secret.txt" }, "refused"],
  ["list_files symlinked dir", "list_files", { path: "link-dir" }, "refused"],
  ["list_files nested symlinked dir", "list_files", { path: "nested/link-up" }, "refused"],
  ["glob path symlinked dir", "glob", { pattern: "**/*", path: "link-dir" }, "refused"],
  ["glob into a symlinked dir", "glob", { pattern: "link-dir/*" }, "refused"],
  ["glob a file through a symlinked dir", "glob", { pattern: "link-dir/inner.txt" }, "refused"],
  ["glob deep through a nested symlinked dir", "glob", { pattern: "nested/link-up/**" }, "refused"],
  ["glob through a symlinked dir in braces", "glob", { pattern: "{src,link-dir}/*" }, "refused"],
  ["glob into a symlink to .git", "glob", { pattern: "link-git/*" }, "refused"],
  ["glob a symlinked file", "glob", { pattern: "link-out.txt" }, "answered"],
  ["glob everything, loops and links included", "glob", { pattern: "**/*" }, "answered"],
  ["grep symlinked file", "grep", { pattern: "TOKEN", path: "link-out.txt" }, "refused"],
  ["grep symlinked dir", "grep", { pattern: "TOKEN", path: "link-dir" }, "refused"],
  ["grep everything, links not followed", "grep", { pattern: "TOKEN" }, "answered"],
  ["grep include through a symlinked dir", "grep", { pattern: "TOKEN", include: "link-dir/**" }, "answered"],
  // protected files, named directly, in other cases, and through symlinks
  ["read_file .env", "read_file", { path: ".env" }, "refused"],
  ["read_file .ENV", "read_file", { path: ".ENV" }, "refused"],
  ["read_file .Env.local", "read_file", { path: ".Env.local" }, "refused"],
  ["read_file id_rsa", "read_file", { path: "id_rsa" }, "refused"],
  ["read_file ID_RSA", "read_file", { path: "ID_RSA" }, "refused"],
  ["read_file a .pem", "read_file", { path: "certs/server.pem" }, "refused"],
  ["read_file .git/config", "read_file", { path: ".git/config" }, "refused"],
  ["read_file .ssh/config", "read_file", { path: ".ssh/config" }, "refused"],
  ["read_file .aws/credentials", "read_file", { path: ".aws/credentials" }, "refused"],
  ["read_file .npmrc", "read_file", { path: ".npmrc" }, "refused"],
  ["read_file .netrc", "read_file", { path: ".netrc" }, "refused"],
  ["read_file symlink to .env", "read_file", { path: "link-env" }, "refused"],
  ["read_file through a symlink to .git", "read_file", { path: "link-git/config" }, "refused"],
  ["read_file .env via absolute path", "read_file", { path: path.join(root, ".env") }, "refused"],
  ["read_file .env via a detour", "read_file", { path: "src/../.env" }, "refused"],
  ["list_files .git", "list_files", { path: ".git" }, "refused"],
  ["list_files .ssh/", "list_files", { path: ".ssh/" }, "refused"],
  ["list_files symlink to .git", "list_files", { path: "link-git" }, "refused"],
  ["glob .env*", "glob", { pattern: "**/.{env,ENV,Env}*" }, "answered"],
  ["glob keys", "glob", { pattern: "**/{id_rsa,ID_RSA,*.pem}" }, "answered"],
  ["glob path .git", "glob", { pattern: "*", path: ".git" }, "refused"],
  ["glob pattern .git/*", "glob", { pattern: ".git/*" }, "refused"],
  ["glob pattern **/.git/**", "glob", { pattern: "**/.git/**" }, "answered"],
  ["grep .env", "grep", { pattern: "TOKEN", path: ".env" }, "refused"],
  ["grep symlink to .env", "grep", { pattern: "TOKEN", path: "link-env" }, "refused"],
  ["grep .git", "grep", { pattern: "TOKEN", path: ".git" }, "refused"],
  ["grep include .env", "grep", { pattern: "TOKEN", include: ".env" }, "answered"],
  ["grep include .Env.*", "grep", { pattern: "TOKEN", include: ".Env.*" }, "answered"],
  ["grep include id_rsa", "grep", { pattern: "TOKEN", include: "{id_rsa,ID_RSA}" }, "answered"],
  ["grep include .git", "grep", { pattern: "TOKEN", include: ".git/**" }, "answered"],
  ["grep include *.pem", "grep", { pattern: "TOKEN", include: "**/*.pem" }, "answered"],
  // patterns and paths that look like options
  ["grep pattern -L (follow symlinks)", "grep", { pattern: "-L" }, "answered"],
  ["grep pattern --follow", "grep", { pattern: "--follow" }, "answered"],
  ["grep pattern --pre=cat", "grep", { pattern: "--pre=cat" }, "answered"],
  ["grep pattern --files", "grep", { pattern: "--files" }, "answered"],
  ["grep pattern -e", "grep", { pattern: "-e" }, "answered"],
  ["grep pattern --no-ignore", "grep", { pattern: "--no-ignore" }, "answered"],
  ["grep include starting with -", "grep", { pattern: "TOKEN", include: "--no-ignore" }, "answered"],
  ["grep path --files", "grep", { pattern: "TOKEN", path: "--files" }, "refused"],
  ["grep path -e", "grep", { pattern: "TOKEN", path: "-e" }, "refused"],
  ["read_file path --files", "read_file", { path: "--files" }, "refused"],
  ["glob pattern -e", "glob", { pattern: "-e" }, "answered"],
  // NUL bytes, ~, Windows paths
  ["read_file NUL", "read_file", { path: "src/main.ts\0../../outside/secret.txt" }, "refused"],
  ["grep path NUL", "grep", { pattern: "TOKEN", path: ".\0" }, "refused"],
  ["grep include NUL", "grep", { pattern: "TOKEN", include: "*\0" }, "refused"],
  ["read_file ~", "read_file", { path: "~/.ssh/id_rsa" }, "refused"],
  ["list_files ~", "list_files", { path: "~" }, "refused"],
  ["glob pattern ~", "glob", { pattern: "~/*" }, "refused"],
  ["grep include ~", "grep", { pattern: "TOKEN", include: "~/**" }, "refused"],
  ["read_file C:\\", "read_file", { path: "C:\\Windows\\win.ini" }, "refused"],
  ["list_files C:/", "list_files", { path: "C:/Users" }, "refused"],
  ["read_file UNC", "read_file", { path: "\\\\server\\share\\secret.txt" }, "refused"],
  ["glob pattern C:/", "glob", { pattern: "C:/**" }, "refused"],
];

describe("adversarial: nothing outside the workspace or protected gets out", () => {
  it(`has at least 40 cases (${ADVERSARIAL.length})`, () => {
    expect(ADVERSARIAL.length).toBeGreaterThanOrEqual(40);
  });

  it.each(ADVERSARIAL)("%s", async (_, tool, args, outcome) => {
    const result = await call(root, tool, args);
    expectNoLeak(result);
    expect(result.isError, result.content).toBe(outcome === "refused");
  });

  it("says the sibling directory is outside, without echoing an absolute path", async () => {
    expect((await call(root, "read_file", { path: "../app-evil/secret.txt" })).content).toBe(
      'Error: path "../app-evil/secret.txt" is outside the workspace; paths must stay inside the directory Scout was started in',
    );
    expect((await call(root, "read_file", { path: abs("app-evil/secret.txt") })).content).toBe(
      "Error: path (an absolute path) is outside the workspace; paths must stay inside the directory Scout was started in",
    );
  });

  it("checks the fixed folders of a glob pattern like a path, since fast-glob follows a symlink there", async () => {
    expect((await call(root, "glob", { pattern: "link-dir/*" })).content).toBe(
      'Error: the folder in pattern "link-dir" is outside the workspace; paths must stay inside the directory Scout was started in',
    );
    expect((await call(root, "glob", { pattern: "*", path: "nested" })).content).toBe("nested/readme.txt");
    expect((await call(root, "glob", { pattern: "link-up/*", path: "nested" })).content).toBe(
      'Error: the folder in pattern "nested/link-up" is outside the workspace; paths must stay inside the directory Scout was started in',
    );
  });

  it("accepts an absolute path through a symlink to the root, since it resolves inside", async () => {
    const linked = path.join(base, "app-link");
    fs.symlinkSync("app", linked);
    const workspace = new Workspace(linked); // as with --cwd through a link, or macOS /tmp
    const read = (file: string) => runTool("read_file", { path: file }, { workspace }, tools);
    expect((await read(path.join(linked, "src/main.ts"))).content).toBe(
      "1\texport const answer = 42;\n(lines 1-1 of 1)",
    );
    expect((await read(path.join(root, "src/main.ts"))).content).toBe("1\texport const answer = 42;\n(lines 1-1 of 1)");
    const env = await read(path.join(linked, ".env"));
    expect(env.content).toBe(
      'Error: path ".env" is protected (secrets, keys and .git internals are never read or listed)',
    );
    const evil = await read(path.join(linked, "../app-evil/secret.txt"));
    expect(evil.isError).toBe(true);
    expectNoLeak(evil);
  });

  it("names the protected path as given, even when reached through a symlink", async () => {
    expect((await call(root, "read_file", { path: "link-env" })).content).toBe(
      'Error: path "link-env" is protected (secrets, keys and .git internals are never read or listed)',
    );
  });

  it("finds the visible files, and only those, when searching everything", async () => {
    const { content } = await call(root, "grep", { pattern: "TOKEN" });
    expect(content).toBe(".env.example:1:TOKEN=example\nnested/readme.txt:1:TOKEN=nothing secret");
    const files = (await call(root, "glob", { pattern: "**/*" })).content.split("\n").sort();
    expect(files).toEqual([".env.example", "nested/readme.txt", "src/main.ts"]);
  });

  it("a newline or CR in a file name cannot pass a hidden file's lines off as another file's", async () => {
    // rg prints "path NUL line"; split at newlines instead, "secrets/notes\nREADME.md" would yield a line of "README.md".
    const dir = makeTree({
      ".ignore": "secrets/\n--*\n",
      ".gitignore": "build/\n",
      "README.md": "docs\n",
      "secrets/notes\nREADME.md": "API_TOKEN=hunter2\n",
      "secrets/notes\rREADME.md": "API_TOKEN=hunter2\n",
      ".env.d/prod\nconfig.txt": "DB_PASSWORD=hunter2\n",
      "build/out\nlog.txt": "BUILD_KEY=hunter2\n",
      "--\nREADME.md": "OLD_KEY=hunter2\n", // a "--" line was rg's separator between groups
    });
    for (const input of [
      { pattern: "hunter2" },
      { pattern: "hunter2", include: "*" },
      { pattern: "hunter2", context: 1 },
    ]) {
      expect((await call(dir, "grep", input)).content).toMatch(/^No matches for \/hunter2\//);
    }
  });

  it("rg's note on a binary file (a line with no NUL) cannot join the next file's path and pass its lines off", async () => {
    // a.bin has a hit, then a NUL past rg's first 64 KiB: rg prints the hit, then "a.bin: WARNING: stopped searching …".
    // Eleven files of 101 hits force the newest-first pass, so private/notes.txt (hidden by .ignore) comes right after a.bin.
    const files: Record<string, FileSpec> = {
      ".ignore": "/private/\n",
      "a.bin": {
        content: Buffer.concat([Buffer.from(`TOKEN\n${"x".repeat(70_000)}\n`), Buffer.from([0])]),
        mtime: 3_000,
      },
      "private/notes.txt": { content: "TOKEN=hunter2\n", mtime: 2_000 },
    };
    for (let i = 0; i < 11; i++) files[`f${i}.txt`] = { content: "TOKEN\n".repeat(101), mtime: 1_000 + i };
    const dir = makeTree(files);
    const { content } = await call(dir, "grep", { pattern: "TOKEN" });
    expect(content.split("\n")[0]).toBe("a.bin:1:TOKEN");
    expect(content).not.toContain("hunter2");
    expect(
      content.split("\n").filter((line) => !/^(a\.bin|f\d+\.txt):\d+:TOKEN$|^\(showing the first/.test(line)),
    ).toEqual([]);
  });

  it("never quotes a symlinked .gitignore, even when rg reports other errors", async () => {
    // rg reads a symlinked .gitignore (Scout does not) and complains about lines it cannot
    // parse. A path longer than PATH_MAX makes rg fail on a file too, so it exits with 2.
    const dir = makeTree({ "app/a/m.txt": "MARK\n" });
    const app = path.join(dir, "app");
    fs.symlinkSync(path.join(base, "outside/rules"), path.join(app, "a/.gitignore"));
    mkdirDeep(app, TOO_DEEP);
    for (const pattern of ["MARK", "NOPE"]) {
      const result = await runTool("grep", { pattern }, { workspace: new Workspace(app) }, tools);
      expectNoLeak(result);
      expect(result.content).not.toContain(dir);
    }
  });
});

describe("the protected list: credential stores a user expects hidden, in any case and at any depth", () => {
  const PROTECTED = [
    ".env~",
    ".envrc",
    ".env-prod",
    ".env_prod",
    "prod.env",
    "config/.Env.Production",
    ".env.d/db.txt",
    "id_dsa",
    "deploy/id_ed25519_sk",
    "certs/client.p12",
    "certs/CLIENT.PFX",
    "android/release.jks",
    "android/app.keystore",
    "putty.ppk",
    "vault.kdbx",
    ".pypirc",
    ".git-credentials",
    ".pgpass",
    "_netrc",
    ".my.cnf",
    ".docker/config.json",
    ".dockercfg",
    ".kube/config",
    ".gnupg/pubring.kbx",
    ".config/gh/hosts.yml",
    ".config/gcloud/credentials.db",
    ".azure/msal_token_cache.json",
    ".cargo/credentials.toml",
    "credentials.json",
    "ops/client_secret_123.apps.googleusercontent.com.json",
    "service-account.json",
    "terraform/prod.tfstate",
    "terraform/prod.tfstate.backup",
    ".vault-token",
    ".htpasswd",
    ".bash_history",
    ".zsh_history",
    ".yarnrc.yml",
    "gha-creds-0a1b2c3d.json",
    "deep/er/GHA-CREDS-ABC.JSON",
    ".password-store/email.gpg",
  ];
  const VISIBLE = [
    ".env.example",
    ".env.sample",
    ".env.template",
    ".env.dist",
    ".env.local.example",
    "example.env",
    ".environment.md",
    ".docker/Dockerfile",
    "config.json",
    "src/credentials.ts",
    "gh/hosts.yml",
    "docs/keys.md",
  ];
  const files = Object.fromEntries([...PROTECTED, ...VISIBLE].map((file) => [file, `SECRET_MARK ${file}\n`]));
  const dir = makeTree(files);

  it.each(PROTECTED)("%s is refused by read_file and grep, and never listed", async (file) => {
    for (const [tool, args] of [
      ["read_file", { path: file }],
      ["grep", { pattern: "SECRET_MARK", path: file }],
    ] as const) {
      const result = await call(dir, tool, args);
      expect(result.isError, result.content).toBe(true);
      expect(result.content).toMatch(/is protected/);
    }
    const parent = path.posix.dirname(file);
    const listed = (await call(dir, "list_files", { path: parent })).content;
    expect(listed.split("\n")).not.toContain(path.posix.basename(file));
  });

  it("glob and grep see exactly the visible files, the .env.example family included", async () => {
    const globbed = (await call(dir, "glob", { pattern: "**/*" })).content.split("\n").sort();
    expect(globbed).toEqual([...VISIBLE].sort());
    const grepped = (await call(dir, "grep", { pattern: "SECRET_MARK" })).content
      .split("\n")
      .map((l) => l.split(":")[0]);
    expect(grepped.sort()).toEqual([...VISIBLE].sort());
  });

  it("inside a root named .docker, its config.json is protected too", async () => {
    const home = makeTree({ ".docker/config.json": '{"auths":{}}\n', ".docker/buildx/x.json": "{}\n" });
    const result = await call(path.join(home, ".docker"), "read_file", { path: "config.json" });
    expect(result.content).toMatch(/is protected/);
  });
});

describe("absurd paths are refused before anything grows with their length (an 80 KB path took 40 s)", () => {
  const root = makeTree({ "a.txt": "a\n" });
  it.each([
    ["read_file", { path: "a/".repeat(40_000) }, "path is 80000 characters long, over the 4096 limit"],
    ["grep", { pattern: "a", path: "x".repeat(4097) }, "path is 4097 characters long, over the 4096 limit"],
    ["list_files", { path: "a/".repeat(300) }, 'path has more than 256 "/"-separated segments; give a shorter path'],
    [
      "glob",
      { pattern: "*", path: "./".repeat(257) },
      'path has more than 256 "/"-separated segments; give a shorter path',
    ],
  ] as [string, { path: string }, string][])("%s, a path of %#", async (name, input, message) => {
    expect(await call(root, name, input)).toEqual({ content: `Error: ${message}`, isError: true, summary: "error" });
  });
});

describe('Windows-style paths: "/" is the separator, and the "/" path is read when it exists, with a note', () => {
  const dir = makeTree({
    "lib/util.js": "export const x = 1;\n",
    "sub/a.md": { content: "# A\n", mtime: 2_000 },
    "sub/b.md": { content: "# B\n", mtime: 1_000 },
    "odd\\name.txt": "a real name with a backslash\n", // legal on Linux
  });
  const meant = (given: string, taken: string) => `(path "${given}" was taken as "${taken}": Scout's separator is "/")`;

  it.each([
    [
      "read_file",
      { path: "lib\\util.js" },
      `1\texport const x = 1;\n(lines 1-1 of 1)\n${meant("lib\\util.js", "lib/util.js")}`,
    ],
    [
      "read_file",
      { path: ".\\lib\\\\util.js" },
      // a backslash before another is doubled, so "\\" cannot pass for an escape: three are shown
      `1\texport const x = 1;\n(lines 1-1 of 1)\n${meant(".\\lib\\\\\\util.js", "./lib/util.js")}`,
    ],
    [
      "read_file",
      { path: "lib\\nope.js" },
      // "\n" as written, told apart from a newline (shown "\n")
      'Error: path "lib\\\\nope.js" uses "\\" as a separator; Scout\'s separator is "/"',
    ],
    ["list_files", { path: "sub\\" }, `a.md\nb.md\n${meant("sub\\", "sub/")}`],
    [
      "grep",
      { pattern: "x", path: "lib\\util.js" },
      `lib/util.js:1:export const x = 1;\n${meant("lib\\util.js", "lib/util.js")}`,
    ],
    ["read_file", { path: "odd\\name.txt" }, "1\ta real name with a backslash\n(lines 1-1 of 1)"],
    [
      "glob",
      { pattern: "sub\\*.md" },
      'No files match "sub\\*.md". In patterns "/" is the separator and "\\" escapes the next character ("sub\\*.md" is the one name "sub*.md"). Did you mean "sub/*.md"? It matches 2 file(s).',
    ],
    [
      "grep",
      { pattern: "#", include: "sub\\*.md" },
      'No matches for /#/ in the workspace (files matching sub\\*.md). In patterns "/" is the separator and "\\" escapes the next character ("sub\\*.md" is the one name "sub*.md").',
    ],
  ] as [string, unknown, string][])("%s %j", async (tool, args, expected) => {
    expect((await call(dir, tool, args)).content).toBe(expected);
  });
});

describe("--max-steps takes decimal digits only", () => {
  it.each(["1e3", "0x10", " 7", "0", "1.0", "+3", "Infinity", "9999999", ""])("--max-steps %j", async (value) => {
    const run = await runCli(["--offline", "--max-steps", value, "-p", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `scout: --max-steps must be a whole number from 1 to 999999 in decimal digits (like 20), got ${JSON.stringify(value)}`,
    );
  });
});

describe("a model message's tool calls are checked before any runs (malformed, too deep, too many)", () => {
  /** `levels - 1` nested objects, so that { p: deep(n) } is n objects deep. */
  const deep = (levels: number) => {
    let value: unknown = "x";
    for (let i = 1; i < levels; i++) value = { a: value };
    return value;
  };
  const lazy = { type: "tool_use", id: "t1", name: "grep" } as Record<string, unknown>;
  Object.defineProperty(lazy, "input", {
    enumerable: true,
    get: () => JSON.parse('{"pattern": '), // as the SDK's lazy input throws
  });
  it.each([
    ["no input", { type: "tool_use", id: "t1", name: "grep" }, "the tool call has no input"],
    ["null", { type: "tool_use", id: "t1", name: "grep", input: null }, "got null"],
    ["a number", { type: "tool_use", id: "t1", name: "grep", input: 7 }, "got number"],
    ["an array", { type: "tool_use", id: "t1", name: "grep", input: [{ pattern: "a" }] }, "got an array"],
    ["input that throws when read", lazy, "is not valid JSON"],
    ["kept as unreadable", { type: "tool_use", id: "t1", name: "grep", input: new UnreadableInput("why") }, "why"],
    [
      `${MAX_INPUT_DEPTH + 1} levels`,
      { type: "tool_use", id: "t1", name: "grep", input: { p: deep(MAX_INPUT_DEPTH + 1) } },
      "nested more than",
    ],
    ["100,000 levels", { type: "tool_use", id: "t1", name: "grep", input: deep(100_000) }, "nested more than"],
  ])("%s: refused with a reason, sent back as {}", (_, block, reason) => {
    const { content, calls } = checkToolCalls([{ type: "text", text: "hi" }, block as { type: string }]);
    expect(calls).toHaveLength(1);
    expect(calls[0].refused?.isError).toBe(true);
    expect(calls[0].refused?.content).toContain(reason);
    expect(content[1]).toEqual({ type: "tool_use", id: "t1", name: "grep", input: {} });
    expect(() => JSON.stringify(content)).not.toThrow();
  });
  it(`${MAX_INPUT_DEPTH} levels and ${MAX_TOOL_CALLS_PER_MESSAGE} calls run; the next call does not`, () => {
    const block = (i: number) => ({
      type: "tool_use",
      id: `t${i}`,
      name: "grep",
      input: { p: deep(MAX_INPUT_DEPTH) },
    });
    const { calls } = checkToolCalls(Array.from({ length: MAX_TOOL_CALLS_PER_MESSAGE + 1 }, (_, i) => block(i)));
    expect(calls.filter((call) => !call.refused)).toHaveLength(MAX_TOOL_CALLS_PER_MESSAGE);
    expect(calls.at(-1)?.refused?.content).toContain(`this was call ${MAX_TOOL_CALLS_PER_MESSAGE + 1}`);
  });
});

describe("a root inside a protected folder", () => {
  const home = makeTree({ ".aws/credentials": "aws_secret_access_key = TOKEN_root_aws\n", "repo/.git/config": "x\n" });

  it.each([".aws", "repo/.git", "."])("--cwd %s", async (rel) => {
    const run = await runCli(["tool", "--cwd", path.join(home, rel), "read_file", '{"path":"credentials"}']);
    if (rel === ".") {
      expect(run.code).toBe(1); // the home itself is fine; the file is simply not there
      return;
    }
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`is inside a protected folder (${path.basename(rel)})`);
    expect(run.stderr).not.toContain("TOKEN_root_aws");
  });
});

describe("check-then-open: what is read is what was checked", () => {
  it("read_file never reads past the size it checked, however fast the file grows", async () => {
    // 19 MiB of "y" lines, all counted (under MAX_COUNTED_BYTES); once the call has started, 1 MiB more is appended every
    // millisecond, up to 100 MiB, while Scout reads (the old code read to wherever the end was by then).
    const dir = makeTree({ "grow.txt": "y\n".repeat(19 * 512 * 1024) });
    const file = path.join(dir, "grow.txt");
    const pending = call(dir, "read_file", { path: "grow.txt", offset: 1, limit: 1 });
    const mib = Buffer.from("y\n".repeat(512 * 1024));
    let appended = 0;
    const writer = setInterval(() => {
      if (appended++ < 100) fs.appendFileSync(file, mib);
    }, 1);
    try {
      expect((await pending).content).toBe(
        `1\ty\n(lines 1-1 of ${19 * 512 * 1024}; call read_file with offset=2 to continue)`,
      );
    } finally {
      clearInterval(writer);
    }
  });
});

describe("every glob match is checked where it really is, whatever the pattern looked like", () => {
  const dir = makeTree({
    "app/README.md": "hi\n",
    "outside/etc/passwd": "root:x:0:0\n",
    "outside/etc/shadow": "root:!:1\n",
    "outside/secret.txt": "TOKEN_magic_link\n",
  });
  const app = path.join(dir, "app");
  const outside = path.join(dir, "outside");
  for (const name of ["{{cookiecutter.root}}", "a(b", "x[1]", "@(y)", "+(z", "w{x}"])
    fs.symlinkSync(outside, path.join(app, name));

  it.each([
    "{{cookiecutter.root}}/etc/{passwd,shadow}",
    "{{cookiecutter.root}}/etc/passwd",
    "{{cookiecutter.root}}/**",
    "a(b/secret.txt",
    "a(b/*",
    "x[1]/secret.txt",
    "@(y)/secret.txt",
    "+(z/secret.txt",
    "w{x}/secret.txt",
    "w\\{x\\}/secret.txt",
    "\\@\\(y\\)/secret.txt", // escaped extglobs naming the link
    "\\@(y)/*",
    "x\\[1\\]/*",
    "**/secret.txt",
    "**/etc/*",
  ])("glob %j finds nothing outside", async (pattern) => {
    const { content } = await call(app, "glob", { pattern });
    expect(content).toMatch(/^(No files match|Error: )/); // the only line: nothing listed
    expect(content.split("\n")).toHaveLength(1);
    expect(content).not.toContain(dir);
  });
});

describe("what was opened is what was checked (a folder swapped for a symlink after the check)", () => {
  const dir = makeTree({ "app/sub/f.txt": "inside\n", "outside/sub/f.txt": "TOKEN_swapped\n" });
  const app = fs.realpathSync(path.join(dir, "app"));
  const swap = () => {
    fs.renameSync(path.join(app, "sub"), path.join(app, "sub-real"));
    fs.symlinkSync(path.join(dir, "outside/sub"), path.join(app, "sub"));
  };
  const unswap = () => {
    fs.unlinkSync(path.join(app, "sub"));
    fs.renameSync(path.join(app, "sub-real"), path.join(app, "sub"));
  };

  it("openChecked refuses a file whose folder became a symlink, and a file that became one", () => {
    const checked = path.join(app, "sub/f.txt"); // what resolveInWorkspace returned before the swap
    swap();
    try {
      expect(openChecked(checked)).toBe("moved");
      expect(openCheckedFolder(path.join(app, "sub"))).toBe("moved");
      expect(new Workspace(app).isReachedDirectly("sub/f.txt")).toBe(false);
    } finally {
      unswap();
    }
    const opened = openChecked(checked);
    expect(typeof opened).toBe("object");
    if (typeof opened === "object") fs.closeSync(opened.fd);
    expect(new Workspace(app).isReachedDirectly("sub/f.txt")).toBe(true);
  });
});

describe("rg's output cannot be forged by a file name (--json)", () => {
  // Each hidden file holds hunter2 under a name that once forged rg's framing.
  const NOTE = 'p: binary file matches (found "\\0" byte around offset 1)';
  const WARNING = 'p: WARNING: stopped searching binary file after match (found "\\0" byte around offset 1)';

  it.each([
    [".env.d/", NOTE],
    ["private/", NOTE],
    ["private/", WARNING],
    ["private/", `${NOTE}\n.`], // a folder whose name ends in a newline and "."
  ])("a file named like rg's note in %s cannot pass its lines off as README.md's (%j)", async (folder, name) => {
    const dir = makeTree({
      ".ignore": "private/\n",
      "README.md": "docs\n",
      [`${folder}${name}\nREADME.md`]: "SECRET=hunter2\n",
      [`${folder}p`]: Buffer.from("hunter2\0\0"), // a real binary file for the note to be about
    });
    for (const input of [{ pattern: "hunter2" }, { pattern: "hunter2", context: 2 }, { pattern: "hunter2|docs" }]) {
      const { content } = await call(dir, "grep", input);
      expect(content).not.toContain("SECRET");
      expect(content).toMatch(/^No matches|^README\.md:1:docs$/);
    }
  });
});

describe("rg's error lines follow the visibility rule", () => {
  it("never name a protected or hidden path, nor a file Scout can read itself", async () => {
    // A path past PATH_MAX is unreadable even to root; rg complains about it on stderr.
    const dir = makeTree({ ".ignore": "private/\n", "README.md": "docs\n", "a.txt": "MARK\n" });
    const hiddenFolders = [
      `.env.d/prod-db-password-is-hunter2/${TOO_DEEP}`,
      `private/hunter2/${TOO_DEEP}`,
      `node_modules/hunter2/${TOO_DEEP}`,
      `visible/${TOO_DEEP}/x\nrg: ./README.md`, // a forged line naming a readable file
    ];
    for (const folder of hiddenFolders) mkdirDeep(dir, folder);
    for (const pattern of ["MARK", "NOPE"]) {
      const result = await call(dir, "grep", { pattern });
      expect(result.isError).toBe(false);
      expect(result.content).not.toMatch(/hunter2|README/);
      expect(result.content.split("\n").at(-1)).toMatch(
        /^\(rg could not read 1 file or folder: visible\/d{200}\/.*: Filename too long\)$/,
      );
    }
  });
});

describe("one entry is one line: control characters in paths are escaped, in all four tools", () => {
  const dir = makeTree({
    "docs/a\nfake.txt:1:API_KEY=spoofed": { content: "needle\n", mtime: 3_000 },
    "docs/b\r(showing the 100 newest of 9 files)": { content: "needle\n", mtime: 2_000 },
    "docs/c\u001b]52;c;Y2xpcA==\u0007\u2028d": { content: "needle\n", mtime: 1_000 },
    "other/e\tf.txt": "x\n",
  });
  const names = [
    "docs/a\\nfake.txt:1:API_KEY=spoofed",
    "docs/b\\r(showing the 100 newest of 9 files)",
    "docs/c\\x1b]52;c;Y2xpcA==\\x07\\u2028d",
  ];

  it("grep", async () => {
    expect((await call(dir, "grep", { pattern: "needle" })).content).toBe(names.map((n) => `${n}:1:needle`).join("\n"));
  });

  it("glob", async () => {
    expect((await call(dir, "glob", { pattern: "docs/*" })).content).toBe(names.join("\n"));
  });

  it("list_files", async () => {
    expect((await call(dir, "list_files", { path: "docs" })).content).toBe(
      names.map((n) => n.slice("docs/".length)).join("\n"),
    );
  });

  it("the note naming an ignore file that was not read", async () => {
    const tree = makeTree({ "x\ny/a.txt": "needle\n", "rules.txt": "a.txt\n" });
    fs.symlinkSync("../rules.txt", path.join(tree, "x\ny/.gitignore")); // a symlinked .gitignore is never read
    const { content } = await call(tree, "grep", { pattern: "needle" });
    expect(content.split("\n")).toEqual([
      "x\\ny/a.txt:1:needle",
      "(ignore files not read, so their rules do not apply: x\\ny/.gitignore (it is a symlink))",
    ]);
  });

  it("read_file, in its suggestions and in messages naming the path", async () => {
    expect((await call(dir, "read_file", { path: "e\tf.txt" })).content).toBe(
      "Error: file not found: e\\tf.txt; did you mean: other/e\\tf.txt?",
    );
    expect((await call(dir, "read_file", { path: "docs" })).content.split("\n")).toHaveLength(1);
  });

  it("every workspace error that echoes a path argument: outside, protected, ~, a drive, a backslash", async () => {
    const forged = "\nsrc/fake.py:1:API_KEY=spoofed\u001b[2J";
    const inputs = [
      `../x${forged}`, // outside the workspace
      `.ssh/x${forged}`, // protected (inside .ssh)
      `~/x${forged}`, // "~" is not expanded
      `C:\\x${forged}`, // a Windows drive
      `other\\e${forged}`, // "\" as a separator
    ];
    for (const tool of ["read_file", "list_files", "grep"]) {
      for (const input of inputs) {
        const args = tool === "grep" ? { pattern: "x", path: input } : { path: input };
        const { content, isError } = await call(dir, tool, args);
        expect(isError, `${tool} ${JSON.stringify(input)}`).toBe(true);
        expect(content.split("\n"), `${tool} ${JSON.stringify(content)}`).toHaveLength(1);
        expect(content, `${tool} ${JSON.stringify(content)}`).not.toMatch(/[\u0000-\u001f]/);
      }
    }
  });
});

describe("the character budget", () => {
  it(`cuts any result at ${MAX_RESULT_CHARS} characters, at a line, and says so`, async () => {
    // 100 files with 1,000-character paths: 100 KB from "100 lines".
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`${`${"d".repeat(240)}/`.repeat(4)}f${String(i).padStart(3, "0")}.txt`] = "x\n";
    const dir = makeTree(files);
    for (const [name, input] of [
      ["glob", { pattern: "**/*.txt" }],
      ["grep", { pattern: "x" }],
    ] as const) {
      const { content } = await call(dir, name, input);
      expect(content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
      expect(content.split("\n").at(-1)).toMatch(
        /^\(result cut at the 30,000-character budget after \d+ of 10[01] lines; ask for less/,
      );
    }
  });

  it("clips an input an error quotes, keeping the words after it", async () => {
    // 4,000 characters: under the 4,096 a path may have (longer ones are refused without being quoted).
    const long = "~".repeat(4_000);
    const { content, isError } = await call(root, "read_file", { path: long });
    expect(isError).toBe(true);
    expect(content.length).toBeLessThan(MAX_ERROR_LINE_CHARS + 50);
    expect(content).toMatch(/^Error: path "~+ … \[3,\d{3} characters cut\] … ~+": "~" is not expanded; give a path/);
  });

  it("is stated in every tool's description", () => {
    for (const tool of tools) expect(tool.description).toContain(BUDGET_NOTE);
    // The sentence states the real cap, grouped as every figure a person reads (its wording is free).
    expect(BUDGET_NOTE).toContain(`${formatCount(MAX_RESULT_CHARS)} characters`);
  });

  it('groups digits as toLocaleString("en-US") does, without loading locale data', () => {
    for (const whole of [0, 7, 999, 1000, 30_000, 123_456, 1_234_567, -1234, Number.MAX_SAFE_INTEGER])
      expect(formatCount(whole)).toBe(whole.toLocaleString("en-US"));
  });
});

describe("Ctrl-C reaches every tool", () => {
  it.each([
    ["glob", { pattern: "**/*" }],
    ["read_file", { path: "src/main.ts" }],
    ["grep", { pattern: "TOKEN" }],
  ])("%s stops when the signal is already aborted", async (name, input) => {
    const result = await runTool(name, input, { workspace: new Workspace(root), signal: AbortSignal.abort() }, tools);
    expect(result).toEqual({ content: `Error: ${name} was cancelled`, isError: true, summary: "error" });
  });
});

describe("what a file's lines hold reaches the model escaped, in grep as in read_file", () => {
  const dir = makeTree({
    "a.txt": "before \x1b[2J\nneedle \x1b]52;c;Y2xpcA==\x07 \x7f \x9b31m \u2028\nafter \x1b]8;;http://x\x07link\n",
    "long.txt": `needle ${"\x1b[31m".repeat(200)}\n`,
  });

  it("hit and context lines: ESC, BEL, DEL, C1 and U+2028 as read_file shows them", async () => {
    const { content } = await call(dir, "grep", { pattern: "needle", path: "a.txt", context: 1 });
    expect(content).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028]/);
    const read = (await call(dir, "read_file", { path: "a.txt" })).content.split("\n").slice(0, 3);
    expect(content.split("\n")).toEqual(
      read.map((line) =>
        line.replace(/^\s*(\d)\t/, (_, n) => `a.txt${n === "2" ? ":" : "-"}${n}${n === "2" ? ":" : "-"}`),
      ),
    );
  });

  it("a long line of escapes: escaped, then clipped", async () => {
    const { content } = await call(dir, "grep", { pattern: "needle", path: "long.txt" });
    expect(content).not.toContain("\x1b");
    expect(content).toMatch(/^long\.txt:1:needle (\\x1b\[31m)+.* … \[line clipped at 200 characters\]$/);
  });
});

describe("glob patterns whose matching cannot be stopped are refused before any name is matched", () => {
  const dir = makeTree({ [`${"a".repeat(60)}`]: "x\n", [`src/${"a.".repeat(60)}`]: "x\n" });

  it.each([
    `${"?(a|aa)".repeat(21)}b`, // 2 min 32 s on one 60-character name
    `**/${"?([a-z.-]|[a-z.-][a-z.-])".repeat(17)}Z`, // 34.9 s on Scout's own tree
    `${"?(a|aa)".repeat(3)}${"@(a|aa)".repeat(2)}b`, // 3 × 3 × 3 × 2 × 2 = 108 ways
    `src/*a*${"?(a.|a)".repeat(3)}`, // a wildcard pair and 27 ways
    `${"(a|a.)".repeat(8)}`, // plain groups
    `{a,b}${"?(a)".repeat(5)}`, // in each pattern the braces expand to
    `@(a|${"b|".repeat(20)}c)`, // one group of 22 alternatives
  ])("%s", async (pattern) => {
    const { content, isError } = await call(dir, "glob", { pattern });
    expect(isError).toBe(true);
    expect(content).toMatch(/that can match a name in more than 16 ways/);
  });

  it.each(["@(a|?(b|c))", "?(a|@(b))x", "(a|(b))"])("%s: a group in a group", async (pattern) => {
    expect((await call(dir, "glob", { pattern })).content).toMatch(/has a group inside a group/);
  });
});

describe("an include cannot send rg into a folder Scout hides, to block on its .gitignore", () => {
  it.each([
    ["{vendor/**,*.c}", "vendor"], // a path glob naming the ignored folder
    ["{build,*.c}", "build"],
    ["{.git,*.c}", ".git"],
    ["{node_modules/**,*.c}", "node_modules"],
    ["{.ssh,*.c}", ".ssh"], // a protected folder
    ["*", "vendor"], // matches every name, folders too
  ])("include %s, %s/.gitignore a FIFO", async (include, folder) => {
    const dir = makeTree({ ".gitignore": "vendor/\nbuild/\n", "a.c": "needle\n", [`${folder}/b.c`]: "needle\n" });
    execFileSync("mkfifo", [path.join(dir, folder, ".gitignore")]);
    const { content, isError } = await call(dir, "grep", { pattern: "needle", include });
    expect(isError, content).toBe(false);
    expect(content.split("\n")[0]).toBe("a.c:1:needle");
    expect(content).not.toContain(`${folder}/b.c`);
  });
});

describe("names that forge a note, a mark or another name", () => {
  const notes = [
    "(showing 100 of 5000 entries, newest first; use glob with a pattern to find the others)",
    "(3 entries hidden by ignore rules or protection)",
    "(glob stopped after 10 s, so the list may be incomplete; use a narrower pattern or path)",
    "(rg could not read 1 file or folder: x: Permission denied)",
  ];
  const dir = makeTree(
    Object.fromEntries([...notes, "dir@", "x\\x1b[2J", "y\\u2028", "z\\\\n"].map((n) => [n, "MARK\n"])),
  );
  fs.symlinkSync("dir@", path.join(dir, "dir"));

  it("list_files and glob: no line of theirs is a bare note, a symlink mark or an escape that is not one", async () => {
    for (const [tool, args] of [
      ["list_files", {}],
      ["glob", { pattern: "*" }],
    ] as const) {
      const lines = (await call(dir, tool, args)).content.split("\n");
      for (const note of notes) expect(lines, tool).not.toContain(note);
      expect(lines, tool).toContain("dir\\x40");
      expect(lines, tool).toContain("x\\\\x1b[2J");
      expect(lines, tool).toContain("y\\\\u2028");
      expect(lines, tool).toContain("z\\\\\\\\n"); // each of the two backslashes doubled
    }
    expect((await call(dir, "list_files", {})).content.split("\n")).toContain("dir@"); // the symlink
  });
});
