// The benchmark's synthetic source tree. It is generated once, from a seed,
// into the OS temp directory and reused: the same seed gives the same tree
// (names, contents, sizes and mtimes) on every machine, so figures taken on
// two machines are comparable.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Bump when the generator changes, so a tree cached by an older version is not reused. */
const TREE_VERSION = 1;
export const DEFAULT_SEED = 42;

/**
 * How big a tree is: the default, large enough for the walks to dominate, and `--tree learner`, the size of
 * a learner's repository (issue 28). About 20 files a directory, as in a real repository.
 */
export const TREE_SIZES = {
  large: { files: 60_000, dirs: 3_000 },
  learner: { files: 1_000, dirs: 50 },
} as const;
export type TreeSize = keyof typeof TREE_SIZES;
/** Directory levels below an area's root. */
const MAX_DEPTH = 6;

/** The three search patterns. Each is a plain word, so it is also a valid regex. */
export const TOKENS = {
  /** In a handful of files only: grep must read the whole tree to find them. */
  rare: "RARE_NEEDLE_q7Zx",
  /** On about a quarter of all text lines: millions of hits. */
  common: "commonToken",
  /** Nowhere in the tree. */
  none: "ABSENT_NEEDLE_k9Wv",
} as const;
const RARE_VISIBLE_FILES = 6;
/** Rare hits in ignored files too, so a search that leaks ignored files would show it. */
const RARE_IGNORED_FILES = 3;
const COMMON_LINE_SHARE = 0.25;

/** A big file read_file counts to its end (under its 64 MiB counting bound), and grep searches. */
export const BIG_FILE = "docs/reference/big-reference.md";
const BIG_FILE_BYTES = 19 * 1024 * 1024;

const YEAR_S = 365 * 24 * 3600;
/** mtimes fall in the year before this fixed instant, so they are reproducible too. */
const NEWEST_MTIME_S = Date.UTC(2026, 0, 1) / 1000;

/** Where the cache lives, and the marker written only once a tree is complete. */
export function treeLocation(seed: number, size: TreeSize = "large") {
  const dir = path.join(os.tmpdir(), `scout-bench-${seed}-v${TREE_VERSION}${size === "large" ? "" : `-${size}`}`);
  return { dir, root: path.join(dir, "tree"), manifest: path.join(dir, "manifest.json") };
}

/** What the generator wrote, kept in the marker file. */
export interface Manifest {
  version: number;
  seed: number;
  files: number;
  bytes: number;
  /** Files hidden from the tools: by a .gitignore, or inside node_modules/.git. */
  hiddenFiles: number;
  hiddenBytes: number;
  directories: number;
  /** Lines holding the common token in visible files (a lower bound on grep's hits). */
  visibleCommonLines: number;
  rareVisibleFiles: string[];
  bigFile: { path: string; bytes: number; lines: number };
  generatedInMs: number;
}

// ---------------------------------------------------------------- randomness

/** mulberry32: a tiny, fast, seedable PRNG; good enough to make test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)];

// ---------------------------------------------------------------- layout

type Hidden = "ignored" | "noise" | null;
/** One top-level part of the tree, its share of the files, and what it holds. */
interface Area {
  root: string;
  share: number;
  exts: string[];
  hidden: Hidden;
}

/** The root .gitignore hides build/ and vendor/; packages/core/.gitignore hides generated/. */
const AREAS: Area[] = [
  { root: "packages", share: 0.46, exts: ["ts", "ts", "ts", "tsx", "js", "json", "md"], hidden: null },
  { root: "services", share: 0.18, exts: ["go", "py", "rs", "go", "py", "yaml"], hidden: null },
  { root: "docs", share: 0.04, exts: ["md", "md", "txt"], hidden: null },
  { root: "tools", share: 0.025, exts: ["py", "sh"], hidden: null },
  { root: ".github", share: 0.005, exts: ["yaml", "md"], hidden: null },
  { root: "build", share: 0.12, exts: ["js", "js", "map"], hidden: "ignored" },
  { root: "vendor", share: 0.08, exts: ["go", "c", "h"], hidden: "ignored" },
  { root: "packages/core/generated", share: 0.02, exts: ["ts"], hidden: "ignored" },
  { root: "node_modules", share: 0.05, exts: ["js", "json", "md"], hidden: "noise" },
  { root: ".git/objects", share: 0.02, exts: ["pack"], hidden: "noise" },
];

