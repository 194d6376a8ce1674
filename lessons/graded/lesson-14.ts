// Lesson 14's graded questions (its outline tool is a code exercise: lessons/exercises.ts): where Scout knows it talks to Anthropic, and a move the offline model lacks.
import fs from "node:fs";
import path from "node:path";
import { isList, isText, type Question } from "./answers.js";
import { ask, REPO_ROOT } from "./live.js";

/** Every .ts file under `dir`, relative to the repository, with "/". */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    return entry.isDirectory() ? sourceFiles(rel) : rel.endsWith(".ts") ? [rel] : [];
  });
}

export const lesson14: Question[] = [
  {
    // Numbered as the lesson numbers its exercises: exercise 1 is the outline tool, a code exercise.
    n: 2,
    ask: "project 3: which files in src/ outside src/models/ import @anthropic-ai/sdk? (their paths, e.g. src/a.ts src/b/c.ts)",
    hint: "Search Scout's own code: from the repository root, npx scout -p … --cwd src, or grep -rl for the package name. Count type-only imports too.",
    judge: isList(async () =>
      sourceFiles("src").filter(
        (rel) =>
          !rel.startsWith("src/models/") &&
          /from\s+["']@anthropic-ai\/sdk["']/.test(fs.readFileSync(path.join(REPO_ROOT, rel), "utf8")),
      ),
    ),
  },
  {
    n: 3,
    ask: 'project 4: ask "what is in src/shortly/slugs.py?" in the sample project: which tool does the offline model call for it? (its name)',
    hint: "Read the [2] line and its result: is that the right tool for a file? An outline tool, taught to the offline model, would answer this question.",
    judge: isText(async () => (await ask("what is in src/shortly/slugs.py?")).calls[0]?.name ?? "(none)"),
  },
];
