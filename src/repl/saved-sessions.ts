// Sessions that resume: every REPL conversation is kept under the home folder, one file per session.
//
// A file holds the history Scout sends (questions, tool calls and results,
// answers) and its workspace, written 0600 after each answered question,
// in ~/.scout/sessions (folder 0700), or $SCOUT_SESSIONS; SCOUT_SESSIONS=
// (empty) keeps none. `--continue` resumes the newest of this workspace,
// `--resume` lists the recent ones to pick from, /clear starts a new file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { MessageParam } from "../core/loop.js";
import { readPersonFile } from "../person-file.js";
import { writeReplacing } from "./person-file.js";
import { say } from "./session.js";

/** A saved session larger than this is not read back (it would not fit a request anyway). */
export const MAX_SESSION_BYTES = 8 * 1024 * 1024;
/** How many of the newest session files --continue and --resume look at. */
export const RECENT_SESSIONS = 20;

/** Where sessions are kept: $SCOUT_SESSIONS, or ~/.scout/sessions; SCOUT_SESSIONS set to "" keeps none. */
export function sessionsFolder(env = process.env): string | undefined {
  if (env.SCOUT_SESSIONS !== undefined) return env.SCOUT_SESSIONS || undefined;
  return path.join(os.homedir(), ".scout", "sessions");
}

interface SavedSession {
  workspace: string;
  updated: string;
  history: MessageParam[];
}

/** A session found on disk: its file, when it was last written, its first question, how many questions. */
export interface FoundSession {
  file: string;
  updated: string;
  first: string;
  questions: number;
  history: MessageParam[];
}

export class SessionStore {
  private file?: string;
  private warned = false;

  constructor(
    private readonly folder: string | undefined,
    private readonly workspace: string,
  ) {}

  /** Where this session is kept, for the banner. */
  describe(): string {
    return this.folder ? `sessions are kept in ${this.folder} (SCOUT_SESSIONS= keeps none)` : "no session is kept";
  }

  /** The next save goes to a new file: /clear. */
  startNew(): void {
    this.file = undefined;
  }

  /** Saves go on into `found`'s file. */
  resume(found: FoundSession): void {
    this.file = found.file;
  }

  save(history: MessageParam[]): void {
    if (!this.folder || history.length === 0) return;
    try {
      fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      const updated = new Date().toISOString();
      this.file ??= path.join(this.folder, `${updated.replace(/[:.]/g, "-")}-${process.pid}.json`);
      const saved: SavedSession = { workspace: this.workspace, updated, history };
      writeReplacing(this.file, `${JSON.stringify(saved)}\n`);
    } catch (error) {
      if (!this.warned) say(`(the session is not saved: ${(error as Error).message}; SCOUT_SESSIONS= turns it off)`);
      this.warned = true;
    }
  }

  /** This workspace's sessions, newest first, among the RECENT_SESSIONS newest files; unreadable ones left out. */
  recent(): FoundSession[] {
    if (!this.folder) return [];
    let names: string[];
    try {
      names = fs.readdirSync(this.folder).filter((name) => name.endsWith(".json"));
    } catch {
      return [];
    }
    const found: FoundSession[] = [];
    for (const name of names.sort().reverse().slice(0, RECENT_SESSIONS)) {
      const file = path.join(this.folder, name);
      try {
        const saved = JSON.parse(
          readPersonFile(file, { option: "", noFollow: true, maxBytes: MAX_SESSION_BYTES }),
        ) as SavedSession;
        if (saved.workspace !== this.workspace || !Array.isArray(saved.history)) continue;
        const questions = saved.history.filter((m) => m.role === "user" && typeof m.content === "string");
        const first = String(questions[0]?.content ?? "").split("\n")[0];
        found.push({ file, updated: saved.updated, first, questions: questions.length, history: saved.history });
      } catch {
        // not a session file, or not readable as one: not offered
      }
    }
    return found;
  }
}
