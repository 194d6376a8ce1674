// Issue 25: the scenarios where peers' own tool tests (Cline, Continue, pi, Codex, Goose) found Scout worse,
// one describe block per cause, each run as the model gets it.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SMART_CASE } from "../src/core/tool.js";
import { MAX_ENTRIES_READ } from "../src/guards/similar-paths.js";
import { CLI, call, makeTree } from "./helpers.js";

const PROTECTED_NOW = [
  // issue 25, cause 2 (Continue's security tests)
  "a.secret",
  "b.secrets",
  "gh.token",
  "auth.json",
  "secrets/db.txt",
  ".secrets/api.txt",
  ".gcp/key.json",
  "server.key.backup",
  "backup.env.old",
  // issue 27.11
  ".config/git/credentials",
  ".local/share/fish/fish_history",
  ".zhistory",
  ".histfile",
  ".Rhistory",
  ".dbshell",
  ".julia/logs/repl_history.jl",
  ".lesshst",
  ".yarnrc",
  ".envrc.local",
  // backups and editor copies of listed names: one rule
  "key.pem.bak",
  "server.key~",
  ".git-credentials.bak",
  ".netrc.bak",
  ".pgpass~",
  ".npmrc.orig",
  ".key.pem.swp",
  "..netrc.swp",
  ".docker/config.json.old",
];
const STILL_READABLE = [
  "config.json",
  "settings.json",
  "config.json.bak",
  "notes.txt~",
  "src/token.ts",
  ".env.example",
];

describe("cause 2: the protected list covers what credential stores use, and backups of every listed name", () => {
  const root = makeTree(Object.fromEntries([...PROTECTED_NOW, ...STILL_READABLE].map((file) => [file, "MARK_Q7\n"])));

  it("read_file refuses each, naming the reason", async () => {
    for (const file of PROTECTED_NOW) {
      const result = await call(root, "read_file", { path: file });
      expect(result.content, file).toMatch(/is protected/);
    }
  });

  it("glob, grep and list_files never show them; ordinary files and their backups stay visible", async () => {
    const glob = (await call(root, "glob", { pattern: "**/*" })).content.split("\n").sort();
    const grep = (await call(root, "grep", { pattern: "MARK_Q7" })).content
      .split("\n")
      .map((line) => line.replace(/:1:MARK_Q7$/, ""))
      .sort();
    const listed = (await call(root, "list_files", {})).content.split("\n");
    expect(glob).toEqual([...STILL_READABLE].sort());
    expect(grep).toEqual([...STILL_READABLE].sort());
    for (const file of PROTECTED_NOW.filter((name) => !name.includes("/"))) expect(listed).not.toContain(file);
    for (const file of STILL_READABLE)
      expect((await call(root, "read_file", { path: file })).isError, file).toBe(false);
  });
});

describe("cause 3: grep patterns rg can run, and rg's errors in words the model can act on", () => {
  const root = makeTree({ "a.txt": "price: 42 EUR\nfoofoo bar\nC:\\dir\\\nTODO one\ntodo two\n" });

  it("look-around and backreferences work (rg picks PCRE2 where the pattern needs it)", async () => {
    expect((await call(root, "grep", { pattern: "\\d+(?= EUR)" })).content).toBe("a.txt:1:price: 42 EUR");
    expect((await call(root, "grep", { pattern: "(foo)\\1" })).content).toBe("a.txt:2:foofoo bar");
  });

  it("rg's advice to pass --pcre2 or --multiline never reaches the model", async () => {
    for (const pattern of ["bar\\nC", "bar\nC"]) {
      const multiline = await call(root, "grep", { pattern });
      expect(multiline.content).not.toMatch(/--multiline|--pcre2|-U/);
      expect(multiline.content).toContain("grep matches one line at a time");
    }
    expect((await call(root, "grep", { pattern: "[^\\n]zzz" })).content).not.toContain("one line at a time");
    const unclosed = await call(root, "grep", { pattern: "make_slug(" });
    expect(unclosed.content).toMatch(/^Error: rg could not search: rg: regex parse error:\n/);
    expect(unclosed.content).toContain("unclosed group");
    expect(unclosed.content).not.toMatch(/PCRE2|~~~/);
    expect(unclosed.content).toContain('To match "(" or ")" literally, escape it');
  });

  it("a trailing backslash is called that, not an unclosed group", async () => {
    const result = await call(root, "grep", { pattern: "dir\\" });
    expect(result.content).toBe(
      'Error: pattern ends with a lone "\\", which escapes nothing; to match a backslash write it twice ("\\\\")',
    );
    expect((await call(root, "grep", { pattern: "dir\\\\" })).content).toBe("a.txt:3:C:\\dir\\");
  });
});

