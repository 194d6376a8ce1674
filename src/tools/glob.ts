// glob: find files by name pattern with fast-glob, newest first.
import path from "node:path";
import fg from "fast-glob";
import { type FoundFiles, findNewestFiles } from "./newest-first.js";
import { escapePath } from "./escape-path.js";
import { checkPattern } from "./patterns.js";
import { resolveSearchRoot } from "./search-path.js";
import { DEFAULT_DESIGN, fail, ok, orderOf, type Tool, type ToolDesign } from "./tool.js";

interface Args {
  pattern: string;
  path?: string;
}

/** glob as a given design makes it (Scout's own: DEFAULT_DESIGN). */
export function makeGlob(design: ToolDesign = DEFAULT_DESIGN): Tool<Args> {
  const { cap } = design;
  const description = {
    full:
      `Find files (not directories) whose path matches a glob pattern, e.g. "**/*.ts" or "src/**/test_*.py". ` +
      `Results are sorted ${design.sort === "mtime" ? "by modification time, newest first" : "by path"}, at most ${cap}; ` +
      `ignored files (.gitignore, .ignore, node_modules) and protected files are not listed. ` +
      `Use it to locate files by name; use grep to search their contents.`,
    concise: `Find files by glob pattern (e.g. "**/*.ts"), ${orderOf(design)}, at most ${cap}.`,
  }[design.descriptions];
  return {
    name: "glob",
    description,
    input_schema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "glob pattern, relative to path (e.g. **/*.ts)" },
        path: { type: "string", description: 'directory to search in, relative to the workspace root (default ".")' },
      },
      required: ["pattern"],
      additionalProperties: false,
    },

    async run({ pattern, path: input = "." }, { workspace, signal }) {
      const problem = checkPattern(pattern);
      if (problem) return fail(problem);
      const resolved = resolveSearchRoot(workspace, input, { filesAllowed: false });
      if ("error" in resolved) return fail(resolved.error);
      // A symlink given as path is searched where it points, as grep does, so each file is
      // judged (and shown) under its real path: the ignore rules are written for that one.
      const baseRel = resolved.realRel;
      // fast-glob opens a pattern's fixed leading folders ("link/" in "link/*") directly, and
      // would follow a symlink there: each is checked like a path, and must not be a symlink.
      for (const { base } of fg.generateTasks(pattern)) {
        const folder = workspace.resolveInWorkspace(path.posix.join(baseRel, base), "the folder in pattern");
        if (!folder.ok) return fail(folder.error);
        const real = workspace.toRelative(folder.abs);
        if (real !== folder.rel) {
          return fail(
            `the folder in pattern "${escapePath(folder.rel)}" goes through a symlink (it is "${escapePath(real)}"); glob does not follow symlinks, so write "${escapePath(real)}" in the pattern`,
          );
        }
      }

      let found: FoundFiles;
      try {
        found = await findNewestFiles(workspace, baseRel, pattern, { design, signal });
      } catch (error) {
        if (signal?.aborted) return fail("glob was cancelled");
        return fail(`glob pattern "${pattern}" could not be used: ${workspace.redact((error as Error).message)}`);
      }
      const where = resolved.rel === "." ? "" : ` in ${escapePath(resolved.rel)}`;
      if (found.total === 0) return ok(`No files match "${pattern}"${where}.`, "no files");

      const lines = found.newest.map((file) => escapePath(file.rel));
      if (found.total > lines.length) {
        lines.push(
          `(showing the ${design.sort === "mtime" ? `${lines.length} newest` : `first ${lines.length}`} of ${found.total} files; use a narrower pattern or path to see others)`,
        );
      }
      const summary = `${found.total} file${found.total === 1 ? "" : "s"}`;
      return ok(lines.join("\n"), summary);
    },
  };
}

export const glob = makeGlob();
