// Lesson 3's graded questions: paging with the footer, the suggestions for a wrong path, a window asked for exactly.
import fs from "node:fs";
import path from "node:path";
import { parseHits } from "../../src/models/offline/definitions.js";
import { isNumber, isText, jsonInput, type Question } from "./answers.js";
import { SAMPLE_PROJECT, tool } from "./live.js";

/** The last line of the Python body that starts after line `def` (1-based): the last indented line before the next unindented one. */
function lastBodyLine(source: string, def: number): number {
  const lines = source.split("\n");
  let last = def;
  for (let i = def; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    if (!/^\s/.test(lines[i])) break;
    last = i + 1;
  }
  return last;
}

const SLUGS = "src/shortly/slugs.py";

export const lesson03: Question[] = [
  {
    n: 1,
    ask: "read tests/fixtures/urls.txt as a model pages through it: which offset does the first call's footer say to use next?",
    hint: `npx scout tool read_file '{"path":"tests/fixtures/urls.txt"}' | tail -n 1`,
    judge: isNumber(async () => {
      const { content } = await tool("read_file", { path: "tests/fixtures/urls.txt" });
      return Number(/offset=(\d+)/.exec(content)?.[1]);
    }),
  },
  {
    n: 2,
    ask: "read_file src/shortly/Slugs.PY (wrong case): which path does the error suggest?",
    hint: "Run it with npx scout tool read_file in lessons/sample-project; suggestSimilarPaths makes the suggestion.",
    judge: isText(async () => {
      const { content } = await tool("read_file", { path: "src/shortly/Slugs.PY" });
      return /did you mean: (.*?)\?/.exec(content)?.[1] ?? "(no suggestion)";
    }),
  },
  {
    n: 3,
    ask: `write read_file's arguments (one JSON object) that show make_slug's body in ${SLUGS}: its first line shown is the one after the def, and its last line of code is shown too (what comes after it may be shown or not)`,
    hint: `Find the def line with grep; offset is the first line shown, limit how many (leave it out to read to the end). The footer says which lines you got, e.g. {"path":"${SLUGS}","offset":5}.`,
    judge: async (answer) => {
      const input = jsonInput(answer);
      if (typeof input === "string") return input;
      const def = Number(parseHits((await tool("grep", { pattern: "def make_slug", path: SLUGS })).content)[0]?.line);
      const got = await tool("read_file", input);
      if (got.isError) return `read_file refused it: ${got.content}`;
      if (input.path !== SLUGS) return `it reads ${String(input.path)}, not ${SLUGS}`;
      const shown = got.content
        .split("\n")
        .map((line) => Number(/^(\d+)\t/.exec(line)?.[1]))
        .filter((n) => n > 0);
      const last = lastBodyLine(fs.readFileSync(path.join(SAMPLE_PROJECT, SLUGS), "utf8"), def);
      if (shown[0] !== def + 1) return `its first line shown is ${shown[0] ?? "none"}, not the one after the def`;
      if (shown.at(-1)! < last) return `it stops at line ${shown.at(-1)}, before the body ends`;
      return null;
    },
  },
  {
    n: 4,
    ask: `read_file ${SLUGS} with an offset past its end: how many lines does the error say the file has?`,
    hint: `npx scout tool read_file '{"path":"${SLUGS}","offset":100}'`,
    judge: isNumber(async () => {
      const { content } = await tool("read_file", { path: SLUGS, offset: 1000 });
      return Number(/has (\d+) lines/.exec(content)?.[1]);
    }),
  },
];