const ROOT_GITIGNORE = "# build output and vendored code are not searched\nbuild/\ndist/\nvendor/\n*.log\ncoverage/\n";
const NESTED_GITIGNORE = { path: "packages/core/.gitignore", text: "# generated code\ngenerated/\n*.snap\n" };

const DIR_NAMES = [
  "src",
  "lib",
  "util",
  "api",
  "core",
  "models",
  "handlers",
  "internal",
  "cmd",
  "pkg",
  "components",
  "hooks",
  "views",
  "tests",
  "fixtures",
  "config",
  "server",
  "client",
  "parser",
  "storage",
  "auth",
  "net",
  "io",
  "ui",
  "math",
  "cache",
  "db",
  "jobs",
  "events",
  "metrics",
];
const WORDS = [
  "user",
  "order",
  "item",
  "cache",
  "token",
  "node",
  "tree",
  "value",
  "index",
  "buffer",
  "stream",
  "request",
  "response",
  "handler",
  "config",
  "state",
  "event",
  "queue",
  "worker",
  "client",
  "server",
  "path",
  "file",
  "parse",
  "render",
  "update",
  "create",
  "delete",
  "load",
  "save",
  "count",
  "limit",
  "offset",
  "total",
  "error",
];

/** Size classes of files: most are ordinary source, a few minified, a few binary. */
const KINDS = [
  { kind: "text", share: 0.85, min: 1_000, max: 12_000 },
  { kind: "text", share: 0.1, min: 15_000, max: 45_000 },
  { kind: "long-lines", share: 0.04, min: 20_000, max: 120_000 },
  { kind: "binary", share: 0.01, min: 1_000, max: 64_000 },
] as const;
/** A minified line is this long: far past grep's 200-character clip. */
const LONG_LINE = { min: 2_000, max: 40_000 };
/** Share of ordinary files named .log (hidden by the root .gitignore). */
const LOG_SHARE = 0.01;

// ---------------------------------------------------------------- contents

const COMMENT: Record<string, string> = { py: "#", sh: "#", yaml: "#", md: "<!--", txt: "", map: "", json: "" };
const commentFor = (ext: string) => COMMENT[ext] ?? "//";

