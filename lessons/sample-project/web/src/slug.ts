// Checks slugs in the browser before asking the server.
// Keep MAX_SLUG_LENGTH in sync with src/shortly/config.py.
export const MAX_SLUG_LENGTH = 8;
const SLUG_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

export function isValidSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= MAX_SLUG_LENGTH && [...slug].every((c) => SLUG_ALPHABET.includes(c));
}
