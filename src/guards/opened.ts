// Verifying what was opened, not only what was checked: a folder swapped for a symlink between the check and
// the open must not hand a tool a file outside the workspace.
//
// resolveInWorkspace checks a path, then the tool opens it; another process can swap a folder on the way for a
// symlink in between. So a file is opened with O_NOFOLLOW (its last segment cannot be a symlink), and the real
// path of the open descriptor (/proc/self/fd/N on Linux) must be the path that was checked. Where /proc is
// missing (macOS), only the check before the open remains.
import fs from "node:fs";
import path from "node:path";

/** What openChecked opened: a descriptor and its stat, taken from the descriptor itself. */
export interface Opened {
  fd: number;
  stat: fs.Stats;
  /** The path the kernel says the descriptor is, or undefined where it cannot say (no /proc). */
  realPath: string | undefined;
}

/**
 * Why openChecked opened nothing: no such file; what it opened was not what was checked; or one of the
 * reasons of UNOPENABLE, each said in its own words (a mode-000 file is not "not found").
 */
export type NotOpened = "missing" | "moved" | keyof typeof UNOPENABLE;

/** What a message says after the path, for each reason a path that exists could not be opened. */
export const UNOPENABLE = {
  loop: "is a symlink loop (its links lead back to themselves)",
  dangling: "is a symlink to something that does not exist",
  denied: "cannot be read: permission denied",
  special: "is not a regular file (a socket, FIFO or device)",
};

/** Why a path could not be opened or stat'ed, from the error's code. */
export function whyNotOpened(abs: string, error: unknown): NotOpened {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "denied";
  if (code === "ENXIO" || code === "EOPNOTSUPP") return "special"; // a Unix socket cannot be opened
  if (code === "ELOOP" || code === "ENOENT") {
    // ELOOP with O_NOFOLLOW: the last segment is a symlink. A loop, one to nowhere, or one swapped in.
    try {
      fs.realpathSync(abs);
    } catch (real) {
      const realCode = (real as NodeJS.ErrnoException).code;
      if (realCode === "ELOOP") return "loop";
      if (realCode === "ENOENT" && isSymlink(abs)) return "dangling";
      return "missing";
    }
    return code === "ELOOP" ? "moved" : "missing";
  }
  return "missing";
}

function isSymlink(abs: string): boolean {
  try {
    return fs.lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Opens a path for reading, never through a symlink in its last segment (O_NOFOLLOW: ELOOP instead) and
 * never blocking (O_NONBLOCK: a FIFO put there cannot hold the open). Throws what open(2) throws.
 */
export function openNoFollow(file: string): number {
  return fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
}

/** Opens a checked real path for reading (a file or a folder); the caller looks at `stat` before reading. */
export function openChecked(abs: string): Opened | NotOpened {
  let fd: number;
  try {
    fd = openNoFollow(abs);
  } catch (error) {
    return whyNotOpened(abs, error);
  }
  const realPath = realPathOfDescriptor(fd);
  if (realPath !== undefined && realPath !== abs) {
    fs.closeSync(fd);
    return "moved";
  }
  return { fd, stat: fs.fstatSync(fd), realPath };
}

/** The path the kernel says an open descriptor is, or undefined where it cannot say (no /proc). */
export function realPathOfDescriptor(fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** A folder opened and verified: its entries are read through the descriptor, so a swap after the check is useless. */
export function openCheckedFolder(abs: string): { fd: number; listPath: string } | NotOpened {
  const opened = openChecked(abs);
  if (typeof opened === "string") return opened;
  if (!opened.stat.isDirectory()) {
    fs.closeSync(opened.fd);
    return "moved";
  }
  // /proc/self/fd/N is the folder that was opened, whatever its path names now.
  const listPath = opened.realPath === undefined ? abs : `/proc/self/fd/${opened.fd}`;
  return { fd: opened.fd, listPath };
}

/**
 * Remembers, per folder, whether its real path is the path itself: then nothing on the way is a symlink, and
 * a file found there by a walk (fast-glob, rg) was really found inside the workspace. One realpath per folder.
 */
export class DirectFolders {
  private cache = new Map<string, boolean>();
  constructor(private readonly root: string) {}

  /** True when the folder holding a workspace-relative file is reached without any symlink. */
  holds(relFile: string): boolean {
    const slash = relFile.lastIndexOf("/");
    const relDir = slash === -1 ? "" : relFile.slice(0, slash);
    let direct = this.cache.get(relDir);
    if (direct === undefined) {
      const lexical = path.join(this.root, relDir);
      try {
        direct = fs.realpathSync.native(lexical) === lexical;
      } catch {
        direct = false; // gone: nothing found there is shown
      }
      this.cache.set(relDir, direct);
    }
    return direct;
  }
}

/**
 * Whether a path with U+FFFD in it names a file as it is written: a name whose own character is U+FFFD, not
 * one of bytes that did not decode (those are not found under their decoded name).
 */
export function isNamedAsShown(abs: string): boolean {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, ENAMETOOLONG: no such file either
  }
}