describe("also found: one case rule for grep and glob, and a budget note that names real arguments", () => {
  const root = makeTree({ "Notes.TXT": "TODO one\ntodo two\n" });

  it("both use smart case, and both descriptions say it in the same words", async () => {
    expect((await call(root, "grep", { pattern: "todo" })).content).toBe("Notes.TXT:1:TODO one\nNotes.TXT:2:todo two");
    expect((await call(root, "grep", { pattern: "TODO" })).content).toBe("Notes.TXT:1:TODO one");
    expect((await call(root, "glob", { pattern: "*.txt" })).content).toBe("Notes.TXT");
    const { tools } = await import("../src/core/scout.js");
    for (const name of ["grep", "glob"])
      expect(tools.find((tool) => tool.name === name)?.description).toContain(SMART_CASE);
  });

  it("a grep result cut at the budget advises grep's own arguments, never a limit grep does not have", async () => {
    const long = Array.from({ length: 100 }, (_, i) => `${"x".repeat(180)} MATCH ${i}`).join("\n");
    const deep = `${"d".repeat(100)}/${"e".repeat(100)}`;
    const wide = makeTree(Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`${deep}/f${i}.txt`, long])));
    const result = await call(wide, "grep", { pattern: "MATCH" });
    expect(result.content).toMatch(/result cut at the 30,000-character budget/);
    expect(result.content).not.toContain("limit");
    expect(result.content).toMatch(/ask for less: a narrower pattern, path or include, or less context\)$/);
  });
});

describe("cause 5: arguments a model commonly gets slightly wrong are taken as meant, and the result says so", () => {
  const root = makeTree({ "a.txt": Array.from({ length: 150 }, (_, i) => `line ${i + 1}`).join("\n") });

  it("limit 3000 is clamped to the cap", async () => {
    const result = await call(root, "read_file", { path: "a.txt", limit: 3000 });
    expect(result.isError).toBe(false);
    const lines = result.content.split("\n");
    expect(lines.at(-2)).toBe("(lines 1-100 of 150; call read_file with offset=101 to continue)");
    expect(lines.at(-1)).toBe("(arguments taken as meant: limit 3000 is over its maximum, 100, which was used)");
  });

  it('"5" for a number is the number 5; "1.5", "ten" and 0 are still refused', async () => {
    const result = await call(root, "read_file", { path: "a.txt", offset: "5", limit: "2" });
    expect(result.content).toBe(
      '5\tline 5\n6\tline 6\n(lines 5-6 of 150; call read_file with offset=7 to continue)\n(arguments taken as meant: offset was the string "5", read as the number 5; limit was the string "2", read as the number 2)',
    );
    expect((await call(root, "grep", { pattern: "line 14[89]", context: "9" })).content.split("\n").at(-1)).toBe(
      '(arguments taken as meant: context was the string "9", read as the number 9; context 9 is over its maximum, 5, which was used)',
    );
    // What has no plain meaning is still refused: a number under its minimum, a fraction, a word.
    expect((await call(root, "read_file", { path: "a.txt", offset: 0 })).content).toBe(
      'Error: argument "offset" must be at least 1, got 0',
    );
    expect((await call(root, "read_file", { path: "a.txt", offset: "1.5" })).isError).toBe(true);
    expect((await call(root, "read_file", { path: "a.txt", limit: "ten" })).isError).toBe(true);
  });
});

describe("cause 4: path forms with one obvious meaning are taken in it", () => {
  const root = makeTree({ "src/file.ts": "export const one = 1;\n", "top.txt": "top\n" });

  it('src\\file.ts reads src/file.ts, and the footer says "/" is the separator', async () => {
    expect((await call(root, "read_file", { path: "src\\file.ts" })).content).toBe(
      '1\texport const one = 1;\n(lines 1-1 of 1)\n(path "src\\file.ts" was taken as "src/file.ts": Scout\'s separator is "/")',
    );
  });

  it("an empty path is the root, as the default is", async () => {
    expect((await call(root, "list_files", { path: "" })).content).toBe((await call(root, "list_files", {})).content);
    expect((await call(root, "grep", { pattern: "top", path: "" })).content).toBe("top.txt:1:top");
    expect((await call(root, "glob", { pattern: "*.txt", path: "" })).content).toBe("top.txt");
  });
});

