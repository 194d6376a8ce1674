// Lesson 6's graded questions: how many windows a definition gets, where a window starts and ends, what a narrow pattern saves.
import { parseHits } from "../../src/models/offline/definitions.js";
import { isList, isNumber, isText, type Question } from "./answers.js";
import { ask, tool } from "./live.js";

export const lesson06: Question[] = [
  {
    n: 1,
    ask: 'ask "where is MAX_SLUG_LENGTH defined?": how many read_file calls does the offline model ask for, in one message? (a number)',
    hint: "Look at the tool lines after [3] in the step log. rankDefinitions and the `alike` test in nextMove (src/models/offline/policy.ts) decide how many windows.",
    judge: isNumber(
      async () => (await ask("where is MAX_SLUG_LENGTH defined?")).calls.filter((c) => c.name === "read_file").length,
    ),
  },
  {
    n: 2,
    ask: 'predict, then check: for "where is make_slug defined?", which lines does the read_file window show? (first-last, e.g. 3-17)',
    hint: "The hit is on line 12 (grep said so). READ_WINDOW and LINES_BEFORE_HIT in src/models/offline/policy.ts place the window, and a file has only so many lines.",
    judge: async (answer) => {
      const window = async () => {
        const read = (await ask("where is make_slug defined?")).calls.find((c) => c.name === "read_file");
        return (
          /lines (\d+)-(\d+)/
            .exec(read?.result.summary ?? "")
            ?.slice(1, 3)
            .join("-") ?? "(no window)"
        );
      };
      const range = /(\d+)\s*(?:-|–|to)\s*(\d+)/.exec(answer); // "8-21", "lines 8 to 21"
      return range ? isText(window)(`${range[1]}-${range[2]}`) : `"${answer}" is not a range like 3-17`;
    },
  },
  {
    n: 3,
    ask: 'how many lines does grep return for the bare name make_slug, and how many for the pattern the offline model uses for "who calls make_slug?"? (two numbers, bare name first)',
    hint: 'Run npx scout tool grep \'{"pattern":"make_slug"}\', then ask the question and read the pattern on the [2] line.',
    judge: isList(async () => {
      const bare = parseHits((await tool("grep", { pattern: "make_slug" })).content).length;
      const calls = (await ask("who calls make_slug?")).calls.find((c) => c.name === "grep");
      return [String(bare), String(parseHits(calls?.result.content ?? "").length)];
    }, true),
  },
];
