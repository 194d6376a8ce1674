"""Turning long URLs into short slugs."""
import hashlib

from shortly.config import MAX_SLUG_LENGTH


def make_slug(url, length=6):
    """Returns a short slug for url (old version: md5, 6 characters)."""
    return hashlib.md5(url.encode("utf-8")).hexdigest()[:length]