describe("cause 1: a near-miss name that differs only in invisible or look-alike characters is read", () => {
  const screenshot = "Screenshot 2024-05-02 at 4.42.48\u202fPM.png";
  const root = makeTree({
    [`shots/${screenshot}`]: "not really a png\n",
    "docs/cafe\u0301.md": "NFD accent\n", // as macOS writes names
    "docs/it\u2019s.md": "curly apostrophe\n",
    "docs/two\u00a0a.txt": "one\n",
    "docs/two\u2007a.txt": "two\n",
  });

  it("reads the one file that matches after normalising, and says so in the footer with the characters visible", async () => {
    const asked = "shots/Screenshot 2024-05-02 at 4.42.48 PM.png";
    expect((await call(root, "read_file", { path: asked })).content).toBe(
      `1\tnot really a png\n(lines 1-1 of 1)\n(read shots/Screenshot 2024-05-02 at 4.42.48\\u202fPM.png, the one file whose name differs from ${asked} only in Unicode spaces, quotes or accents)`,
    );
    expect((await call(root, "read_file", { path: "docs/café.md" })).content).toMatch(/^1\tNFD accent\n/);
    expect((await call(root, "read_file", { path: "docs/it's.md" })).content).toMatch(/^1\tcurly apostrophe\n/);
  });

  it("suggests, never guesses, when two files match; the suggestion shows what differs", async () => {
    expect((await call(root, "read_file", { path: "docs/two a.txt" })).content).toMatch(
      /^Error: file not found: docs\/two a\.txt; did you mean: docs\/two\\u(2007|00a0)a\.txt, docs\/two\\u(2007|00a0)a\.txt\?$/,
    );
    expect((await call(root, "read_file", { path: "shots/Screenshot 2024-05-02 at 4.42.48 PM.jpg" })).content).toBe(
      "Error: file not found: shots/Screenshot 2024-05-02 at 4.42.48 PM.jpg; did you mean: shots/Screenshot 2024-05-02 at 4.42.48\\u202fPM.png?",
    );
  });
});

/**
 * Runs the built CLI as an unprivileged user (nobody, through util-linux setpriv) when the tests run as root,
 * where mode 000 stops no read. Undefined when that cannot be done here: the test then says it was skipped.
 */
function asUnprivileged(): ((args: string[], cwd: string) => Promise<string>) | undefined {
  const run = (command: string, args: string[], cwd: string) =>
    new Promise<string>((resolve) =>
      execFile(command, args, { cwd, encoding: "utf8" }, (_error, stdout, stderr) => resolve(stdout + stderr)),
    );
  if (process.getuid?.() !== 0) return (args, cwd) => run(process.execPath, [CLI, ...args], cwd);
  const drop = ["--reuid=65534", "--regid=65534", "--clear-groups"];
  try {
    if (execFileSync("setpriv", [...drop, "id", "-u"], { encoding: "utf8" }).trim() !== "65534") return undefined;
  } catch {
    return undefined;
  }
  return (args, cwd) => run("setpriv", [...drop, process.execPath, CLI, ...args], cwd);
}

