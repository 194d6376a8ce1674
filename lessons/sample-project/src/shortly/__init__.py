"""shortly: a tiny URL shortener."""

__version__ = "0.3.0"
