// Lesson 4's graded questions: glob with and without a path, newest first, and the patterns it refuses.
import fs from "node:fs";
import path from "node:path";
import { isList, isNumber, jsonInput, type Question } from "./answers.js";
import { inSampleCopy, tool } from "./live.js";

/** Lesson 4's patterns to try, by letter. */
const PATTERNS: Record<string, string> = {
  a: "src/../../x",
  b: "@(..)/x",
  c: "src/{a,b}/*.py",
  d: "{a..z}{a..z}{a..z}.txt",
};

export const lesson04: Question[] = [
  {
    n: 1,
    ask: 'write a glob input (one JSON object) that uses "path" to find every TypeScript file under web/',
    hint: 'With "path", the pattern is matched inside that folder: {"pattern":"…","path":"…"}. Try it with npx scout tool glob.',
    judge: async (answer) => {
      const input = jsonInput(answer);
      if (typeof input === "string") return input;
      if (!("path" in input)) return 'it has no "path"';
      // In a copy whose web/ holds more than the sample's one .ts file, so a pattern has to be about TypeScript:
      // a file of another kind, one a level deeper, one outside web/.
      return inSampleCopy(async (root) => {
        for (const extra of ["web/src/extra.js", "web/notes.md", "web/src/deep/more.ts", "cmd/outside.ts"]) {
          fs.mkdirSync(path.dirname(path.join(root, extra)), { recursive: true });
          fs.writeFileSync(path.join(root, extra), "export {};\n");
        }
        const got = await tool("glob", input, root);
        const want = await tool("glob", { pattern: "web/**/*.ts" }, root);
        if (got.isError) return `glob refused it: ${got.content}`;
        return got.content === want.content
          ? null
          : `in a web/ with a .js file, a .md file and a .ts file one folder deeper, it finds other files: ${got.content.split("\n").join(", ")}`;
      });
    },
  },
  {
    n: 2,
    ask: "predict, then try: after `touch src/shortly/config.py`, at which place (1 = first) does glob **/*.py list config.py? (then run node lessons/pin-mtimes.mjs)",
    hint: "glob sorts newest first, by modification time; touch makes a file the newest.",
    judge: isNumber(() =>
      inSampleCopy(async (root) => {
        const now = new Date();
        fs.utimesSync(path.join(root, "src/shortly/config.py"), now, now);
        const { content } = await tool("glob", { pattern: "**/*.py" }, root);
        return content.split("\n").indexOf("src/shortly/config.py") + 1;
      }),
    ),
  },
  {
    n: 3,
    ask: `which of these glob patterns are refused with an error (not just "no files")? ${Object.entries(PATTERNS)
      .map(([letter, pattern]) => `${letter}) ${pattern}`)
      .join("  ")}; write the letters`,
    hint: "Try each with npx scout tool glob. checkPattern in src/guards/patterns.ts refuses some before any search; a pattern that finds nothing is not an error.",
    judge: isList(async () => {
      const refused: string[] = [];
      for (const [letter, pattern] of Object.entries(PATTERNS))
        if ((await tool("glob", { pattern })).isError) refused.push(letter);
      return refused;
    }),
  },
];
