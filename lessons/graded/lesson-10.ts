// Lesson 10's graded questions: how a design knob meets the policy (cap=10, line-numbers=off), and which expected locations move with the code.
import fs from "node:fs";
import path from "node:path";
import { makeTools } from "../../src/lab/designs.js";
import { DEFAULT_DESIGN, type ToolDesign } from "../../src/lab/designs.js";
import { isText, type Question } from "./answers.js";
import { ask, firstCitation, inSampleCopy } from "./live.js";

/** "where is make_slug defined?" asked with the tools a lab variant makes. */
const withDesign = (change: Partial<ToolDesign>) =>
  ask("where is make_slug defined?", { tools: makeTools({ ...DEFAULT_DESIGN, ...change }) });

export const lesson10: Question[] = [
  {
    n: 1,
    ask: "the cap=10 run's read_file call for make-slug-defined asks for more lines than the cap: which argument is over its maximum, and taken as the cap? (its name)",
    hint: "npx scout lab lessons/questions/sample-project.json --variant cap=10 --verbose shows read_file's last line, (arguments taken as meant: …); compare READ_WINDOW in src/models/offline/policy.ts with the cap.",
    judge: isText(async () => {
      const eased = (await withDesign({ cap: 10 })).calls.find((call) =>
        call.result.content.includes("taken as meant"),
      );
      return /taken as meant: (\w+)/.exec(eased?.result.content ?? "")?.[1] ?? "(none)";
    }),
  },
  {
    n: 2,
    ask: "with line-numbers=off, which path:line does the offline model cite for make_slug's definition? (or none)",
    hint: "Run the lab with --variant line-numbers=off --verbose. The offline model takes the line from grep's hit, then quotes read_file's window: which of the two changed?",
    judge: isText(async () => firstCitation((await withDesign({ lineNumbers: false })).result.text) || "none"),
  },
  {
    n: 3,
    ask: "add a blank line at the top of src/shortly/slugs.py: where is make_slug defined now? (path:line; then undo it and run node lessons/pin-mtimes.mjs)",
    hint: "Ask Scout again after the edit. A question set's expected path:line is tied to the code: this is why a set needs updating when the code moves.",
    judge: isText(() =>
      inSampleCopy(async (root) => {
        const file = path.join(root, "src/shortly/slugs.py");
        fs.writeFileSync(file, `\n${fs.readFileSync(file, "utf8")}`);
        return firstCitation((await ask("where is make_slug defined?", { root })).result.text);
      }),
    ),
  },
];
