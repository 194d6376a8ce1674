// A path argument's shape, checked before it is resolved: forms that cannot name a file in the workspace (a NUL
// byte, "~", a Windows drive) and sizes whose resolving would take long get a message saying why.
import fs from "node:fs";
import path from "node:path";
import { escapePath } from "./escape.js";
import { isNamedAsShown } from "./opened.js";
import { isInside } from "./real-paths.js";

/** Longest path argument accepted: Linux's PATH_MAX. Longer ones cannot name a file anyway. */
export const MAX_PATH_CHARS = 4096;
/** Most "/"-separated segments in a path argument: resolving costs grow with the square of the count. */
export const MAX_PATH_SEGMENTS = 256;

/**
 * U+FFFD stands in for bytes that are not UTF-8 when a file name is decoded: such a name cannot be named back,
 * so every tool hides it (list_files counts it) and no path holds it, unless U+FFFD is its own (isNamedAsShown).
 */
export const UNNAMABLE = "\uFFFD";

/** Why a path argument cannot be resolved in `root`, or null when its shape is fine. */
export function pathShapeProblem(root: string, input: string, argName: string): string | null {
  if (input.includes("\0")) return `${argName} must not contain a NUL byte`;
  if (input.includes(UNNAMABLE) && (input.length > MAX_PATH_CHARS || !isNamedAsShown(path.resolve(root, input))))
    return `${argName} holds U+FFFD, the mark of a file name that is not valid UTF-8; such files cannot be named, so no tool reads or lists them`;
  // Before any work that grows with the length: an 80 KB path took 40 s to resolve.
  if (input.length > MAX_PATH_CHARS)
    return `${argName} is ${input.length} characters long, over the ${MAX_PATH_CHARS} limit`;
  if (input.split("/").length > MAX_PATH_SEGMENTS)
    return `${argName} has more than ${MAX_PATH_SEGMENTS} "/"-separated segments; give a shorter path`;
  if (input.startsWith("~"))
    return `${argName} "${escapePath(input)}": "~" is not expanded; give a path relative to the workspace root`;
  if (/^[a-zA-Z]:[\\/]|^\\\\/.test(input))
    return `${argName} "${escapePath(input)}": Windows drive and UNC paths are not supported; give a path relative to the workspace root`;
  return null;
}

/**
 * A path with "\" that names nothing is a Windows-style path: on Linux "\" is a character of a name, so
 * "lib\util.js" would be "not found". Returns the "/" form to try instead, or undefined when the path has no
 * "\", exists as written, or leaves the root.
 */
export function forwardSlashForm(root: string, input: string, lexical: string): string | undefined {
  if (!input.includes("\\") || !isInside(root, lexical) || fs.existsSync(lexical)) return undefined;
  return input.replace(/\\+/g, "/");
}

/** An absolute path is not echoed back in a message (tool output never shows host paths); a relative one is. */
export function shownArgument(input: string): string {
  return path.isAbsolute(input) ? "(an absolute path)" : `"${escapePath(input)}"`;
}
