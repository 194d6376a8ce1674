// Lesson 12's graded questions: on the wire, a reply that asks for two tools at once and what share of a request
// the tool schemas are; and a recorded session replayed (--replay) after the code it read has changed.
import fs from "node:fs";
import path from "node:path";
import { type Block, reply, startApiServer, text } from "../cases/api-server.js";
import type { Question } from "./answers.js";
import { cli, cliWithApi, inSampleCopy } from "./live.js";

const QUESTION = "where is make_slug defined?";

/** Scout (the real CLI, the real SDK) asks QUESTION of a stand-in API that gives `replies`; returns what it was sent. */
async function onTheWire(...replies: Block[][]) {
  const api = await startApiServer();
  try {
    api.script(...replies.map((content) => reply(content)));
    const scout = await cliWithApi(["-p", QUESTION], api.url);
    return { scout, bodies: api.requests.map((request) => request.body as Record<string, unknown>) };
  } finally {
    await api.close();
  }
}

/** What is wrong with one block of a reply, or null: the stand-in streams text and tool_use blocks, as the API does. */
function blockProblem(block: unknown, index: number): string | null {
  const b = (block ?? {}) as Record<string, unknown>;
  const isObject = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (!isObject(block)) return `block ${index + 1} is not an object`;
  if (b.type === "text") return typeof b.text === "string" ? null : `block ${index + 1}: a text block needs "text"`;
  if (b.type !== "tool_use") return `block ${index + 1}: "type" is "text" or "tool_use", not ${JSON.stringify(b.type)}`;
  for (const field of ["id", "name"])
    if (typeof b[field] !== "string") return `block ${index + 1}: a tool_use block needs "${field}", a string`;
  if (!/^[\w-]{1,64}$/.test(b.id as string)) return `block ${index + 1}: an id is 1 to 64 letters, digits, _ or -`;
  return isObject(b.input) ? null : `block ${index + 1}: a tool_use block needs "input", an object`;
}

type WireBlock = { type: string; tool_use_id?: string; is_error?: boolean; content?: unknown };

/**
 * What exercise 4 has the learner do, done here in a scratch copy of the sample project: record the offline
 * model's answer with --trace, add a line at the top of the file it read, replay the trace. Returns the tool
 * whose live result the step log flags first and that step's [n] ("grep 2"), or what went wrong instead.
 */
