from pathlib import Path

from shortly.config import MAX_SLUG_LENGTH
from shortly.slugs import is_valid_slug, make_slug

URLS = Path(__file__).parent / "fixtures" / "urls.txt"


def test_same_url_gives_same_slug():
    assert make_slug("https://example.com/a") == make_slug("https://example.com/a")


def test_slug_length_is_capped():
    assert len(make_slug("https://example.com/" + "x" * 500)) == MAX_SLUG_LENGTH


def test_salt_changes_the_slug():
    assert make_slug("https://example.com/a", salt="1") != make_slug("https://example.com/a")


def test_slugs_are_valid():
    assert is_valid_slug(make_slug("https://example.com/b"))


def test_no_collisions_in_150_real_urls():
    urls = URLS.read_text().split()
    assert len({make_slug(url) for url in urls}) == len(urls)
