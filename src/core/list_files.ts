// list_files: one directory level, newest first, and a footer saying what is not shown.
import { MAX_FOLDER_ENTRIES } from "../guards/folder-entries.js";
import { listFolder } from "../guards/folder-listing.js";
import { formatCount } from "../guards/format.js";
import { escapePath } from "../guards/escape.js";
import { resolveSearchRoot } from "../guards/search-path.js";
import { fail, MAX_RESULT_LINES, ok, SCOUT_LIMITS, type Tool } from "./tool.js";

/** A listing stops after this long, as glob and grep do, and says so. */
export const LIST_TIMEOUT_MS = 10_000;

export const listFiles: Tool<{ path?: string }> = {
  name: "list_files",
  description:
    'List one directory level: files, and directories ending in "/" (symlinks end in "@" and are not followed). ' +
    `Sorted by modification time, newest first, at most ${MAX_RESULT_LINES} entries; ` +
    "ignored (.gitignore, .ignore, node_modules) and protected entries are hidden and counted. " +
    `Reads ${formatCount(MAX_FOLDER_ENTRIES)} entries and ${LIST_TIMEOUT_MS / 1000} s at most.`,
  askForLess: "a folder further down, or glob with a pattern",
  input_schema: {
    type: "object",
    properties: {
      path: { type: "string", description: 'directory to list, relative to the workspace root (default ".")' },
    },
    required: [],
    additionalProperties: false,
  },

  async run({ path = "." }, { workspace, signal, limits: { cap, sort } = SCOUT_LIMITS }) {
    // 1. The folder: inside the workspace, not hidden, a directory.
    const folder = resolveSearchRoot(workspace, path, { filesAllowed: false });
    if ("error" in folder) return fail(folder.error);

    // 2. Its entries: the newest `cap` kept, the rest counted.
    const deadline = Date.now() + LIST_TIMEOUT_MS;
    const listing = await listFolder(workspace, folder, { cap, sort, signal, deadline });
    if ("error" in listing) return fail(listing.error);
    const { kept, shown, hidden, unnamable, special, capped, stopped } = listing;
    if (stopped === "cancelled") return fail("list_files was cancelled");

    // 3. One footer line says everything that is not shown.
    const lines = kept.map((entry) => entry.rel);
    if (shown === 0)
      lines.push(`(${escapePath(folder.rel)} has no visible entries${capped || stopped ? " among those read" : ""})`);
    const notes: string[] = [];
    const many = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;
    if (shown > cap) notes.push(`showing ${cap} of ${shown} entries, ${sort === "mtime" ? "newest first" : "by name"}`);
    if (hidden > 0) notes.push(`${many(hidden, "entry", "entries")} hidden by ignore rules or protection`);
    if (unnamable > 0) notes.push(`${unnamable} with a name that is not valid UTF-8 not listed`);
    if (special > 0) notes.push(`${many(special, "FIFO, socket or device", "FIFOs, sockets or devices")} not listed`);
    const most = formatCount(MAX_FOLDER_ENTRIES);
    if (capped) notes.push(`the folder holds more than ${most} entries; only the first ${most} read were sorted`);
    if (stopped === "deadline")
      notes.push(`listing stopped after ${LIST_TIMEOUT_MS / 1000} s, so the list may be incomplete`);
    if (shown > cap || capped || stopped) notes.push("use glob with a pattern to find the others");
    if (notes.length) lines.push(`(${notes.join("; ")})`);
    const facts = { total: shown, capped: shown > cap || capped || !!stopped };
    return ok(lines.join("\n"), `${shown} entr${shown === 1 ? "y" : "ies"}`, facts);
  },
};
