// Reads a question the way the offline model can: what kind it is (a definition, the uses of a name, files of a kind, a folder, plain text) and the name or words to search for.

export type Question =
  /** "where is X defined?", "where is the X class?"; owner is the class in "Class.method". */
  | { kind: "definition"; name: string; owner?: string }
  /** "who calls X?" (calls only) or "where is X used?" (any use). */
  | { kind: "usage"; name: string; callsOnly: boolean }
  /** "which python files are there?"; `tests` when the question asks for test files (what test runners collect). */
  | { kind: "files"; pattern: string; tests?: boolean }
  /** "what is in src?" */
  | { kind: "folder"; path: string }
  /** A kebab-case name or a file name: files named like it, and the lines that mention it. */
  | { kind: "named"; name: string }
  /** No name to look up: lines that mention the words, together. */
  | { kind: "text"; words: string[] }
  /** "explain this", "what does this project do?": what the text or the project holds, and what needs a real model. */
  | { kind: "overview"; text?: string }
  | { kind: "empty" };

const STOP_WORDS = new Set(
  (
    "a about an and any are as at be been by call called caller callers calls can class code command constant contain contains could " +
    "declare declared define defined defines definition do does don doesn enum file files find for from function functions get go " +
    "got handled has have here how i implemented implementation in inside interface is isn it its kind let list look macro " +
    "me method methods module my of on or our out please project raised set show struct tell that the their there these this those thrown to " +
    "trait type used uses using variable want we what when where which who why will with work works would you"
  ).split(" "),
);

/** Nouns that sit next to the name: "the Path class", "function make_slug". */
const KIND_NOUNS =
  /^(class|function|method|type|interface|struct|enum|constant|variable|trait|module|func|def|command|macro|field|property|assertion)$/i;

/**
 * What test runners collect: files in test folders (mocha's test/, Rust's tests/, Jest's __tests__/), Go's
 * *_test.go, pytest's test_*.py and *_test.py, and *.test.* / *.spec.* (Jest, Vitest); code files only, so a CI
 * workflow named test.yml or a notes file named like a spec is not one.
 */
export const TEST_FILES =
  "{**/{test,tests,__tests__,spec}/**/*.{js,cjs,mjs,jsx,ts,cts,mts,tsx,py,go,rs},**/*_test.{go,py},**/test_*.py,**/*.{test,spec}.{js,cjs,mjs,jsx,ts,cts,mts,tsx}}";

const FILE_KINDS: [RegExp, string][] = [
  [/\bpython\b/i, "**/*.py"],
  [/\btypescript\b/i, "**/*.{ts,tsx}"],
  [/\bjavascript\b/i, "**/*.{js,jsx,mjs,cjs}"],
  [/\bgo\b/i, "**/*.go"],
  [/\brust\b/i, "**/*.rs"],
  [/\bmarkdown\b|\bdocs?\b/i, "**/*.md"],
  [/\bconfig(uration)?\b/i, "**/*.{json,yml,yaml,toml,ini,cfg}"],
];

const FILE_NAME =
  /^[\w.-]*[\w-]\.(ts|tsx|js|mjs|cjs|jsx|py|go|rs|java|md|json|ya?ml|toml|txt|c|h|cpp|rb|sh|css|html)$/i;

