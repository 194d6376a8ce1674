"""Turning long URLs into short slugs."""
import hashlib
import re

from shortly.config import MAX_SLUG_LENGTH

# No l, o, 0 or 1: slugs are easy to read aloud.
SLUG_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
_SLUG_RE = re.compile(rf"^[{SLUG_ALPHABET}]{{1,{MAX_SLUG_LENGTH}}}$")


def make_slug(url, length=MAX_SLUG_LENGTH, salt=""):
    """Returns a short slug for url; the same url and salt give the same slug."""
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"not a web address: {url!r}")
    digest = hashlib.sha256((salt + url).encode("utf-8")).digest()
    return "".join(SLUG_ALPHABET[b % len(SLUG_ALPHABET)] for b in digest[:length])


def is_valid_slug(slug):
    return bool(_SLUG_RE.match(slug))