async function firstFlaggedStep(): Promise<string> {
  return inSampleCopy(async (root) => {
    const trace = path.join(root, "..", "session.jsonl"); // beside the copy: a trace inside it is a file the tools see
    const recorded = await cli(["--offline", "--trace", trace, "-p", QUESTION], root);
    if (recorded.status !== 0) throw new Error(`recording failed: ${recorded.stderr.trim().split("\n").pop()}`);
    const records = fs
      .readFileSync(trace, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const read = records.find((r) => r.type === "tool" && r.name === "read_file")?.input?.path;
    if (typeof read !== "string") throw new Error("the recorded answer read no file");
    const file = path.join(root, read);
    fs.writeFileSync(file, `# a new first line\n${fs.readFileSync(file, "utf8")}`);
    const replayed = await cli(["--replay", trace, "-p", QUESTION], root);
    const lines = replayed.stderr.split("\n");
    const flag = lines.findIndex((line) => /^\(replay: the live \w+ result/.test(line));
    if (flag === -1) throw new Error(`the replay flagged no step:\n${replayed.stderr}`);
    const tool = /^\(replay: the live (\w+) result/.exec(lines[flag])![1];
    const step = lines
      .slice(0, flag)
      .reverse()
      .map((line) => new RegExp(`^\\[(\\d+)\\] ${tool} `).exec(line)?.[1])
      .find(Boolean);
    return `${tool} ${step}`;
  });
}

// The truths that depend on no answer, computed once per process: a check judges each answer once anyway, and npm
// test judges several answers to the same question in one process (each recording and replay is two CLI runs).
let firstRequest: ReturnType<typeof onTheWire> | undefined;
let flaggedStep: Promise<string> | undefined;

export const lesson12: Question[] = [
  {
    n: 1,
    ask: 'write the first reply\'s content, as proxy-demo.ts scripts it but in JSON (an array of blocks), so that Scout runs two tools in one step: grep for "def make_slug" and glob for "**/*.py"',
    hint: 'A tool_use block is {"type":"tool_use","id":…,"name":…,"input":{…}}, as toolUse() in lessons/cases/api-server.ts makes it. Run npm run proxy-demo after the edit: the second request\'s last message should hold two tool_results.',
    judge: async (answer) => {
      let blocks: unknown;
      try {
        blocks = JSON.parse(answer);
      } catch (error) {
        return `not valid JSON (${(error as Error).message})`;
      }
      if (!Array.isArray(blocks)) return "not a JSON array of blocks";
      const malformed = blocks.map(blockProblem).find((problem) => problem !== null);
      if (malformed) return malformed;
      const ids = (blocks as Block[]).flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
      if (repeated)
        return `two tool_use blocks have the id ${repeated}: each result names its call by id, so the API refuses that`;
      const { scout, bodies } = await onTheWire(blocks as Block[], [text("make_slug is in src/shortly/slugs.py.")]);
      if (bodies.length < 2 && scout.status !== 0)
        return `Scout stopped after ${bodies.length} request(s): ${scout.stderr.trim().split("\n").pop()}`;
      if (bodies.length < 2) return "the first reply asked for no tool, so Scout answered after one request";
      const messages = bodies[1].messages as { role: string; content: WireBlock[] }[];
      const results = messages.at(-1)?.content.filter((b) => b.type === "tool_result") ?? [];
      if (results.length !== 2) return `the second request answers ${results.length} tool call(s), not 2`;
      const failed = results.find((r) => r.is_error);
      if (failed)
        return `tool_result ${failed.tool_use_id} is an error: ${JSON.stringify(failed.content).slice(0, 100)}`;
      const calls = (messages.at(-2)?.content ?? []) as { type: string; name?: string; input?: { pattern?: string } }[];
      const asked = calls.filter((b) => b.type === "tool_use").map((b) => `${b.name} ${b.input?.pattern}`);
      const want = ["grep def make_slug", "glob **/*.py"];
      return want.every((call) => asked.includes(call))
        ? null
        : `Scout ran ${asked.join(" and ")}, not ${want.join(" and ")}`;
    },
  },
  {
    n: 2,
    ask: "in the demo's first request (npm run proxy-demo, with full: true), what share of the JSON body is the tools array? (a percentage, to the nearest whole one)",
    hint: "Save the body --full prints to a file and measure both with node: JSON.stringify(body.tools).length against JSON.stringify(body).length. Lesson 9 counts the same schemas in tokens.",
    judge: async (answer) => {
      const written = /\d+(\.\d+)?/.exec(answer)?.[0];
      if (written === undefined) return `"${answer}" holds no number`;
      const { bodies } = await (firstRequest ??= onTheWire([text("It is in src/shortly/slugs.py.")]));
      const [body] = bodies;
      const share = (100 * JSON.stringify(body.tools).length) / JSON.stringify(body).length;
      // Within 3 points: measured on pretty-printed JSON (as --full prints it) the share is about 2 points lower.
      return Math.abs(Number(written) - share) <= 3 ? null : `${written} % is not it`;
    },
  },
  {
    n: 4,
    ask: 'record the offline model\'s answer to "where is make_slug defined?" with --trace in a copy of the sample project, add a line at the top of the file it read, and replay the trace there with --replay: which tool\'s live result does the step log flag first, at which step? (the tool\'s name and its [n], e.g. "glob 2")',
    hint: 'Record and replay in the same copy, with the trace beside it (lessons/build/replay.jsonl): the replay answers from the recording, the tools run on the copy, and a line "(replay: the live … result differs …)" follows the step whose result is not the recorded one.',
    judge: async (answer) => {
      const written = /^\s*([a-z_]+)[\s,:]*\[?(\d+)\]?\s*$/i.exec(answer);
      if (!written) return `"${answer}" is not a tool's name and a step number, like "glob 2"`;
      const [tool, step] = (await (flaggedStep ??= firstFlaggedStep())).split(" ");
      if (written[1].toLowerCase() !== tool) return `the first result the replay flags is not ${written[1]}'s`;
      return written[2] === step ? null : `${tool}'s result is flagged, but not at step ${written[2]}`;
    },
  },
];