/** A few line shapes per language: enough to look like code to a regex engine. */
function makeLine(r: Rng, ext: string): string {
  const capitalized = () => {
    const word = pick(r, WORDS);
    return word[0].toUpperCase() + word.slice(1);
  };
  const id = () => pick(r, WORDS) + (r() < 0.5 ? capitalized() : "");
  const n = () => int(r, 0, 9999);
  const indent = "  ".repeat(int(r, 0, 3));
  const shapes: Record<string, (() => string)[]> = {
    ts: [
      () => `export function ${id()}(${id()}: number): number {`,
      () => `const ${id()} = ${id()}.${id()}(${n()});`,
      () => `return ${id()} + ${n()};`,
      () => `import { ${id()} } from "./${id()}.js";`,
      () => "}",
    ],
    go: [
      () => `func ${id()}(${id()} int) (int, error) {`,
      () => `${id()} := ${id()}.${id()}(${n()})`,
      () => `if err != nil { return 0, err }`,
      () => "}",
    ],
    py: [
      () => `def ${id()}(${id()}, ${id()}=${n()}):`,
      () => `${id()} = self.${id()}(${n()})`,
      () => `return ${id()} * ${n()}`,
      () => `# ${id()} ${id()} ${id()}`,
    ],
    rs: [
      () => `pub fn ${id()}(${id()}: u32) -> Result<u32> {`,
      () => `let ${id()} = ${id()}.${id()}(${n()})?;`,
      () => `Ok(${id()} + ${n()})`,
      () => "}",
    ],
    md: [
      () => `## ${id()} ${id()}`,
      () => `The ${id()} keeps the ${id()} of each ${id()} (${n()} at most).`,
      () => `- \`${id()}\`: ${id()} ${id()}`,
      () => "",
    ],
    json: [() => `"${id()}": ${n()},`, () => `"${id()}": "${id()}-${n()}",`, () => `"${id()}": [${n()}, ${n()}],`],
    yaml: [() => `${id()}: ${n()}`, () => `- name: ${id()}-${id()}`, () => `  run: ${id()} --${id()}=${n()}`],
    sh: [
      () => `${id()}="$(${id()} --${id()} ${n()})"`,
      () => `echo "${id()} $${id()}"`,
      () => `if [ -f ${id()} ]; then ${id()}; fi`,
    ],
    c: [
      () => `static int ${id()}(int ${id()}) {`,
      () => `${id()} = ${id()}(${id()}, ${n()});`,
      () => `return ${id()} + ${n()};`,
      () => "}",
    ],
  };
  const alias: Record<string, string> = { tsx: "ts", js: "ts", map: "json", h: "c", txt: "md", log: "md" };
  const list = shapes[alias[ext] ?? ext] ?? shapes.md;
  return indent + pick(r, list)();
}

/** Lines drawn for each file come from a fixed pool per language, so generation is fast. */
const POOL_LINES = 2_000;
interface Pool {
  plain: string[];
  common: string[];
}
const pools = new Map<string, Pool>();
function poolFor(r: Rng, ext: string): Pool {
  let pool = pools.get(ext);
  if (!pool) {
    const plain = Array.from({ length: POOL_LINES }, () => makeLine(r, ext));
    const mark = commentFor(ext);
    const common = plain.map((line) => `${line} ${mark ? `${mark} ` : ""}${TOKENS.common}`);
    pool = { plain, common };
    pools.set(ext, pool);
  }
  return pool;
}

/** Text of about `bytes` bytes; returns it and how many lines carry the common token. */
function makeText(
  r: Rng,
  ext: string,
  bytes: number,
  longLines: boolean,
  rare: boolean,
): { text: string; commonLines: number } {
  const pool = poolFor(r, ext);
  const lines: string[] = [];
  let size = 0;
  let commonLines = 0;
  let lineIsCommon = false;
  const drawLine = () => {
    const isCommon = r() < COMMON_LINE_SHARE;
    lineIsCommon ||= isCommon;
    return pick(r, isCommon ? pool.common : pool.plain);
  };
  while (size < bytes) {
    let line: string;
    lineIsCommon = false;
    if (longLines) {
      // A minified line: many statements joined, most often with the common token somewhere in it.
      const parts: string[] = [];
      const target = int(r, LONG_LINE.min, LONG_LINE.max);
      for (let length = 0; length < target; length += parts[parts.length - 1].length + 1) parts.push(drawLine().trim());
      line = parts.join(";");
    } else {
      line = drawLine();
    }
    if (lineIsCommon) commonLines++;
    lines.push(line);
    size += line.length + 1;
  }
  if (rare) lines.splice(Math.floor(lines.length / 2), 0, `${commentFor(ext)} ${TOKENS.rare}: the needle`);
  return { text: `${lines.join("\n")}\n`, commonLines };
}

