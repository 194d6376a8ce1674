// Tab completion at the prompt: slash commands, their arguments, and workspace paths after "@".
//
// Paths are offered only as list_files would show them: inside the
// workspace, not protected, not ignored (Workspace.isVisible), and a folder
// is read only up to a bound, so Tab on a huge folder answers at once.
import fs from "node:fs";
import type { Workspace } from "../core/workspace.js";
import { HELP } from "./commands.js";
import { PRICES } from "../tokens/prices.js";

/** Most entries of one folder looked at for one Tab. */
export const MAX_COMPLETION_ENTRIES = 2000;

/** The commands /help lists: each help line that starts with one. */
const COMMANDS = [...HELP.matchAll(/^ {2}(\/[a-z]+)/gm)].map((match) => match[1]);
const ARGUMENTS: Record<string, string[]> = {
  "/model": Object.keys(PRICES),
  "/step": ["on", "off"],
};

/** readline's completer: the candidates for the word before the cursor, and that word. */
export function completer(workspace: Workspace) {
  return (line: string): [string[], string] => {
    const command = /^(\/[a-z]*)$/.exec(line);
    if (command) return [COMMANDS.filter((name) => name.startsWith(command[1])), command[1]];
    const argument = /^(\/[a-z]+) +(\S*)$/.exec(line);
    if (argument) {
      const words = ARGUMENTS[argument[1]] ?? [];
      return [words.filter((word) => word.startsWith(argument[2])), argument[2]];
    }
    const at = /(?:^|\s)(@\S*)$/.exec(line);
    if (at) return [completePath(workspace.fresh(), at[1].slice(1)).map((path) => `@${path}`), at[1]];
    return [[], line];
  };
}

/** Visible entries of the folder `typed` names, whose names start with what follows its last "/". */
function completePath(workspace: Workspace, typed: string): string[] {
  const slash = typed.lastIndexOf("/");
  const folder = typed.slice(0, slash + 1);
  const prefix = typed.slice(slash + 1);
  const resolved = workspace.resolveInWorkspace(folder || ".");
  if (!resolved.ok) return [];
  const base = resolved.rel === "." ? "" : `${resolved.rel}/`;
  if (base && !workspace.isVisible(resolved.rel, true)) return [];
  const found: string[] = [];
  let dir: fs.Dir | undefined;
  try {
    dir = fs.opendirSync(resolved.abs);
    for (let i = 0; i < MAX_COMPLETION_ENTRIES; i++) {
      const entry = dir.readSync();
      if (!entry) break;
      if (!entry.name.startsWith(prefix) || (prefix === "" && entry.name.startsWith("."))) continue;
      const isDir = entry.isDirectory();
      if (workspace.isVisible(`${base}${entry.name}`, isDir)) found.push(`${folder}${entry.name}${isDir ? "/" : ""}`);
    }
  } catch {
    return []; // not a folder, or unreadable: nothing to offer
  } finally {
    dir?.closeSync();
  }
  return found.sort();
}
