// What the guards may ask of the workspace, as an interface: the core's Workspace has these, and the guards
// depend on no core code (guards ← core).
import type { IgnoreRules } from "./ignore-rules.js";

export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; error: string };

export interface WorkspaceView {
  readonly root: string;
  readonly ignoreRules: IgnoreRules;
  toRelative(abs: string): string;
  resolveInWorkspace(given: string, argName?: string): Resolved;
  isVisible(relPath: string, isDir?: boolean): boolean;
  isReachedDirectly(relPath: string): boolean;
  /** Says at the end of the result that an argument was read as meant, not as written. */
  noteTakenAsMeant(note: string): void;
}
