"""Credentials in URLs: userinfo and query values outside the safe set.

``https://user:pass@host/p?token=t&limit=5`` is kept as
``https://REDACTED@host/p?token=REDACTED&limit=5``: the structure stays (so a
reviewer sees which parameters were sent), the values that could be secret go.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from tooltape.testing.cassette._patterns import REDACTED, is_masked
from tooltape.testing.cassette._policy import ScrubPolicy
from tooltape.testing.cassette._span import Span

__all__ = ["find_url_secrets", "rewrite_url"]

_URL = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{1,15}://[^\s\"'<>\\`{}|^]+")
_TRAILING = ".,;:!?)]'"
_PARAM_SPLIT = re.compile(r"([&;])")
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.\[\]-]{1,40}\Z")


def _shown_name(name: str, policy: ScrubPolicy) -> str:
    """A parameter name as a message may show it (never one that is itself key-shaped)."""
    if not _PLAIN_NAME.match(name) or any(rule.pattern.search(name) for rule in policy.rules):
        return "<masked>"
    return name


def _redact_params(params: str, policy: ScrubPolicy, redacted: list[str]) -> str:
    parts = _PARAM_SPLIT.split(params)
    changed = False
    for index, part in enumerate(parts):
        if index % 2 or not part:
            continue  # a separator, or nothing between two
        name, equals, value = part.partition("=")
        decoded_name = unquote_plus(name)
        if not equals:  # a bare value: no name that could be on the safe list
            if is_masked(decoded_name) or policy.is_safe_param(decoded_name):
                continue
            parts[index] = REDACTED
            redacted.append("<bare value>")
        elif (
            value and not is_masked(unquote_plus(value)) and not policy.is_safe_param(decoded_name)
        ):
            parts[index] = f"{name}={REDACTED}"
            redacted.append(_shown_name(decoded_name, policy))
        else:
            continue
        changed = True
    return "".join(parts) if changed else params


def rewrite_url(url: str, policy: ScrubPolicy) -> tuple[str, str]:
    """``(url without credentials, what was hidden)``; ``url`` itself when nothing was."""
    scheme_end = url.find("://")
    if scheme_end >= 0:
        head, rest = url[: scheme_end + 3], url[scheme_end + 3 :]
    elif url.startswith("//"):  # a reference without a scheme (a redirect's location)
        head, rest = "//", url[2:]
    elif url.startswith(("/", "?", "#")):  # a reference without a host (the same)
        head, rest = "", url
    else:
        return url, ""
    cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, tail = rest[:cut], rest[cut:]
    hidden: list[str] = []
    at = authority.rfind("@")
    if at >= 0 and not is_masked(unquote_plus(authority[:at])):
        authority = REDACTED + authority[at:]
        hidden.append("userinfo")
    path, hash_mark, fragment = tail.partition("#")
    path, question, query = path.partition("?")
    params: list[str] = []
    if question:
        query = _redact_params(query, policy, params)
    if hash_mark and "=" in fragment:
        fragment = _redact_params(fragment, policy, params)
    if params:
        hidden.append("query value " + ", ".join(dict.fromkeys(params)))
    if not hidden:
        return url, ""
    rebuilt = head + authority + path + question + query + hash_mark + fragment
    return rebuilt, "URL " + " and ".join(hidden)


def find_url_secrets(text: str, policy: ScrubPolicy) -> list[Span]:
    """Every URL in ``text`` with userinfo or a query value to hide: a ``Span`` whose
    replacement is the URL without them."""
    if "://" not in text:
        return []
    found: list[Span] = []
    for match in _URL.finditer(text):
        url = match.group().rstrip(_TRAILING)
        rewritten, kind = rewrite_url(url, policy)
        if kind:
            start = match.start()
            found.append(Span(start, start + len(url), kind, rewritten))
    return found
