// Shows a real request, offline: Scout (the real CLI and SDK) → lessons/proxy.mjs → lessons/cases/api-server.ts, a stand-in for the API.
//
// The stand-in answers with a grep call and then an answer, as Claude might;
// the proxy prints each request Scout sends, then Scout's own output follows.
// Usage: npm run proxy-demo [-- "question"]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { reply, startApiServer, text, toolUse } from "./cases/api-server.js";
import { cliWithApi, REPO_ROOT } from "./graded/live.js";

// Loaded by path: this file also runs compiled, from node_modules/.cache, where proxy.mjs is not.
const { startProxy } = await import(pathToFileURL(path.join(REPO_ROOT, "lessons/proxy.mjs")).href);
const question = process.argv[2] ?? "where is make_slug defined?";

const api = await startApiServer();
api.script(
  reply([text("Searching for it."), toolUse("toolu_1", "grep", { pattern: "def make_slug" })]),
  reply([text("make_slug is defined at src/shortly/slugs.py:12.")]),
);
const lines: string[] = [];
const proxy = await startProxy({ upstream: api.url, print: (line: string) => lines.push(line) });
const scout = await cliWithApi(["-p", question], proxy.url);
await proxy.close();
await api.close();
console.log("What the proxy saw:");
for (const line of lines) console.log(line);
console.log("\nWhat Scout printed:");
process.stdout.write(scout.stderr + scout.stdout);
