// Shows a real request, offline: Scout (the real CLI and SDK) → lessons/proxy.mjs → test/api-server.ts, a stand-in for the API.
//
// The stand-in answers with a grep call and then an answer, as Claude might;
// the proxy prints each request Scout sends, then Scout's own output follows.
// Usage: npm run proxy-demo [-- "question"]
import { execFile } from "node:child_process";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import path from "node:path";
import { reply, startApiServer, text, toolUse } from "../test/api-server.js";
import { REPO_ROOT as repo } from "./exercises.js";

// Loaded by path: this file also runs compiled, from node_modules/.cache, where proxy.mjs is not.
const { startProxy } = await import(pathToFileURL(path.join(repo, "lessons/proxy.mjs")).href);
const question = process.argv[2] ?? "where is make_slug defined?";

const api = await startApiServer();
api.script(
  reply([text("Searching for it."), toolUse("toolu_1", "grep", { pattern: "def make_slug" })]),
  reply([text("make_slug is defined at src/shortly/slugs.py:12.")]),
);
const lines: string[] = [];
const proxy = await startProxy({ upstream: api.url, print: (line: string) => lines.push(line) });
// Not spawnSync: the stand-in and the proxy run in this process, and must keep answering.
const running = promisify(execFile)(process.execPath, [path.join(repo, "dist/cli.js"), "-p", question], {
  cwd: path.join(repo, "lessons/sample-project"),
  env: { ...process.env, ANTHROPIC_BASE_URL: proxy.url, ANTHROPIC_API_KEY: "demo-key", NO_COLOR: "1" },
  encoding: "utf8",
  timeout: 30_000,
});
running.child.stdin?.end(); // with -p, Scout reads a piped stdin as part of the question: there is none
const scout = await running.catch((error) => error as { stdout: string; stderr: string });
await proxy.close();
await api.close();
console.log("What the proxy saw:");
for (const line of lines) console.log(line);
console.log("\nWhat Scout printed:");
process.stdout.write(scout.stderr + scout.stdout);
