// The offline model's moves that look for no definition: files of a kind, a folder, lines that mention some words, a file or package name, and an overview of piped text or of the project.
import { type Exchange, foundNothing } from "./exchange.js";
import { listAnswer, mentionAnswer, overviewAnswer, projectOverviewAnswer } from "./answers.js";
import { escapeRegex, parseHits, sortBySource, stem } from "./definitions.js";

/** Lines of a README read for an overview. */
const README_LINES = 15;

/** One tool call of this turn and what came back. `batch` counts the model's messages. */
export type { Exchange };

export type Call = { name: string; input: Record<string, unknown> };
/** The thought is one line said before the tool calls, so the step log shows why. */
export type Move = { thought: string; calls: Call[] } | { answer: string };

export function call(name: string, input: Record<string, unknown>): Call {
  return { name, input };
}

/** Files of a kind: glob lists them; test files are what test runners collect, and "none" is said plainly. */
export function filesMove(pattern: string, tests: boolean, last: Exchange[]): Move {
  if (!last.length)
    return {
      thought: tests
        ? "Test files are what test runners collect (test folders, *_test.go, test_*.py, *.test.*, *.spec.*): glob lists them."
        : "A question about kinds of files: glob lists them.",
      calls: [call("glob", { pattern })],
    };
  if (tests && foundNothing(last[0]))
    return {
      answer:
        "No test files: nothing here is in a test folder (test/, tests/, __tests__/, spec/) or named as test runners expect (*_test.go, test_*.py, *_test.py, *.test.*, *.spec.*).",
    };
  const heading = tests
    ? "Test files (as test runners collect them), newest first:"
    : `Files matching \`${pattern}\`, newest first:`;
  return { answer: listAnswer(heading, last[0]) };
}

/** What a folder holds: list_files. */
export function folderMove(path: string, last: Exchange[]): Move {
  if (!last.length)
    return {
      thought: "A question about a folder: list_files shows what it holds.",
      calls: [call("list_files", { path })],
    };
  return { answer: listAnswer(`\`${path}\` holds, newest first:`, last[0]) };
}

/** Lines that mention two words together (either order), else the longer word alone. */
export function textMove(words: string[], done: Exchange[], last: Exchange[]): Move {
  // In the question's order (the verb stays), two words at most; the first of them alone if no line has both.
  const stems = [...new Set(words.map(stem))].slice(0, 2);
  const together = stems.length === 2 ? `(?i)${stems[0]}.*${stems[1]}|${stems[1]}.*${stems[0]}` : `(?i)${stems[0]}`;
  if (!last.length)
    return {
      thought: `No name to look up; searching for lines that mention ${stems.map((s) => `"${s}"`).join(" and ")}.`,
      calls: [call("grep", { pattern: together })],
    };
  const hits = sortBySource(parseHits(last[0].result));
  if (hits.length) return { answer: mentionAnswer(`${stems.map((s) => `"${s}"`).join(" with ")}`, hits, "") };
  if (done.length === 1 && stems.length === 2)
    return {
      thought: `No line has both; searching for "${stems[0]}" alone.`,
      calls: [call("grep", { pattern: `(?i)${stems[0]}` })],
    };
  return { answer: `I couldn't find lines mentioning ${stems.map((s) => `"${s}"`).join(" or ")} in the workspace.` };
}

/** A file or package name: files named like it and lines that mention it, asked for together. */
export function namedMove(name: string, last: Exchange[]): Move {
  if (!last.length)
    return {
      thought: `\`${name}\` looks like a file or package name: globbing for files named like it and grepping for it, at once.`,
      calls: [call("glob", { pattern: `**/*${name}*` }), call("grep", { pattern: escapeRegex(name) })],
    };
  const [files, lines] = last;
  const named = foundNothing(files) ? "No file is named like it." : listAnswer(`Files named like \`${name}\`:`, files);
  const hits = sortBySource(parseHits(lines.result));
  return {
    answer: [named, hits.length ? mentionAnswer(`\`${name}\``, hits, "") : `No line mentions \`${name}\`.`].join(
      "\n\n",
    ),
  };
}

/**
 * "explain" with piped text, "what does this project do?": a search cannot explain, so the answer says what
 * the text holds (or what the project's top level and README hold) and that an explanation needs a real model.
 */
export function overviewMove(text: string | undefined, done: Exchange[], last: Exchange[]): Move {
  if (text !== undefined) return { answer: overviewAnswer(text) };
  if (!last.length)
    return {
      thought: "I cannot explain a project, only show what it holds: listing the top level and looking for a README.",
      calls: [call("list_files", { path: "." }), call("glob", { pattern: "README*" })],
    };
  if (last[0].name === "list_files") {
    const readme = last[1]?.result.split("\n").find((line) => /^README/i.test(line));
    if (readme)
      return {
        thought: `Reading the start of ${readme}, where a project usually says what it is.`,
        calls: [call("read_file", { path: readme, offset: 1, limit: README_LINES })],
      };
    return { answer: projectOverviewAnswer(last[0].result, null) };
  }
  const listing = done.find((e) => e.name === "list_files")?.result ?? "";
  return {
    answer: projectOverviewAnswer(listing, last[0].isError ? null : { path: last[0].input.path, text: last[0].result }),
  };
}
