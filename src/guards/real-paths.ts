// Where a path really is: the real path of what exists of it, and whether one path lies inside another.
import fs from "node:fs";
import path from "node:path";

/** Whether abs lies inside root (or is root), comparing path segments: /work/app-evil is not inside /work/app. */
export function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  // "..foo" is a name inside the root; ".." and "../x" are not.
  return rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** realpath of the path, or of its deepest existing ancestor joined with the rest. */
export function realpathOfDeepestExisting(abs: string): string {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return abs;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}
