// How the offline teaching model reads a question: the term to search for, a kind of file, or a folder.

/** Quoted text first, then a word that looks like an identifier, then the longest other word. */
export function searchTerm(question: string): string {
  const quoted = /["'`]([^"'`]+)["'`]/.exec(question);
  if (quoted) return quoted[1];
  const words = question.match(/[A-Za-z_$][\w$.]*[\w$]|[A-Za-z_$]/g) ?? [];
  const identifier = words.find(isIdentifier);
  if (identifier) return identifier;
  const plain = words.filter((word) => !STOP_WORDS.has(word.toLowerCase()));
  return plain.sort((a, b) => b.length - a.length)[0] ?? "";
}

export function isIdentifier(word: string): boolean {
  return /[_$]|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|\w\.\w/.test(word);
}

const STOP_WORDS = new Set(
  (
    "a an and any are as at be by call called calls can code defined define definition do does file files find for from function " +
    "how i in is it its me of on or project show tell that the there this to used uses using what where which who why with"
  ).split(" "),
);

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

/** A glob pattern when the question asks for files of some kind ("which test files are there?"). */
export function filePatternFor(question: string): string | null {
  if (!/\bfiles?\b/i.test(question)) return null;
  const extension = /(?:^|\s)\*?\.([a-z0-9]+)\b/i.exec(question);
  if (extension) return `**/*.${extension[1]}`;
  return FILE_KINDS.find(([words]) => words.test(question))?.[1] ?? null;
}

/** The folder in "what is in src?" / "what does lib/ contain?", "." for the project itself. */
export function folderAskedAbout(question: string): string | null {
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

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