describe("issue 27.16: each path that cannot be read gets its true reason", () => {
  const unprivileged = asUnprivileged();
  const root = makeTree({ "locked.txt": "SECRET_000\n", "closed/inside.txt": "MARK\n", "open.txt": "MARK\n" });
  fs.chmodSync(root, 0o755); // mkdtemp makes it 0700: nobody could not even enter it
  fs.chmodSync(path.join(root, "locked.txt"), 0o000);
  fs.chmodSync(path.join(root, "closed"), 0o000);
  fs.symlinkSync("loop-b", path.join(root, "loop-a"));
  fs.symlinkSync("loop-a", path.join(root, "loop-b"));
  fs.symlinkSync("nowhere.txt", path.join(root, "dangling"));

  // Run as root, mode 000 stops nothing: the CLI runs as nobody. Where that is impossible, this says so loudly.
  it.skipIf(!unprivileged)(
    "a mode-000 file and folder say permission denied (run as an unprivileged user), and grep is no silent No matches",
    async () => {
      const tool = (name: string, args: object) => unprivileged?.(["tool", name, JSON.stringify(args)], root);
      expect(await tool("read_file", { path: "locked.txt" })).toBe(
        "Error: locked.txt cannot be read: permission denied; it was not read\n",
      );
      expect(await tool("list_files", { path: "closed" })).toBe(
        "Error: closed cannot be read: permission denied; it was not searched or listed\n",
      );
      expect(await tool("grep", { pattern: "MARK", path: "closed" })).toBe(
        "Error: closed cannot be read: permission denied; it was not searched or listed\n",
      );
      expect(await tool("glob", { pattern: "*", path: "closed" })).toBe(
        "Error: closed cannot be read: permission denied; it was not searched or listed\n",
      );
    },
  );
  if (!unprivileged)
    it("SKIPPED LOUDLY: mode 000 cannot be tested here (root, and setpriv cannot drop to nobody)", () => {
      console.warn("issue 27.16: the mode-000 cases were NOT run: root reads mode-000 files, and setpriv failed");
    });

  it("a Unix socket, a symlink loop and a link to nowhere are each called what they are", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, "sock"), resolve));
    try {
      expect((await call(root, "read_file", { path: "sock" })).content).toBe(
        "Error: sock is not a regular file (a socket, FIFO or device); it was not read",
      );
    } finally {
      server.close();
    }
    expect((await call(root, "read_file", { path: "loop-a" })).content).toBe(
      "Error: loop-a is a symlink loop (its links lead back to themselves); it was not read",
    );
    expect((await call(root, "list_files", { path: "loop-a" })).content).toBe(
      "Error: loop-a is a symlink loop (its links lead back to themselves); it was not searched or listed",
    );
    expect((await call(root, "read_file", { path: "dangling" })).content).toBe(
      "Error: dangling is a symlink to something that does not exist; it was not read",
    );
  });
});

describe("issue 27.2: the did-you-mean walk is bounded in entries, and says so when it stops", () => {
  const root = makeTree({});
  fs.mkdirSync(path.join(root, "huge"));
  for (let i = 0; i <= MAX_ENTRIES_READ + 500; i++) fs.writeFileSync(path.join(root, "huge", `f${i}`), "");

  it(`stops after ${MAX_ENTRIES_READ} entries, and the message says only those were compared`, async () => {
    expect((await call(root, "read_file", { path: "missing.txt" })).content).toBe(
      `Error: file not found: missing.txt; use glob or list_files to find it (only the first ${MAX_ENTRIES_READ.toLocaleString("en-US")} entries of the workspace were compared)`,
    );
  });
});

describe("cause 6: read_file and grep agree on what is text, and show undecodable bytes the same way", () => {
  const root = makeTree({
    "cafe.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), // Latin-1 "café", 5 bytes
    "two-bad.txt": Buffer.concat([Buffer.from("ok line\nbad "), Buffer.from([0xff, 0xfe]), Buffer.from(" end\n")]),
    "ff-fe-ascii.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello world\n")]),
    "real-utf16.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello utf16\n", "utf16le")]),
  });

  it("a short Latin-1 file and one with two bad bytes are read, and every grep hit reads the same", async () => {
    expect((await call(root, "read_file", { path: "cafe.txt" })).content).toBe("1\tcaf\\xe9\n(lines 1-1 of 1)");
    expect((await call(root, "read_file", { path: "two-bad.txt", offset: 2 })).content).toBe(
      "2\tbad \\xff\\xfe end\n(lines 2-2 of 2)",
    );
    for (const [pattern, file] of [
      ["caf", "cafe.txt"],
      ["bad", "two-bad.txt"],
    ]) {
      const hit = (await call(root, "grep", { pattern, path: file })).content;
      const [, line, text] = /^[^:]+:(\d+):(.*)$/.exec(hit) ?? [];
      const read = await call(root, "read_file", { path: file, offset: Number(line), limit: 1 });
      expect(read.content.split("\n")[0], hit).toBe(`${line}\t${text}`);
    }
  });

  it("FF FE followed by ASCII is no UTF-16: its text shows, the two bytes visible; real UTF-16 still decodes", async () => {
    expect((await call(root, "read_file", { path: "ff-fe-ascii.txt" })).content).toBe(
      "1\t\\xff\\xfehello world\n(lines 1-1 of 1)",
    );
    expect((await call(root, "read_file", { path: "real-utf16.txt" })).content).toBe(
      "1\thello utf16\n(lines 1-1 of 1)",
    );
  });
});

