// Scout on a real pseudo-terminal, for tests: util-linux `script` runs the CLI on a new pty (helpers.ts, startCli).
//
// Scout keeps the terminal in raw mode, so Ctrl-C / Ctrl-D arrive as the bytes
// a keyboard sends (\x03 / \x04), and the pty sends no SIGINT to anyone.
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import { afterEach } from "vitest";
import { type Launch, startCli } from "./helpers.js";

/** Long enough for a slow CI machine; a watchdog, not a timing assertion. */
export const WAIT_MS = 30_000;

let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children = [];
});

export interface PtyOptions {
  /** "pty" (default) runs the CLI itself; "pty-npm-start" through `npm start`, as a learner does. */
  launch?: Launch;
  /** The arguments; default `--cwd ROOT` and `extraArgs`. */
  args?: string[];
  extraArgs?: string[];
  /** The CLI to start (default dist/scout.cjs; a module probe's `cli`). */
  cli?: string;
}

/** Runs Scout on a pseudo-terminal in `root`, offline, with no history file and no saved sessions unless `env` says otherwise. */
export function scoutOnPty(root: string, env: Record<string, string | undefined> = {}, options: PtyOptions = {}) {
  let onData = () => {};
  const {
    child,
    output,
    exited: run,
  } = startCli(options.args ?? ["--cwd", root, ...(options.extraArgs ?? [])], {
    launch: options.launch ?? "pty",
    cli: options.cli,
    env: {
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: undefined,
      NO_COLOR: undefined,
      npm_config_update_notifier: "false",
      SCOUT_HISTORY: "", // no history file, unless a test asks for one
      SCOUT_SESSIONS: "", // no saved sessions either
      ...env,
    },
    timeoutMs: 4 * WAIT_MS, // a watchdog for the whole session, not a timing assertion
    onData: () => onData(),
  });
  children.push(child);
  const exited = run.then((result) => result.code);
  /** Resolves when the terminal has printed more than `before` characters. */
  const echoed = (before: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no echo after a key:\n${plain(output.all)}`)), WAIT_MS);
      onData = () => {
        if (output.all.length === before) return;
        clearTimeout(timer);
        resolve();
      };
      onData();
    });
  return {
    exited,
    /** Everything the terminal showed, colour codes left in. */
    raw: () => output.all,
    /** What a person reads: no colour codes, no \r. */
    screen: () => plain(output.all),
    /** Types a line (Enter is \r on a terminal), or raw key bytes. */
    type: (keys: string) => child.stdin.write(keys),
    /**
     * Types keys one at a time, as a person does, each after the echo of the
     * one before (readline takes keys that arrive in one chunk as a paste).
     */
    async keys(...keys: string[]): Promise<void> {
      for (const key of keys) {
        const before = output.all.length;
        child.stdin.write(key);
        await echoed(before);
      }
    },
    /** Resolves when the screen matches; fails with the screen so far if it never does. */
    waitFor(pattern: RegExp, raw = false): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`never saw ${pattern} on the terminal:\n${plain(output.all)}`)),
          WAIT_MS,
        );
        onData = () => {
          if (!pattern.test(raw ? output.all : plain(output.all))) return;
          clearTimeout(timer);
          resolve(); // keys typed from here on are read: Scout's keyboard holds what comes during a turn
        };
        onData();
      });
    },
    /** Sets the pty's size, as a person resizing the window does: the kernel sends SIGWINCH. */
    resize(columns: number, rows = 24): void {
      execFileSync("stty", ["-F", ptyDevice(child.pid as number), "cols", String(columns), "rows", String(rows)]);
    },
  };
}

/** The pty `script` made: what its child (the CLI or the shell) has as stdin. */
function ptyDevice(scriptPid: number): string {
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === scriptPid)
        return fs.readlinkSync(`/proc/${pid}/fd/0`);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no child of script (pid ${scriptPid}) found`);
}

/** Colour and cursor codes and \r removed (bracketed-paste switches, ESC[?2004h, included). */
export function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
}

/** n prompts on the screen. */
export const prompts = (n: number) => new RegExp(`(you > [^]*){${n}}`);

/**
 * The rows a terminal `columns` wide shows after `raw`: applies \r, \n, cursor-up (ESC[nA), clear-below (ESC[J),
 * clear-right (ESC[K) and the wrap at the last column (as xterm: the next character, not the cursor, wraps); colour dropped.
 */
export function drawnRows(raw: string, columns = Number.POSITIVE_INFINITY): string[] {
  const rows = [""];
  let row = 0;
  let col = 0;
  const text = raw.replace(/\x1b\[[0-9;?]*[a-zA-IK-Z]/g, (code) => (/[AK]$/.test(code) ? code : ""));
  for (let i = 0; i < text.length; i++) {
    const move = /^\x1b\[(\d*)([AJK])/.exec(text.slice(i));
    if (move) {
      if (move[2] === "A") row = Math.max(0, row - Number(move[1] || 1));
      else if (move[2] === "K") rows[row] = rows[row].slice(0, col);
      else {
        rows[row] = rows[row].slice(0, col);
        rows.length = row + 1;
      }
      i += move[0].length - 1;
    } else if (text[i] === "\r") col = 0;
    else if (text[i] === "\n") {
      row++;
      col = 0;
      if (rows.length <= row) rows.push("");
    } else {
      if (col >= columns) {
        row++;
        col = 0;
        if (rows.length <= row) rows.push("");
      }
      rows[row] = rows[row].slice(0, col).padEnd(col) + text[i] + rows[row].slice(col + 1);
      col++;
    }
  }
  return rows;
}
