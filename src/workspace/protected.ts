// The protected names: secrets, keys and .git internals that no tool reads, lists or names, and the
// same list as ripgrep globs, so rg does not even open them.

/** Directories whose contents are never read or listed. */
const DENIED_DIRS = [".git", ".ssh", ".aws"];
/** Exact file names that are never read or listed. */
const DENIED_NAMES = [".npmrc", ".netrc"];
/** Name patterns that are never read or listed (matched case-insensitively). */
const DENIED_PATTERNS = [/^\.env(\..*)?$/, /\.pem$/, /\.key$/, /^id_rsa/, /^id_ed25519/, /^id_ecdsa/];
/** Examples of .env files are meant to be read. */
const ALLOWED_ENV_EXAMPLES = [".env.example", ".env.sample", ".env.template"];

/**
 * rg globs for the protected names, so rg does not even open them. The
 * .env.* family is left to isVisible (which filters every rg result): an rg
 * glob cannot exclude it while keeping .env.example without also overriding
 * .gitignore.
 */
export const DENIED_GLOBS = [
  ...DENIED_DIRS.map((dir) => `!${dir}/`),
  ...DENIED_NAMES.map((name) => `!${name}`),
  "!.env",
  "!*.pem",
  "!*.key",
  "!id_rsa*",
  "!id_ed25519*",
  "!id_ecdsa*",
];

/** True when one path segment (a file or directory name) is protected. */
export function isDeniedName(name: string): boolean {
  const lower = name.toLowerCase();
  if (ALLOWED_ENV_EXAMPLES.includes(lower)) return false;
  return DENIED_DIRS.includes(lower) || DENIED_NAMES.includes(lower) || DENIED_PATTERNS.some((re) => re.test(lower));
}

/** True when any segment of a workspace-relative path is protected. */
export function isDenied(relPath: string): boolean {
  return relPath.split("/").some(isDeniedName);
}