/** Random bytes behind a PNG-like header: NUL bytes early, so every tool sees a binary file. */
function makeBinary(r: Rng, bytes: number): Buffer {
  const buf = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buf[i] = Math.floor(r() * 256);
  Buffer.from("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "latin1").copy(buf);
  return buf;
}

// ---------------------------------------------------------------- the plan

interface PlannedFile {
  rel: string;
  kind: "text" | "long-lines" | "binary";
  ext: string;
  bytes: number;
  hidden: boolean;
  mtime: number;
  rare: boolean;
}

/** Random directories below an area's root: each new one is a child of an existing one. */
function planDirs(r: Rng, area: Area, size: TreeSize): string[] {
  const dirs = [area.root];
  const seen = new Set(dirs);
  const count = Math.max(1, Math.round(TREE_SIZES[size].dirs * area.share));
  const depthOf = (dir: string) => dir.split("/").length - area.root.split("/").length;
  if (area.root === "packages") dirs.push("packages/core"); // holds the nested .gitignore
  for (let attempt = 0; dirs.length < count && attempt < count * 20; attempt++) {
    const parent = pick(r, dirs);
    if (depthOf(parent) >= MAX_DEPTH) continue;
    const child = `${parent}/${pick(r, DIR_NAMES)}`;
    if (!seen.has(child)) {
      seen.add(child);
      dirs.push(child);
    }
  }
  return dirs;
}

function planFiles(r: Rng, size: TreeSize): PlannedFile[] {
  const areaDirs = AREAS.map((area) => planDirs(r, area, size));
  const files: PlannedFile[] = [];
  for (let i = 0; i < TREE_SIZES[size].files; i++) {
    const a = weighted(
      r,
      AREAS.map((area) => area.share),
    );
    const area = AREAS[a];
    const size =
      KINDS[
        weighted(
          r,
          KINDS.map((k) => k.share),
        )
      ];
    const isLog = size.kind === "text" && area.hidden === null && r() < LOG_SHARE;
    const ext =
      size.kind === "binary"
        ? pick(r, ["png", "wasm", "bin"])
        : size.kind === "long-lines"
          ? pick(r, ["js", "json"])
          : isLog
            ? "log"
            : pick(r, area.exts);
    const stem = `${pick(r, WORDS)}_${pick(r, WORDS)}_${i.toString(36)}`; // the index keeps every name unique
    const name = size.kind === "long-lines" && ext === "js" ? `${stem}.min.js` : `${stem}.${ext}`;
    files.push({
      rel: `${pick(r, areaDirs[a])}/${name}`,
      kind: size.kind,
      ext,
      bytes: int(r, size.min, size.max),
      hidden: area.hidden !== null || isLog,
      mtime: NEWEST_MTIME_S - r() * YEAR_S,
      rare: false,
    });
  }
  // The rare token goes into a few visible and a few hidden ordinary text files.
  const text = files.filter((f) => f.kind === "text" && f.ext !== "log");
  for (const [hidden, count] of [
    [false, RARE_VISIBLE_FILES],
    [true, RARE_IGNORED_FILES],
  ] as const) {
    const candidates = text.filter((f) => f.hidden === hidden);
    for (let chosen = 0; chosen < count; ) {
      const file = pick(r, candidates);
      if (!file.rare) {
        file.rare = true;
        chosen++;
      }
    }
  }
  return files;
}

function weighted(r: Rng, weights: number[]): number {
  let x = r() * weights.reduce((s, w) => s + w, 0);
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) < 0) return i;
  return weights.length - 1;
}

// ---------------------------------------------------------------- writing

/** Progress is printed every this many files. */
const PROGRESS_EVERY = 5_000;

/**
 * Returns the cached tree for this seed, generating it first when there is
 * none or the last generation was interrupted (no marker file).
 */
