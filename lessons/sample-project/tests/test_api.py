from types import SimpleNamespace

from shortly import api
from shortly.store import LinkStore


def test_shorten_then_resolve(tmp_path, monkeypatch):
    monkeypatch.setattr(api, "store", LinkStore(tmp_path / "links.json"))
    result = api.shorten(SimpleNamespace(json={"url": "https://example.com/x"}))
    slug = result["short_url"].rsplit("/", 1)[1]
    assert api.resolve(None, slug) == (302, "https://example.com/x")


def test_resolve_rejects_bad_slugs():
    assert api.resolve(None, "NOT-A-SLUG")[0] == 400
