// Ctrl-Z on a raw terminal: Scout stops itself the way the terminal would have, and comes back whole on `fg`.
//
// In raw mode Ctrl-Z is a byte, not SIGTSTP, so Scout sends the signal
// itself, to its whole process group as the terminal does: under `npm start`
// npm and its shell are in that group, and stopping only Scout would leave
// npm in the foreground and the terminal frozen. A shell with job control
// then takes the terminal back. Without one (Scout started by `script`, by
// a program, or `exec`ed from a login), the kernel drops the signal, so
// Scout says so and stays.
import fs from "node:fs";

/** What a process's /proc stat line says about its place in the job tree. */
interface ProcStat {
  ppid: number;
  pgrp: number;
  session: number;
}

function procStat(pid: number | "self"): ProcStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid pgrp session …": comm may hold spaces and parentheses, so read after the last ")".
    const [, ppid, pgrp, session] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) };
  } catch {
    return undefined;
  }
}

/**
 * True when a stop would be noticed: some ancestor outside Scout's process
 * group, in the same session, is a shell that can resume it (POSIX: the
 * group is not orphaned). Without /proc (macOS), assume a shell is there.
 */
export function canSuspend(): boolean {
  const self = procStat("self");
  if (!self) return true;
  for (let pid = self.ppid, depth = 0; pid > 1 && depth < 64; depth++) {
    const parent = procStat(pid);
    if (!parent) return false;
    if (parent.pgrp !== self.pgrp) return parent.session === self.session;
    pid = parent.ppid;
  }
  return false;
}

/**
 * Hands the terminal back (`release`), stops the process group, and on
 * continuing takes the terminal again (`resume`). Returns false, touching
 * nothing, when no shell could resume Scout.
 */
export function suspend(release: () => void, resume: () => void): boolean {
  if (!canSuspend()) return false;
  release();
  let resumed = false;
  const again = () => {
    if (resumed) return;
    resumed = true;
    resume();
  };
  process.once("SIGCONT", again);
  process.kill(0, "SIGTSTP");
  // kill returns once the group has been stopped and continued (or the signal was dropped after all).
  setImmediate(() => {
    process.off("SIGCONT", again);
    again();
  });
  return true;
}
