// "@path" in a question attaches that file, as Claude Code does: read by read_file itself, under its rules.
//
// The file goes along with the question exactly as read_file would give it
// to the model (its first window of lines, numbered, with the footer that
// says how to read on), so nothing outside the workspace, protected or
// binary is ever attached: read_file refuses it, and the question is not sent.
import type { Workspace } from "../core/workspace.js";
import { formatCount } from "../guards/format.js";

/** "@path" after a space or at the start (so "me@host" is no attachment), trailing punctuation left out. */
const MENTION = /(?:^|\s)@([^\s]+?)[?!,;:)"'.]*(?=\s|$)/g;

export type Attached = { question: string; notes: string[] } | { refused: string };

/** The question with each mentioned file appended in a <file> block, or why one cannot be attached. */
export async function attachFiles(question: string, workspace: Workspace): Promise<Attached> {
  const paths = [...new Set([...question.matchAll(MENTION)].map((match) => match[1]))];
  if (paths.length === 0) return { question, notes: [] };
  const [{ tools }, { runTool }] = await Promise.all([import("../core/scout.js"), import("../core/tool.js")]); // loaded with the first question, as the loop is
  const blocks: string[] = [];
  const notes: string[] = [];
  for (const path of paths) {
    const result = await runTool("read_file", { path }, { workspace }, tools);
    const reason = result.content.replace(/^Error: /, "");
    if (result.isError) return { refused: `@${path} is not attached: ${reason}; nothing was sent` };
    blocks.push(`<file path="${path}">\n${result.content}\n</file>`);
    notes.push(`(@${path} attached: ${result.summary ?? "read"}, ${formatCount(result.content.length)} characters)`);
  }
  return { question: `${question}\n\n${blocks.join("\n\n")}`, notes };
}
