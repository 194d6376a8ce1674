// Lesson 8's graded questions: what an .ignore file hides from which tool, which names are protected, and what a hard link slips past.
import fs from "node:fs";
import path from "node:path";
import { isList, isText, type Question } from "./answers.js";
import { inSampleCopy, inScratch, tool } from "./live.js";

/** Lesson 8's paths to try, by letter, in a scratch folder that holds each of them. */
const PATHS: Record<string, string> = {
  a: ".env",
  b: ".env.example",
  c: ".env.local",
  d: "keys/id_rsa.pub",
  e: "settings",
};
const FAKE_SECRET = "SHORTLY_SECRET_KEY=not-a-real-secret";

/** A scratch folder holding a fake .env, the files PATHS names, and `settings`, a symlink to .env. */
function secretsFolder(root: string): void {
  fs.writeFileSync(path.join(root, ".env"), `${FAKE_SECRET}\n`);
  for (const rel of [".env.example", ".env.local", "keys/id_rsa.pub"]) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), "placeholder\n");
  }
  fs.symlinkSync(".env", path.join(root, "settings"));
}

export const lesson08: Question[] = [
  {
    n: 1,
    ask: "create lessons/sample-project/src/.ignore holding `api.py`: which of the four tools no longer show src/shortly/api.py? (their names; then delete the file and run node lessons/pin-mtimes.mjs)",
    hint: "Try list_files on src/shortly, glob **/*.py, grep BASE_URL and read_file on the file itself. Ignore rules shape what a search walks; naming a file is another matter.",
    judge: isList(() =>
      inSampleCopy(async (root) => {
        fs.writeFileSync(path.join(root, "src/.ignore"), "api.py\n");
        const tries: [string, unknown][] = [
          ["list_files", { path: "src/shortly" }],
          ["glob", { pattern: "**/*.py" }],
          ["grep", { pattern: "BASE_URL" }],
          ["read_file", { path: "src/shortly/api.py" }],
        ];
        const hiding: string[] = [];
        for (const [name, input] of tries) {
          const result = await tool(name, input, root);
          const shown = name === "read_file" || /(^|\/)api\.py(:|$)/m.test(result.content); // not test_api.py
          if (result.isError || !shown) hiding.push(name);
        }
        return hiding;
      }),
    ),
  },
  {
    n: 2,
    ask: `in a scratch folder holding them, which paths does read_file refuse as protected? ${Object.entries(PATHS)
      .map(([letter, rel]) => `${letter}) ${rel}`)
      .join("  ")} (settings is a symlink to .env); write the letters`,
    hint: "Make the folder (ln -s .env settings) and try each with npx scout tool read_file --cwd. DENIED_GLOBS and isDenied in src/guards/protected.ts; resolveInWorkspace checks the name given and the real one.",
    judge: isList(() =>
      inScratch(async (root) => {
        secretsFolder(root);
        const refused: string[] = [];
        for (const [letter, rel] of Object.entries(PATHS)) {
          const result = await tool("read_file", { path: rel }, root);
          if (result.isError && result.content.includes("protected")) refused.push(letter);
        }
        return refused;
      }),
    ),
  },
  {
    n: 3,
    ask: 'in a scratch folder, write a .env and hard-link it: `ln .env notes.txt`. Does `scout tool read_file \'{"path":"notes.txt"}\'` show the secret? (yes or no)',
    hint: "A hard link is a second name for the same file: no symlink to follow, no protected name to match. What could a check on names or real paths see?",
    judge: isText(() =>
      inScratch(async (root) => {
        fs.writeFileSync(path.join(root, ".env"), `${FAKE_SECRET}\n`);
        fs.linkSync(path.join(root, ".env"), path.join(root, "notes.txt"));
        const result = await tool("read_file", { path: "notes.txt" }, root);
        return result.content.includes(FAKE_SECRET) ? "yes" : "no";
      }),
    ),
  },
];
