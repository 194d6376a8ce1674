// Lesson 2's graded questions: paging with the footer, the suggestions for a wrong path, a window asked for exactly.
import { parseHits } from "../../src/models/offline/definitions.js";
import { isNumber, isText, jsonInput, type Question } from "./answers.js";
import { tool } from "./live.js";

const SLUGS = "src/shortly/slugs.py";

export const lesson02: Question[] = [
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
    ask: `write read_file's arguments (one JSON object) that show make_slug's body: from the line after its def to the end of ${SLUGS}`,
    hint: `Find the def line with grep; offset is the first line shown, limit how many. The footer says which lines you got, e.g. {"path":"${SLUGS}","offset":5}.`,
    judge: async (answer) => {
      const input = jsonInput(answer);
      if (typeof input === "string") return input;
      const def = (await tool("grep", { pattern: "def make_slug", path: SLUGS })).content;
      const line = Number(parseHits(def)[0]?.line);
      const want = await tool("read_file", { path: SLUGS, offset: line + 1 });
      const got = await tool("read_file", input);
      if (got.isError) return `read_file refused it: ${got.content}`;
      return got.content === want.content ? null : `it shows ${got.content.split("\n").at(-1)}, not the body`;
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
