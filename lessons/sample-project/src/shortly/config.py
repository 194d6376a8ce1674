"""Settings for the shortly service. The environment (see .env.example)
can override the secret key and the base URL."""
import os

# Slugs are the short codes in https://sho.rt/<slug>. Keep in sync with
# web/src/slug.ts, which checks the same limit in the browser.
MAX_SLUG_LENGTH = 8

# How long a link lives unless the user asks for longer.
DEFAULT_TTL_DAYS = 30

BASE_URL = os.environ.get("SHORTLY_BASE_URL", "https://sho.rt")
SECRET_KEY = os.environ.get("SHORTLY_SECRET_KEY", "")
