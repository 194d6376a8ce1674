// Reads a folder's entries up to a cap, until a deadline or Ctrl-C, a large folder a few at a time: a folder of a
// million entries costs list_files and glob bounded time and memory, and never holds the thread for long.
import fs from "node:fs";
import type { WorkspaceView as Workspace } from "./workspace-view.js";

/**
 * Most entries read from one folder. A million took list_files 32 s (and 366 MB) and glob 51 s (1.3 GB), all of
 * it before anything could stop them; past this, the rest of the folder is not read, and the result says so.
 */
export const MAX_FOLDER_ENTRIES = 100_000;
/** Entries read between two looks at Ctrl-C and the deadline (a turn of the event loop, so both can arrive). */
const ENTRIES_BETWEEN_LOOKS = 1_000;

export interface EntriesStop {
  signal?: AbortSignal;
  /** Date.now() past which reading stops. */
  deadline?: number;
}

/** How reading a folder ended: whole, at the cap (`capped`: it holds more), or stopped early. */
export interface EntriesRead {
  capped: boolean;
  stopped?: "deadline" | "cancelled";
}

/**
 * A folder whose size, as stat reports it, is at most this many bytes is read in one readdir, where the folder
 * system's sizes grow with the entries: ext4 and xfs by at least 12 bytes an entry, tmpfs by 20, btrfs by twice
 * the name, so at most ~8,000 entries, read in milliseconds. Most code folders are one 4 KiB block.
 */
const SMALL_FOLDER_BYTES = 16 * 1024;
/**
 * Those folder systems, by statfs magic number: ext2-4, xfs, btrfs, tmpfs. Not overlayfs (Docker's), whose merged
 * folder shows the size of its upper layer only, nor ZFS (a size that counts entries), NFS or FUSE: those stream.
 */
const SIZES_GROW_WITH_ENTRIES = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994]);
/** Per device: whether its folder sizes say how many entries a folder holds (one statfs a device, not a folder). */
const sizesCount = new Map<number, boolean>();

/** Whether a folder is small enough to read at once, as its size and its folder system say. */
function isSmallFolder(dir: string): boolean {
  const { size, dev } = fs.statSync(dir);
  if (size === 0 || size > SMALL_FOLDER_BYTES) return false;
  let trusted = sizesCount.get(dev);
  if (trusted === undefined) {
    try {
      trusted = SIZES_GROW_WITH_ENTRIES.has(fs.statfsSync(dir).type);
    } catch {
      trusted = false;
    }
    sizesCount.set(dev, trusted);
  }
  return trusted;
}

/**
 * Calls onEntry with each entry of a folder, and stops at MAX_FOLDER_ENTRIES, at the deadline, or when the signal
 * aborts. Throws what reading the folder throws (it vanished, or cannot be read). The order is the directory's
 * (libuv sorts a small folder's by name): every caller sorts what it keeps.
 *
 * A small folder is read at once. A larger one is streamed with fs.opendir (readdir would hold every entry at
 * once), ENTRIES_BETWEEN_LOOKS entries between two turns of the event loop, read synchronously: the async Dir
 * costs three trips to libuv's thread pool for a folder of 20 entries. Small folders are not streamed because
 * every Dir costs too (issue 28): on the bench tree's 2,852 folders, walking with opendir took 225 ms and with
 * a stat and a readdir each, 130 ms.
 */
export async function forEachEntry(
  dir: string,
  { signal, deadline = Number.POSITIVE_INFINITY }: EntriesStop,
  onEntry: (entry: fs.Dirent) => void,
): Promise<EntriesRead> {
  if (signal?.aborted) return { capped: false, stopped: "cancelled" };
  if (Date.now() > deadline) return { capped: false, stopped: "deadline" };
  if (isSmallFolder(dir)) {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    // Only a folder system that misreports sizes gets here with more: the cap holds all the same.
    for (const entry of entries.slice(0, MAX_FOLDER_ENTRIES)) onEntry(entry);
    return { capped: entries.length > MAX_FOLDER_ENTRIES };
  }
  const folder = fs.opendirSync(dir, { bufferSize: 256 });
  try {
    for (let count = 0; ; count++) {
      if (count > 0 && count % ENTRIES_BETWEEN_LOOKS === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal?.aborted) return { capped: false, stopped: "cancelled" };
        if (Date.now() > deadline) return { capped: false, stopped: "deadline" };
      }
      const entry = folder.readSync();
      if (entry === null) return { capped: false };
      if (count === MAX_FOLDER_ENTRIES) return { capped: true };
      onEntry(entry);
    }
  } finally {
    folder.closeSync();
  }
}

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: fs.Dirent[]) => void;

/**
 * fs.readdir, less the folders the workspace hides (fast-glob always asks
 * for Dirents). Files are checked after matching: most do not match. Each
 * folder is streamed (forEachEntry), so one of a million entries is read
 * only up to MAX_FOLDER_ENTRIES, and not past the deadline or a Ctrl-C.
 */
export function withoutHiddenFolders(
  workspace: Workspace,
  stop: EntriesStop,
  onRead: (read: EntriesRead) => void,
): typeof fs.readdir {
  const readdir = (dir: string, _options: { withFileTypes: true }, callback: ReaddirCallback) => {
    const entries: fs.Dirent[] = [];
    forEachEntry(dir, stop, (entry) => entries.push(entry)).then(
      (read) => {
        onRead(read);
        const relDir = workspace.toRelative(dir);
        // Before the checks below, which read this folder's ignore files; only a whole listing says one is absent.
        if (!read.capped && !read.stopped) workspace.ignoreRules.noteListing(relDir === "." ? "" : relDir, entries);
        const prefix = relDir === "." ? "" : `${relDir}/`;
        callback(
          null,
          entries.filter((entry) => !entry.isDirectory() || workspace.isVisible(prefix + entry.name, true)),
        );
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
  return readdir as typeof fs.readdir;
}