export function parseQuestion(full: string): Question {
  // Piped text comes after the question (`cat file | scout -p "explain"`): the question is read alone.
  const stdin = /\n\n<stdin>\n([\s\S]*)\n<\/stdin>$/.exec(full);
  const raw = stdin ? full.slice(0, stdin.index) : full;
  if (stdin && (asksForOverview(raw) || !/\?\s*$/.test(raw))) return { kind: "overview", text: stdin[1] };
  // Curly apostrophes become straight ones; "where's", "user's", "don't" lose theirs, so an
  // apostrophe is never read as a quote.
  const text = raw
    .replace(/[\u2018\u2019]/g, "'") // ‘ and ’
    .replace(/(\w)'(s|re|ll|ve|d|t)\b/gi, "$1")
    .replace(/\(\*?([A-Za-z_]\w*)\)\.(\w+)/g, "$1.$2"); // Go's (*Command).Find is Command.Find
  const quoted = quotedName(text);

  if (asksForOverview(text)) return { kind: "overview", text: stdin?.[1] };
  if (asksForTests(text) && !quoted) return { kind: "files", pattern: TEST_FILES, tests: true };
  const folder = folderAskedAbout(text);
  if (folder !== null && !quoted) return { kind: "folder", path: folder };
  const files = filePatternFor(text);
  if (files && !quoted) return { kind: "files", pattern: files };

  const dotted = modulePath(text);
  if (dotted) return { kind: "named", name: dotted };
  const name = (quoted ?? nameIn(text))?.replace(/!$/, "");
  if (!name) {
    // "how does flagtree find …": the word after "how does" is the project or the subject, not what to search for.
    const subject = /\bhow\s+(?:does|do|can|did)\s+(?:the\s+)?([A-Za-z]\w*)\s+[a-z]/i.exec(text)?.[1];
    const all = contentWords(text);
    const words = subject && all.length > 2 ? all.filter((word) => word !== subject) : all;
    return words.length ? { kind: "text", words } : { kind: "empty" };
  }
  if (FILE_NAME.test(name) || name.includes("/") || /^[a-z][\w]*(-[\w]+)+$/i.test(name)) return { kind: "named", name };
  const usage =
    /\b(who|what|which)\b.*\b(calls?|uses|invokes|references)\b|\bcall(er)?s?\s+(of|to)\b|\bcallers\b|\bcalls\b|\busages?\b|\b(used|called|invoked|referenced|raised|thrown)\b/i;
  if (usage.test(text)) {
    const callsOnly = /\bcall|\binvoke/i.test(text);
    return { kind: "usage", name: name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : name, callsOnly };
  }
  const dot = name.lastIndexOf(".");
  if (dot > 0 && /^[A-Za-z_$][\w$]*$/.test(name.slice(dot + 1)))
    return { kind: "definition", name: name.slice(dot + 1), owner: name.slice(0, dot).split(".").at(-1) };
  return { kind: "definition", name };
}

/** Text in backticks, double quotes, or single quotes that are quotes (not apostrophes). */
function quotedName(text: string): string | null {
  const match = /`([^`]+)`|"([^"]+)"|(?:^|[\s(])'([^']+)'(?=$|[\s?.,!:;)])/.exec(text);
  const inside = match ? (match[1] ?? match[2] ?? match[3]).trim() : "";
  return inside ? inside.replace(/\(\)$/, "") : null;
}

/**
 * The word most likely to be the name: one shaped like code (snake_case, camelCase, a dot, a
 * dash, ALL_CAPS), else one next to a kind noun ("the Path class"), else a capitalised word
 * that does not start the sentence, else the only word left.
 */
function nameIn(text: string): string | null {
  const tokens = text.match(/[A-Za-z_$][\w$]*(?:(?:\.|-|\/|::)[A-Za-z_$][\w$]*)*(?:\.[A-Za-z0-9]+)?(?:\(\))?/g) ?? [];
  let best: { word: string; score: number } | null = null;
  tokens.forEach((token, index) => {
    const word = token.replace(/\(\)$/, "").replace(/::/g, ".");
    // A stop word written as a name (Find, Type mid-sentence) may be the name: only lower-case ones are grammar.
    if (STOP_WORDS.has(word.toLowerCase()) && !(/^[A-Z]\w/.test(word) && index > 0)) return;
    const codeShaped = /[_$.\-/]|[a-z][A-Z]/.test(word) || token.endsWith("()");
    const besideKind = KIND_NOUNS.test(tokens[index - 1] ?? "") || KIND_NOUNS.test(tokens[index + 1] ?? "");
    // An acronym (CLI, TUI) is often the project's word, not the name asked about: below a name beside a kind noun.
    const acronym = /^[A-Z0-9]{2,}$/.test(word);
    const capitalised = /^[A-Z]/.test(word) && index > 0;
    const score = codeShaped ? 3 : besideKind ? 2 : acronym ? 1.5 : capitalised ? 1 : 0;
    if (!best || score > best.score) best = { word, score };
  });
  const chosen = best as { word: string; score: number } | null;
  if (!chosen) return null;
  if (chosen.score > 0) return chosen.word;
  const words = contentWords(text);
  return words.length === 1 ? words[0] : null;
}

/** The words left once question words and grammar are gone ("config", "loaded"). */
function contentWords(text: string): string[] {
  return (text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? []).filter((word) => !STOP_WORDS.has(word.toLowerCase()));
}

/** A glob pattern when the question asks for files of some kind ("which test files are there?"). */
function filePatternFor(question: string): string | null {
  if (!/\bfiles?\b/i.test(question)) return null;
  const extension = /(?:^|\s)\*?\.([a-z0-9]+)\b/i.exec(question);
  if (extension) return `**/*.${extension[1]}`;
  return FILE_KINDS.find(([words]) => words.test(question))?.[1] ?? null;
}

/** The folder in "what is in src?" / "what does lib/ contain?", "." for the project itself. */
function folderAskedAbout(question: string): string | null {
  const asks =
    /\bwhat(?:'s| is| does)? (?:is )?(?:in|inside)\b|\bcontents? of\b|\blist\b|\bwhat does .+ (?:contain|hold)\b/i;
  if (!asks.test(question)) return null;
  const named =
    /(?:in|inside|of|does)\s+(?:the\s+)?([\w./-]+?)\/?(?:\s+(?:folder|directory|dir))?\s*(?:\?|$|contain|hold)/i.exec(
      question,
    );
  const listed = /\blist\s+(?:the\s+)?([\w./-]+?)\/?\s+(?:folder|directory|dir)\b/i.exec(question);
  const folder = named?.[1] ?? listed?.[1] ?? ".";
  return /^(this|here|project|repo|repository|workspace)$/i.test(folder) ? "." : folder;
}

/** "which files are tests?", "where are the tests?", "list the test files". */
function asksForTests(question: string): boolean {
  return (
    /(?<![.\w-])(tests?|specs?)(?![.\w-])/i.test(question) &&
    /\b(files?|which|where|list|show|are there)\b/i.test(question)
  );
}

/** A dotted path of lower-case words asked about as a module or package: "the json.decoder module". */
function modulePath(question: string): string | null {
  const match = /\b([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+)\s+(?:module|package)\b/.exec(question);
  return match ? match[1].replace(/\./g, "/") : null;
}

/** "explain this", "what does this project do?", "summarise": questions a search cannot answer. */
function asksForOverview(question: string): boolean {
  return /^\s*(explain|summari[sz]e|describe)\b|\bwhat does (this|the) (project|code|repo|repository|file|program)\b.*\bdo\b|\bwhat is this (project|code|repo)\b/i.test(
    question,
  );
}
