// Credentials written into a URL (http://user:PASSWORD@host) are never printed or recorded: they are cut out of any text that shows one.

/** `scheme://user:password@` (or `scheme://token@`): the part of a URL that carries credentials. */
const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;

/** The text with the credentials of every URL in it replaced by "…@". */
export function withoutUrlCredentials(text: string): string {
  return text.replace(CREDENTIALS, "$1…@");
}
