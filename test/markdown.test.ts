// An answer's Markdown drawn as it streams (src/repl/markdown.ts): however the text is cut, the screen ends the same.
import { beforeAll, describe, expect, it } from "vitest";
import { loadMarked, MarkdownStream } from "../src/repl/markdown.js";
import { drawnRows } from "./pty.js";

const ANSWER = [
  "## Where **paths** are checked",
  "",
  "`resolveInWorkspace` in **src/workspace/resolve.ts** resolves every symlink before it compares the result with the root, and *then* opens it.",
  "",
  "1. it resolves",
  "2. it compares, a step long enough to wrap",
  "",
  "```ts",
  "const real = fs.realpathSync(p);",
  "```",
  "The end, 日本語の文字も折り返す。",
].join("\n");

/** The rows on a `columns`-wide screen after the answer arrives in `chunks`. */
function screenAfter(chunks: string[], columns: number): string[] {
  let raw = "";
  const stream = new MarkdownStream(
    (text) => {
      raw += text;
    },
    () => columns,
  );
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return drawnRows(raw, columns);
}

describe("MarkdownStream", () => {
  beforeAll(loadMarked); // the REPL's session loads it before a turn
  it("draws the same screen whether the answer comes whole or a character at a time", () => {
    const whole = screenAfter([ANSWER], 30);
    expect(whole).toEqual([
      "Where paths are checked",
      "",
      "resolveInWorkspace in",
      "src/workspace/resolve.ts",
      "resolves every symlink before",
      "it compares the result with",
      "the root, and then opens it.",
      "",
      "1. it resolves",
      "2. it compares, a step long",
      "   enough to wrap",
      "",
      "    const real = fs.realpathSy", // code is not wrapped at words: the terminal wraps it
      "nc(p);",
      "The end,",
      "日本語の文字も折り返す。",
    ]);
    expect(screenAfter([...ANSWER], 30)).toEqual(whole);
    expect(screenAfter(ANSWER.match(/[\s\S]{1,7}/g) ?? [], 30)).toEqual(whole);
  });

  it("cuts a word wider than the window, and never draws a row wider than it", () => {
    const rows = screenAfter(["see ", "a".repeat(25), " then more words"], 10);
    expect(rows).toEqual(["see", "aaaaaaaaaa", "aaaaaaaaaa", "aaaaa then", "more words"]);
  });
});
