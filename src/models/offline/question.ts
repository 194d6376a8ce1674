// Reads a question the way the offline model can: what kind it is (a definition, the uses of a name, files of a kind, a folder, plain text) and the name or words to search for.

export type Question =
  /** "where is X defined?", "where is the X class?"; owner is the class in "Class.method". */
  | { kind: "definition"; name: string; owner?: string }
  /** "who calls X?" (calls only) or "where is X used?" (any use). */
  | { kind: "usage"; name: string; callsOnly: boolean }
  /** "which test files are there?" */
  | { kind: "files"; pattern: string }
  /** "what is in src?" */
  | { kind: "folder"; path: string }
  /** A kebab-case name or a file name: files named like it, and the lines that mention it. */
  | { kind: "named"; name: string }
  /** No name to look up: lines that mention the words, together. */
  | { kind: "text"; words: string[] }
  | { kind: "empty" };

const STOP_WORDS = new Set(
  (
    "a about an and any are as at be been by call called caller callers calls can class code constant contain contains could " +
    "declare declared define defined defines definition do does don doesn enum file files find for from function get go " +
    "got handled has have here how i implemented implementation in inside interface is isn it its kind let list look " +
    "me method module my of on or our out please project set show struct tell that the their there these this those to " +
    "trait type used uses using variable want we what when where which who why will with would you"
  ).split(" "),
);

/** Nouns that sit next to the name: "the Path class", "function make_slug". */
const KIND_NOUNS = /^(class|function|method|type|interface|struct|enum|constant|variable|trait|module|func|def)$/i;

const FILE_KINDS: [RegExp, string][] = [
  [/\b(test|spec)s?\b/i, "**/*{test,spec}*"],
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

export function parseQuestion(raw: string): Question {
  // Curly apostrophes become straight ones; "where's", "user's", "don't" lose theirs, so an
  // apostrophe is never read as a quote.
  const text = raw.replace(/[‘’]/g, "'").replace(/(\w)'(s|re|ll|ve|d|t)\b/gi, "$1");
  const quoted = quotedName(text);

  const folder = folderAskedAbout(text);
  if (folder !== null && !quoted) return { kind: "folder", path: folder };
  const files = filePatternFor(text);
  if (files && !quoted) return { kind: "files", pattern: files };

  const name = quoted ?? nameIn(text);
  if (!name) {
    const words = contentWords(text);
    return words.length ? { kind: "text", words } : { kind: "empty" };
  }
  if (FILE_NAME.test(name) || name.includes("/") || /^[a-z][\w]*(-[\w]+)+$/i.test(name)) return { kind: "named", name };
  const usage =
    /\b(who|what|which)\b.*\b(calls|uses|invokes|references)\b|\bcall(er)?s?\s+(of|to)\b|\bcallers\b|\busages?\b|\b(used|called|invoked|referenced)\b/i;
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
    if (STOP_WORDS.has(word.toLowerCase())) return;
    const codeShaped = /[_$.\-/]|[a-z][A-Z]|^[A-Z0-9]{2,}$/.test(word) || token.endsWith("()");
    const besideKind = KIND_NOUNS.test(tokens[index - 1] ?? "") || KIND_NOUNS.test(tokens[index + 1] ?? "");
    const capitalised = /^[A-Z]/.test(word) && index > 0;
    const score = codeShaped ? 3 : besideKind ? 2 : capitalised ? 1 : 0;
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
  const folder = named?.[1] ?? ".";
  return /^(this|here|project|repo|repository|workspace)$/i.test(folder) ? "." : folder;
}
