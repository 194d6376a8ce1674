"""Where links are kept: a JSON file on disk, loaded once."""
import json
import time
from pathlib import Path

from shortly.config import DEFAULT_TTL_DAYS


class LinkStore:
    """Maps slugs to URLs, each with an expiry time."""

    def __init__(self, path):
        self.path = Path(path)
        self.links = json.loads(self.path.read_text()) if self.path.exists() else {}

    def add(self, slug, url, ttl_days=DEFAULT_TTL_DAYS):
        self.links[slug] = {"url": url, "expires": time.time() + ttl_days * 86400}
        self.save()

    def get(self, slug):
        link = self.links.get(slug)
        if link is None or link["expires"] < time.time():
            return None
        return link["url"]

    def save(self):
        self.path.write_text(json.dumps(self.links, indent=2))
