// Issue 25: the scenarios where peers' own tool tests (Cline, Continue, pi, Codex, Goose) found Scout worse,
// one describe block per cause, each run as the model gets it.
import { describe, expect, it } from "vitest";
import { call, makeTree } from "./helpers.js";

const PROTECTED_NOW = [
  // issue 25, cause 2 (Continue's security tests)
  "a.secret",
  "b.secrets",
  "gh.token",
  "auth.json",
  "secrets/db.txt",
  ".secrets/api.txt",
  ".gcp/key.json",
  "server.key.backup",
  "backup.env.old",
  // issue 27.11
  ".config/git/credentials",
  ".local/share/fish/fish_history",
  ".zhistory",
  ".histfile",
  ".Rhistory",
  ".dbshell",
  ".julia/logs/repl_history.jl",
  ".lesshst",
  ".yarnrc",
  ".envrc.local",
  // backups and editor copies of listed names: one rule
  "key.pem.bak",
  "server.key~",
  ".git-credentials.bak",
  ".netrc.bak",
  ".pgpass~",
  ".npmrc.orig",
  ".key.pem.swp",
  "..netrc.swp",
  ".docker/config.json.old",
];
const STILL_READABLE = [
  "config.json",
  "settings.json",
  "config.json.bak",
  "notes.txt~",
  "src/token.ts",
  ".env.example",
];

describe("cause 2: the protected list covers what credential stores use, and backups of every listed name", () => {
  const root = makeTree(Object.fromEntries([...PROTECTED_NOW, ...STILL_READABLE].map((file) => [file, "MARK_Q7\n"])));

  it("read_file refuses each, naming the reason", async () => {
    for (const file of PROTECTED_NOW) {
      const result = await call(root, "read_file", { path: file });
      expect(result.content, file).toMatch(/is protected/);
    }
  });

  it("glob, grep and list_files never show them; ordinary files and their backups stay visible", async () => {
    const glob = (await call(root, "glob", { pattern: "**/*" })).content.split("\n").sort();
    const grep = (await call(root, "grep", { pattern: "MARK_Q7" })).content
      .split("\n")
      .map((line) => line.replace(/:1:MARK_Q7$/, ""))
      .sort();
    const listed = (await call(root, "list_files", {})).content.split("\n");
    expect(glob).toEqual([...STILL_READABLE].sort());
    expect(grep).toEqual([...STILL_READABLE].sort());
    for (const file of PROTECTED_NOW.filter((name) => !name.includes("/"))) expect(listed).not.toContain(file);
    for (const file of STILL_READABLE)
      expect((await call(root, "read_file", { path: file })).isError, file).toBe(false);
  });
});
