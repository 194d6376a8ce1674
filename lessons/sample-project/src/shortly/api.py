"""The HTTP handlers: shorten a URL, resolve a slug."""
from shortly.config import BASE_URL
from shortly.slugs import is_valid_slug, make_slug
from shortly.store import LinkStore

store = LinkStore("links.json")


def shorten(request):
    url = request.json["url"]
    slug = make_slug(url)
    if store.get(slug) not in (None, url):  # a collision: try again with a salt
        slug = make_slug(url, salt=slug)
    store.add(slug, url)
    return {"short_url": f"{BASE_URL}/{slug}"}


def resolve(request, slug):
    if not is_valid_slug(slug):
        return 400, "not a slug"
    url = store.get(slug)
    return (302, url) if url else (404, "unknown or expired link")
