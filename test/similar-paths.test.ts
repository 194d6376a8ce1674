// read_file's "did you mean": the same name elsewhere, another extension, and near spellings,
// never a protected or hidden file, on a real tree.
import { describe, expect, it } from "vitest";
import { editDistance } from "../src/guards/similar-paths.js";
import { call, treeMaker } from "./helpers.js";

const tree = treeMaker();

describe("read_file suggests near spellings when a file is not found", () => {
  const root = tree({
    "src/app.ts": { content: "", mtime: 3_000 },
    "src/api.ts": { content: "", mtime: 1_000 },
    "src/shortly/slugs.py": { content: "", mtime: 2_000 },
    "lib/config.json": { content: "", mtime: 2_000 },
    ".env": "SECRET=hunter2\n",
    ".env.example": "SECRET=\n",
    id_rsa: "KEY\n",
    "node_modules/apps.ts": "",
    "build/app.tsx": "",
    ".gitignore": "build/\n",
  });
  const notFound = async (path: string) => (await call(root, "read_file", { path })).content;

  it.each([
    ["src/ap.ts", "src/app.ts, src/api.ts"], // one letter missing; "api" is one substitution away
    ["sluggs.py", "src/shortly/slugs.py"], // another folder and a typo
    ["src/shortly/slug.py", "src/shortly/slugs.py"],
    ["lib/confgi.json", "lib/config.json"], // a transposition is two edits
    ["SRC/APP.TS", "src/app.ts, src/api.ts"], // the same name in another case comes first
  ])("%s", async (path, suggested) => {
    expect(await notFound(path)).toBe(`Error: file not found: ${path}; did you mean: ${suggested}?`);
  });

  it.each([
    [".evn", "SECRET"], // .env is one transposition away, and protected
    ["id_rsb", "id_rsa"],
    ["src/apps.ts", "node_modules"],
    ["src/app.tsy", "build/"],
  ])("never suggests a protected or hidden file for %s", async (path, unwanted) => {
    const content = await notFound(path);
    expect(content).not.toContain(unwanted);
    expect(content).toMatch(/^Error: file not found: /);
  });

  it("suggests nothing for a name far from every file", async () => {
    expect(await notFound("src/zzzzzz.rs")).toBe(
      "Error: file not found: src/zzzzzz.rs; use glob or list_files to find it",
    );
  });

  it("counts edits and stops once they pass the limit", () => {
    expect(editDistance("ap.ts", "app.ts", 2)).toBe(1);
    expect(editDistance("confgi.json", "config.json", 2)).toBe(2);
    expect(editDistance("abc", "xyz", 1)).toBe(2);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
  });
});
