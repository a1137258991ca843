"""What a secret looks like: credential header names and key-shaped strings.

Shared by the scrubber (which replaces them) and the scanner (which refuses a
cassette that still holds one), so both always agree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote_plus

__all__ = [
    "ENCRYPTED_PLACEHOLDER",
    "KEY_PLACEHOLDER",
    "REDACTED",
    "SecretRule",
    "SECRET_RULES",
    "escaped_json",
    "is_credential_header",
    "is_credential_param",
    "iter_secret_params",
    "mask",
    "redact_query",
]

REDACTED = "REDACTED"
"""What a redacted value becomes."""

KEY_PLACEHOLDER = "sk-REDACTED"
"""What an OpenAI-style ``sk-...`` key becomes (still recognisably a key)."""

ENCRYPTED_PLACEHOLDER = "REDACTED"
"""What an opaque, account-bound ``encrypted_content`` blob becomes."""

_CREDENTIAL_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "api-key",
        "x-api-key",
        "cookie",
        "set-cookie",
        "openai-organization",
        "openai-project",
    }
)
_CREDENTIAL_PARAMS = frozenset(
    {"key", "apikey", "api_key", "api-key", "access_token", "client_secret", "password", "sig"}
)


def is_credential_header(name: str) -> bool:
    """Whether a header carries credentials or account identity.

    The fixed names above, anything ending in ``-api-key`` and anything with
    ``token`` in its name, except the ``x-ratelimit-*-tokens`` counters.
    """
    lowered = name.lower()
    if lowered in _CREDENTIAL_HEADERS or lowered.endswith(("-api-key", "_api_key")):
        return True
    return "token" in lowered and not lowered.startswith("x-ratelimit-")


def is_credential_param(name: str) -> bool:
    """Whether a URL query parameter carries a credential."""
    lowered = unquote_plus(name).lower()
    return (
        lowered in _CREDENTIAL_PARAMS
        or "token" in lowered
        or "secret" in lowered
        or is_credential_header(lowered)
    )


@dataclass(frozen=True, slots=True)
class SecretRule:
    """One kind of key-shaped string: how to find it and what replaces it.

    ``needles`` are literal strings every match contains at least one of
    (compared with ``text.lower()`` when ``fold_case``); a text holding none
    of them cannot match, so the regex is not run over it. Scanning a large
    body (a base64 image) with a literal search is about a hundred times
    faster than with the regex. No needles: the regex always runs.
    """

    kind: str
    pattern: re.Pattern[str]
    replacement: str
    needles: tuple[str, ...] = ()
    fold_case: bool = False

    def might_match(self, text: str) -> bool:
        """``False`` only when ``text`` cannot hold a match."""
        if not self.needles:
            return True
        haystack = text.lower() if self.fold_case else text
        # A plain loop, not any(<generator>): this runs for every string scrubbed.
        for needle in self.needles:  # noqa: SIM110
            if needle in haystack:
                return True
        return False

    def redact(self, text: str) -> str:
        """``text`` with every match replaced."""
        if not self.might_match(text):
            return text
        return self.pattern.sub(self.replacement, text)


_NOT_AFTER_TOKEN = r"(?<![A-Za-z0-9_-])"
_NOT_AFTER_BASE64 = r"(?<![A-Za-z0-9+/_-])"

SECRET_RULES: tuple[SecretRule, ...] = (
    SecretRule(
        "bearer token",
        re.compile(
            r"(?i)(?<![A-Za-z0-9_-])(bearer)(\s+)(?!REDACTED(?![A-Za-z0-9._~+/=-]))"
            r"[A-Za-z0-9._~+/=-]{16,}"
        ),
        r"\1\2REDACTED",
        needles=("bearer",),
        fold_case=True,
    ),
    SecretRule(
        "OpenAI-style key",
        re.compile(_NOT_AFTER_TOKEN + r"sk-[A-Za-z0-9_-]{20,}"),
        KEY_PLACEHOLDER,
        needles=("sk-",),
    ),
    SecretRule(
        "Cloudflare cookie",
        re.compile(r"(__cf_bm|_cfuvid)=(?!REDACTED(?:[;\s,&\"]|$))[^;\s,&\"]+"),
        r"\1=REDACTED",
        needles=("__cf_bm=", "_cfuvid="),
    ),
    SecretRule(
        "GitHub token",
        re.compile(
            _NOT_AFTER_TOKEN + r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"
        ),
        REDACTED,
        needles=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    SecretRule(
        "Google API key",
        re.compile(_NOT_AFTER_BASE64 + r"AIza[0-9A-Za-z_-]{35}"),
        REDACTED,
        needles=("AIza",),
    ),
    SecretRule(
        "AWS access key id",
        re.compile(_NOT_AFTER_BASE64 + r"AKIA[0-9A-Z]{16}"),
        REDACTED,
        needles=("AKIA",),
    ),
    SecretRule(
        "JSON web token",
        re.compile(
            _NOT_AFTER_TOKEN + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
        ),
        REDACTED,
        needles=(".eyJ",),
    ),
)
"""Every key shape, applied in this order."""

_QUERY_PARAM = re.compile(r"([?&;])([^=&;#]+)=([^&;#]*)")


def redact_query(uri: str) -> str:
    """``uri`` with the values of credential query parameters replaced."""
    if "?" not in uri:
        return uri

    def replace(match: re.Match[str]) -> str:
        sep, name, value = match.group(1), match.group(2), match.group(3)
        if value and value != REDACTED and is_credential_param(name):
            return f"{sep}{name}={REDACTED}"
        return match.group(0)

    head, _, tail = uri.partition("?")
    return head + _QUERY_PARAM.sub(replace, "?" + tail)


def iter_secret_params(uri: str) -> Iterator[tuple[str, str]]:
    """``(name, value)`` of every credential query parameter not yet redacted."""
    if "?" not in uri:
        return
    tail = "?" + uri.partition("?")[2]
    for match in _QUERY_PARAM.finditer(tail):
        name, value = match.group(2), match.group(3)
        if value and value != REDACTED and is_credential_param(name):
            yield name, value


def escaped_json(text: str) -> object | None:
    """The JSON value ``text`` holds, when it is JSON with escapes; else ``None``.

    A JSON escape can hide a key from a search over the text (``\\u0073k-...``
    spells ``sk-...``; ``\\nsk-...`` puts a letter before it), so JSON text
    kept as text is also searched, and scrubbed, as the value it decodes to.
    """
    if "\\" not in text or text.lstrip()[:1] not in ("{", "[", '"'):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def mask(value: str) -> str:
    """A value shown partially: its first four and last two characters."""
    if len(value) <= 8:
        return "*" * len(value) + f" ({len(value)} chars)"
    return f"{value[:4]}…{value[-2:]} ({len(value)} chars)"
