// The protected names, in one place: credential stores, keys and .git internals that no tool reads, lists or
// names, and the same list as ripgrep globs, so rg does not even open them.
//
// Chosen from where real tools keep secrets: what a user starting Scout in $HOME, or in a repository where
// deploy credentials were written, expects to stay hidden. Names are matched case-insensitively.

/** Folders whose whole contents are protected, wherever they are. */
const PROTECTED_FOLDERS = [
  ".git", // objects and config (remote URLs with tokens)
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".kube", // kubeconfig: cluster certificates and tokens
  ".password-store",
  ".mozilla", // browser profiles: cookies, saved logins
  ".thunderbird",
  ".gcp", // service-account keys, by the convention of Google's own samples
  "secrets", // Docker and Compose secrets, SOPS and Kubernetes secret files
  ".secrets",
];

/** File names that are protected wherever they are; "*" stands for any characters. */
const PROTECTED_FILES = [
  // keys and certificates, keystores, password databases
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.jks",
  "*.keystore",
  "*.ppk",
  "*.kdbx",
  "*.secret",
  "*.secrets",
  "*.token",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  // credential files of package managers, git, databases, clouds and CI
  ".npmrc",
  ".yarnrc", // Yarn 1: _authToken
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".git-credentials",
  ".pgpass",
  ".my.cnf",
  ".dockercfg",
  ".vault-token",
  ".htpasswd",
  "auth.json", // Composer's tokens, and Codex's and opencode's logins
  ".s3cfg",
  ".boto",
  "credentials.json",
  "application_default_credentials.json",
  "client_secret*.json",
  "service-account*.json",
  "service_account*.json",
  "gha-creds-*.json", // written into the workspace by google-github-actions/auth
  "credentials.tfrc.json",
  "*.tfstate", // Terraform state holds every secret it created
  "*.tfstate.*",
  // shell and REPL histories: typed passwords and tokens
  ".*_history",
  ".zhistory",
  ".histfile", // zsh, as zsh-newuser-install writes it
  "fish_history",
  ".rhistory", // R (lower case: every name is matched lower-cased)
  ".dbshell", // the mongo shell
  "repl_history.jl", // Julia
  ".lesshst", // less: its searches
  ".viminfo",
];

/** Names protected only inside a folder of the given name ("folder/name"): elsewhere they are ordinary. */
const PROTECTED_IN_FOLDER = [
  ".docker/config.json",
  "git/credentials", // git's XDG credential store, ~/.config/git/credentials
  ".config/gh", // GitHub CLI tokens
  ".config/hub",
  ".config/gcloud",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
];

/**
 * The .env family: .env, .env.local, .env-prod, .env_prod, .env~, prod.env, .envrc and .envrc.local (direnv).
 * Examples are meant to be read: a name of the family with one of these words (.env.example, example.env,
 * .env.sample.local) stays visible.
 */
const ENV_FAMILY = /^\.env([.\-_~].*)?$|\.env$|^\.envrc([.\-_~].*)?$/;

/**
 * Backup and editor copies of a protected name are protected too: "key.pem.bak", "server.key~",
 * ".netrc.orig", vim's ".key.pem.swp", Emacs's "#.pgpass#". One rule for every name: the suffixes (and
 * vim's and Emacs's marks) are taken off, repeatedly, and what is left is judged. A copy of an ordinary
 * file ("config.json.bak") stays as visible as the file.
 */
const BACKUP_SUFFIXES = ["~", ".bak", ".backup", ".old", ".orig", ".save", ".swp", ".swo", ".tmp", ".copy"];
const BACKUP_MARKS = new RegExp(
  `^(?:\\.#|#)|#$|(?:${BACKUP_SUFFIXES.map((suffix) => suffix.replace(".", "\\.")).join("|")})+$`,
  "g",
);
const ENV_EXAMPLE_WORDS = ["example", "sample", "template", "dist"];

/** A name glob of PROTECTED_FILES as regex source: "*" is any characters, everything else literal. */
function nameRegexSource(glob: string): string {
  return glob
    .toLowerCase()
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*");
}
/**
 * All of PROTECTED_FILES as one regex: every name a search walks is tested, and one alternation costs a
 * fraction of ~30 separate tests (measured: 42,000 names took ~50 ms with one regex per glob).
 */
