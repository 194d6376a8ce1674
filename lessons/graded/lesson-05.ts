// Lesson 5's graded questions: a pattern for the calls only, a dot that matches anything, an ignored folder named outright.
import { type Hit, parseHits } from "../../src/models/offline/definitions.js";
import { isNumber, isText, jsonInput, type Question } from "./answers.js";
import { tool } from "./live.js";

/** The `path:line` of each hit, sorted. */
const places = (hits: Hit[]) => hits.map((hit) => `${hit.path}:${hit.line}`).sort();

export const lesson05: Question[] = [
  {
    n: 1,
    ask: "write a grep input (one JSON object) that finds every call of make_slug, without the import lines and the definition",
    hint: 'A call has "(" after the name (make_slug\\\\( in JSON: ( is special in a regex). rg has no look-behind, so say what may come before the name instead: anything but "def ".',
    judge: async (answer) => {
      const input = jsonInput(answer);
      if (typeof input === "string") return input;
      const got = await tool("grep", input);
      if (got.isError) return `grep refused it: ${got.content}`;
      const every = parseHits((await tool("grep", { pattern: "make_slug" })).content);
      const calls = every.filter(({ text }) => /make_slug\s*\(/.test(text) && !/^\s*def\s/.test(text));
      const [want, found] = [places(calls), places(parseHits(got.content))];
      const missing = want.filter((hit) => !found.includes(hit)).length;
      const extra = found.filter((hit) => !want.includes(hit));
      if (missing === 0 && extra.length === 0) return null;
      return `${missing} call${missing === 1 ? "" : "s"} missing${extra.length ? `; not calls: ${extra.join(", ")}` : ""}`;
    },
  },
  {
    n: 2,
    ask: "grep for shortly.config: one hit is not an import at all. Which file is it in?",
    hint: "In a regex . matches any character. Look at each hit's text: which one has no dot after shortly?",
    judge: isText(async () => {
      const { content } = await tool("grep", { pattern: "shortly.config" });
      return parseHits(content).find((hit) => !/shortly\.config/.test(hit.text))?.path ?? "(none)";
    }),
  },
  {
    n: 3,
    ask: 'grep refuses {"pattern":"make_slug","path":"build"} (build/ is ignored); how many lines match with "path":"build/lib/shortly/slugs.py", a file named outright?',
    hint: "Run both with npx scout tool grep in lessons/sample-project. Ignore rules decide what a search walks into, not what you name.",
    judge: isNumber(async () => {
      const { content } = await tool("grep", { pattern: "make_slug", path: "build/lib/shortly/slugs.py" });
      return parseHits(content).length;
    }),
  },
];
