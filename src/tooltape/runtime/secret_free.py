"""Failure text a model may read: without the credentials an exception may quote.

A tool's exception becomes the text the model reads, which is sent to the
provider and recorded in ``ToolInvoked``. A client's error names the URL it
called (its password, a ``key=`` query value) and may quote a token the
process holds. Those are replaced, and the rest of the text, which says what
failed and where, is kept.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from urllib.parse import quote, urlsplit, urlunsplit

__all__ = ["SHORTEST_SECRET", "is_credential_name", "without_secrets"]

# Names that say the value is a credential: OPENAI_API_KEY, GITHUB_TOKEN, PGPASSWORD,
# CLIENT_SECRETS, AWS_ACCESS_KEY_ID; ``KEY`` only as a name part (not KEYRING_BACKEND).
# (TOKENIZERS_PARALLELISM matches too: its values are too short to count.)
_SECRET_WORDS = (
    "API_KEY",
    "APIKEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "CREDENTIAL",
)
SHORTEST_SECRET = 16
"""Shorter values could be ordinary words of a message or body; no key or token is this short."""


def is_credential_name(name: str) -> bool:
    """Whether an environment variable's name says its value is a credential."""
    upper = name.upper()
    return any(word in upper for word in _SECRET_WORDS) or "KEY" in upper.split("_")


# Query parameters whose value is a credential: key, api_key, appid's kin, access_token,
# client_secret, password, sig / signature, auth.
_SECRET_QUERY = re.compile(r"key|token|secret|pass|sig|auth|credential|appid", re.IGNORECASE)
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>`]+")
_HIDDEN = "***"


def _environment_secrets(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for name, value in environ.items():
        long_enough = len(value) >= SHORTEST_SECRET
        if is_credential_name(name) and long_enough and not any(c.isspace() for c in value):
            found.append((name, value))
    return sorted(found, key=lambda item: len(item[1]), reverse=True)


def _query_without_secrets(query: str) -> str:
    pairs = query.split("&")
    for index, pair in enumerate(pairs):
        name, equals, value = pair.partition("=")
        if equals and value and _SECRET_QUERY.search(name):
            pairs[index] = f"{name}={_HIDDEN}"
    return "&".join(pairs)


def _url_without_secrets(match: re.Match[str]) -> str:
    url = match.group(0)
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url
    netloc = parts.netloc
    if password:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:{_HIDDEN}@{host}"
    return urlunsplit(parts._replace(netloc=netloc, query=_query_without_secrets(parts.query)))


def without_secrets(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with the credentials of the environment (by value, also percent-encoded)
    and those of the URLs in it (a password, a credential's query value) replaced."""
    for name, value in _environment_secrets(os.environ if environ is None else environ):
        for spelling in {value, quote(value, safe="")}:
            if spelling in text:
                text = text.replace(spelling, f"[{name}]")
    if "://" in text:
        text = _URL.sub(_url_without_secrets, text)
    return text