const PROTECTED_FILE_REGEX = new RegExp(`^(?:${PROTECTED_FILES.map(nameRegexSource).join("|")})$`);

/**
 * rg globs for the protected names (given to rg with --iglob, so in any case), so rg does not even open
 * them. The .env family is left to isVisible (which filters every rg result): an rg glob cannot exclude it
 * while keeping .env.example without also overriding .gitignore.
 */
export const DENIED_GLOBS = [
  ...PROTECTED_FOLDERS.map((folder) => `!${folder}/`),
  ...PROTECTED_FILES.map((name) => `!${name}`),
  ...PROTECTED_FILES.map((name) => `!${name}{${BACKUP_SUFFIXES.join(",")}}`), // one suffix; isVisible drops the rest
  ...PROTECTED_IN_FOLDER.map((pair) => `!**/${pair}`),
  "!.env",
  "!.envrc",
];

/**
 * True when the --iglob of DENIED_GLOBS makes rg skip a name wherever it is. Fewer names than isDeniedName:
 * rg still enters .env.d (isVisible drops what it finds there), and skips .config/gh only below .config.
 */
export function rgSkipsName(name: string): boolean {
  const lower = name.toLowerCase();
  return isProtectedAnywhere(lower) || lower === ".env" || lower === ".envrc";
}

/**
 * True when one path segment (a file or folder name) is protected. `parent` is the name of the folder
 * holding it (the root's own name for a top-level entry), for the names protected only in one folder.
 */
export function isDeniedName(name: string, parent = ""): boolean {
  const lower = name.toLowerCase();
  const original = withoutBackupMarks(lower);
  // vim's swap file of ".netrc" is "..netrc.swp": the dot it adds is taken off too.
  const names = original.startsWith("..") ? [original, original.slice(1)] : [original];
  return names.some((one) => isProtectedName(one, parent.toLowerCase()));
}

/** A lower-cased name without its backup suffixes and editor marks ("key.pem.bak~" gives "key.pem"). */
function withoutBackupMarks(lower: string): string {
  let name = lower;
  for (let previous = ""; previous !== name && name !== ""; ) {
    previous = name;
    name = name.replace(BACKUP_MARKS, "");
  }
  return name === "" ? lower : name;
}

/** isDeniedName for a lower-cased name with no backup marks. */
function isProtectedName(lower: string, parent: string): boolean {
  if (isProtectedAnywhere(lower)) return true;
  if (PROTECTED_IN_FOLDER.includes(`${parent}/${lower}`)) return true;
  return ENV_FAMILY.test(lower) && !lower.split(/[.\-_~]/).some((word) => ENV_EXAMPLE_WORDS.includes(word));
}

/** True when a lower-cased name is a protected folder or file name, whatever folder holds it. */
function isProtectedAnywhere(lower: string): boolean {
  return PROTECTED_FOLDERS.includes(lower) || PROTECTED_FILE_REGEX.test(lower);
}

/**
 * True when any segment of a path is protected. `rootName` is the name of the folder the path is
 * relative to (for a top-level "config.json" inside a root named ".docker").
 */
export function isDenied(relPath: string, rootName = ""): boolean {
  const segments = relPath.split("/");
  return segments.some((name, i) => isDeniedName(name, i === 0 ? rootName : segments[i - 1]));
}

/**
 * The protected folder an absolute path lies in ("/home/u/.aws" gives ".aws"), or null. Scout refuses to
 * start there: inside ~/.aws every file is a credential, whatever its own name.
 */
export function protectedAncestor(absPath: string): string | null {
  const segments = absPath.split(/[\\/]/).filter((segment) => segment !== "");
  const i = segments.findIndex((name, j) => isDeniedName(name, j === 0 ? "" : segments[j - 1]));
  if (i === -1) return null;
  return isDeniedName(segments[i]) ? segments[i] : `${segments[i - 1]}/${segments[i]}`; // ".aws", ".config/gh"
}