export function ensureTree(
  seed: number,
  log: (line: string) => void,
  size: TreeSize = "large",
): { root: string; manifest: Manifest } {
  const where = treeLocation(seed, size);
  if (fs.existsSync(where.manifest)) {
    const manifest = JSON.parse(fs.readFileSync(where.manifest, "utf8")) as Manifest;
    if (manifest.version === TREE_VERSION) return { root: where.root, manifest };
  }
  log(`generating the benchmark tree (seed ${seed}) in ${where.root} ...`);
  fs.rmSync(where.dir, { recursive: true, force: true }); // a partial tree is redone from scratch
  const manifest = generate(seed, where.root, log, size);
  fs.writeFileSync(where.manifest, JSON.stringify(manifest, null, 2)); // the marker: written last
  return { root: where.root, manifest };
}

function generate(seed: number, root: string, log: (line: string) => void, size: TreeSize): Manifest {
  const started = Date.now();
  const r = mulberry32(seed);
  pools.clear(); // the pools are drawn from this seed's stream
  const plan = planFiles(r, size);
  const dirs = new Set(plan.map((f) => path.posix.dirname(f.rel)));
  for (const dir of dirs) fs.mkdirSync(path.join(root, dir), { recursive: true });

  const m: Manifest = {
    version: TREE_VERSION,
    seed,
    files: 0,
    bytes: 0,
    hiddenFiles: 0,
    hiddenBytes: 0,
    directories: dirs.size,
    visibleCommonLines: 0,
    rareVisibleFiles: [],
    bigFile: { path: BIG_FILE, bytes: 0, lines: 0 },
    generatedInMs: 0,
  };
  const write = (rel: string, content: string | Buffer, mtime: number, hidden: boolean) => {
    const abs = path.join(root, rel);
    fs.writeFileSync(abs, content);
    fs.utimesSync(abs, mtime, mtime);
    const bytes = typeof content === "string" ? Buffer.byteLength(content) : content.length;
    m.files++;
    m.bytes += bytes;
    if (hidden) {
      m.hiddenFiles++;
      m.hiddenBytes += bytes;
    }
  };

  write(".gitignore", ROOT_GITIGNORE, NEWEST_MTIME_S - YEAR_S, false);
  write(NESTED_GITIGNORE.path, NESTED_GITIGNORE.text, NEWEST_MTIME_S - YEAR_S, false);
  for (const file of plan) {
    if (file.kind === "binary") {
      write(file.rel, makeBinary(r, file.bytes), file.mtime, file.hidden);
    } else {
      const { text, commonLines } = makeText(r, file.ext, file.bytes, file.kind === "long-lines", file.rare);
      write(file.rel, text, file.mtime, file.hidden);
      if (!file.hidden) m.visibleCommonLines += commonLines;
      if (file.rare && !file.hidden) m.rareVisibleFiles.push(file.rel);
    }
    if (m.files % PROGRESS_EVERY === 0) log(`  ${m.files}/${plan.length} files, ${(m.bytes / 1e6).toFixed(0)} MB`);
  }
  m.bigFile = writeBigFile(r, root, NEWEST_MTIME_S - YEAR_S / 2);
  m.files++;
  m.bytes += m.bigFile.bytes;
  m.generatedInMs = Date.now() - started;
  log(`  done: ${m.files} files, ${(m.bytes / 1e6).toFixed(0)} MB in ${(m.generatedInMs / 1000).toFixed(0)} s`);
  return m;
}

/** The one large text file, written in chunks so the generator's memory stays small. */
function writeBigFile(r: Rng, root: string, mtime: number): Manifest["bigFile"] {
  const abs = path.join(root, BIG_FILE);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  const fd = fs.openSync(abs, "w");
  let bytes = 0;
  let lines = 0;
  try {
    while (bytes < BIG_FILE_BYTES) {
      const { text } = makeText(r, "md", Math.min(1 << 20, BIG_FILE_BYTES - bytes), false, false);
      fs.writeSync(fd, text);
      bytes += Buffer.byteLength(text);
      lines += text.split("\n").length - 1;
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.utimesSync(abs, mtime, mtime);
  return { path: BIG_FILE, bytes, lines };
}
