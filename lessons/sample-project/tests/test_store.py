from shortly.store import LinkStore


def test_add_then_get(tmp_path):
    store = LinkStore(tmp_path / "links.json")
    store.add("abc", "https://example.com")
    assert store.get("abc") == "https://example.com"


def test_expired_links_are_gone(tmp_path):
    store = LinkStore(tmp_path / "links.json")
    store.add("old", "https://example.com", ttl_days=-1)
    assert store.get("old") is None