describe("cause 7: read_file reads the window asked for in a text file of any size", () => {
  const root = makeTree({});
  const rows = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `row ${String(from + i).padStart(7, "0")}\n`).join("");
  const big = path.join(root, "big.log"); // 12 bytes a row: 1.9 million rows are 21.7 MiB, over the old 20 MiB
  for (let from = 1; from <= 1_900_000; from += 100_000) fs.appendFileSync(big, rows(from, 100_000));
  fs.appendFileSync(big, "NEEDLE here\n");

  it("a 3-line window of a 22 MiB file, where grep points", async () => {
    const hit = (await call(root, "grep", { pattern: "NEEDLE" })).content;
    expect(hit).toBe("big.log:1900001:NEEDLE here");
    expect((await call(root, "read_file", { path: "big.log", offset: 1_899_999, limit: 3 })).content).toBe(
      "1899999\trow 1899999\n1900000\trow 1900000\n1900001\tNEEDLE here\n(lines 1899999-1900001 of 1900001)",
    );
  });

  it("past 64 MiB the lines after the window are not counted, and the footer says so", async () => {
    const huge = path.join(root, "huge.log");
    const mib = Buffer.from("y\n".repeat(512 * 1024));
    for (let i = 0; i < 70; i++) fs.appendFileSync(huge, mib);
    expect((await call(root, "read_file", { path: "huge.log", limit: 2 })).content).toMatch(
      /^1\ty\n2\ty\n\(lines 1-2 of at least [\d]+, counted in the first 64 MiB of 70 MiB; call read_file with offset=3 to continue\)$/,
    );
  });
});

describe("cause 8: a .scoutignore at the root denies a path to every tool, like the protected list", () => {
  const root = makeTree({
    ".scoutignore": "private/\n*.draft\n",
    ".ignore": "search-only.txt\n", // hides from search, but read_file reads it when named
    "private/plan.txt": "DENY_MARK\n",
    "src/launch.DRAFT": "DENY_MARK\n",
    "src/ok.txt": "DENY_MARK ok\n",
    "search-only.txt": "DENY_MARK ignored\n",
  });
  fs.symlinkSync("private/plan.txt", path.join(root, "link.txt"));

  it("read_file refuses what it matches, named directly, in any case or through a symlink", async () => {
    for (const file of ["private/plan.txt", "src/launch.DRAFT", "src/launch.draft", "link.txt", "private"]) {
      const result = await call(root, "read_file", { path: file });
      expect(result.content, file).toMatch(
        /is denied by \.scoutignore \(the user's rule: no tool reads or lists it\)$/,
      );
    }
    expect((await call(root, "read_file", { path: "search-only.txt" })).isError).toBe(false);
  });

  it("list_files, glob and grep never show it", async () => {
    expect((await call(root, "glob", { pattern: "**/*" })).content.split("\n").sort()).toEqual([
      ".ignore",
      ".scoutignore",
      "src/ok.txt",
    ]);
    expect((await call(root, "grep", { pattern: "DENY_MARK" })).content).toBe("src/ok.txt:1:DENY_MARK ok");
    expect((await call(root, "list_files", { path: "src" })).content).toBe(
      "ok.txt\n(1 entry hidden by ignore rules or protection)",
    );
  });
});

describe("cause 8, continued: a .scoutignore that cannot be read is named, never silently ignored", () => {
  it("a .scoutignore symlinked to /dev/zero is not read, and every result says its rules do not apply", async () => {
    const root = makeTree({ "a.txt": "MARK\n" });
    fs.symlinkSync("/dev/zero", path.join(root, ".scoutignore"));
    expect((await call(root, "grep", { pattern: "MARK" })).content).toBe(
      "a.txt:1:MARK\n(ignore files not read, so their rules do not apply: .scoutignore (it is a symlink))",
    );
  });
});
