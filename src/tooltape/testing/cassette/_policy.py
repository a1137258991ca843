"""Which values a cassette keeps: the safe header and query names, secret fields, key shapes.

Scrubbing is an allowlist: a header value is kept only when its name is in
the safe set below (or the project's ``safe_headers``), a URL query value only
when its parameter is (or the project's ``safe_query_params``); every other
value is replaced by ``REDACTED``. The project adds names, body fields and
key shapes in ``[tool.tooltape.scrub]``.
"""

from __future__ import annotations

import base64
import functools
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, quote_plus

from tooltape.runtime.secret_free import SHORTEST_SECRET, is_credential_name
from tooltape.testing.cassette._patterns import (
    KEY_PLACEHOLDER,
    REDACTED,
    SECRET_RULES,
    SecretRule,
    base64_runs,
    project_rule,
    value_rule,
)
from tooltape.testing.settings import ScrubSettings

__all__ = [
    "DEFAULT_POLICY",
    "KEY_VARIABLE",
    "REPLAY_API_KEY",
    "SAFE_HEADERS",
    "SAFE_HEADER_PREFIXES",
    "SAFE_QUERY_PARAMS",
    "SAFE_QUERY_PREFIXES",
    "SECRET_BODY_FIELDS",
    "URL_HEADERS",
    "ScrubPolicy",
    "live_policy",
    "live_secrets",
    "scrub_policy",
]

KEY_VARIABLE = "OPENAI_API_KEY"
"""The environment variable the OpenAI SDK reads its key from."""

REPLAY_API_KEY = "tooltape-replay-placeholder"
"""The API key a replaying client uses: not key-shaped, never sent anywhere."""

SAFE_HEADERS = frozenset(
    {
        # what the body is and how it travels
        "accept",
        "accept-encoding",
        "accept-language",
        "connection",
        "content-encoding",
        "content-length",
        "content-type",
        "keep-alive",
        "transfer-encoding",
        "vary",
        # where and when, from which software
        "alt-svc",
        "cache-control",
        "date",
        "host",
        "server",
        "strict-transport-security",
        "user-agent",
        "via",
        "x-content-type-options",
        "access-control-allow-origin",
        "access-control-expose-headers",
        "cf-cache-status",
        # request ids
        "cf-ray",
        "request-id",
        "x-request-id",
        "x-client-request-id",
        "x-amzn-requestid",
        "idempotency-key",
        # the API's own version and timing
        "openai-beta",
        "openai-model",
        "openai-processing-ms",
        "openai-version",
        "server-timing",
        "x-envoy-upstream-service-time",
        # retries and rate limits (the SDK reads these when it replays a 429)
        "retry-after",
        "retry-after-ms",
        "x-should-retry",
    }
)
"""Header names whose values are kept as recorded."""

SAFE_HEADER_PREFIXES = ("x-ratelimit-", "ratelimit-", "x-stainless-")
"""Header name prefixes whose values are kept.

``x-stainless-*`` are the constants the OpenAI SDK sends about itself
(language, OS, architecture, runtime and package versions, async or not, read
timeout, retry count). They carry no credential and tell a reviewer which SDK
and runtime made a recording and whether a request was a retry, which is what
explains wire differences between two recordings of one test.
"""

URL_HEADERS = frozenset({"location", "content-location"})
"""Header names whose values are URLs: kept, scrubbed as URLs are (a redirect must replay)."""

SAFE_QUERY_PARAMS = frozenset(
    {
        "after",
        "api-version",
        "before",
        "ending_before",
        "filter",
        "include",
        "include[]",
        "limit",
        "order",
        "purpose",
        "starting_after",
        "stream",
    }
)
"""URL query parameters whose values are kept: the OpenAI API's paging and options."""

SAFE_QUERY_PREFIXES = ("utm_",)
"""Query parameter prefixes whose values are kept (the campaign tags citations carry)."""

SECRET_BODY_FIELDS = frozenset(
    {
        "access_token",
        "api_key",
        "apikey",
        "client_secret",
        "id_token",
        "password",
        "private_key",
        "refresh_token",
        "secret_key",
    }
)
"""JSON body field names whose values are always redacted (``-`` and ``_`` alike, any case)."""


# Characters base64 (standard alphabet) never holds, rarest in ordinary text first.
_ANCHORS = ("_", "-", ".", "=")
_LONG_RUN_LENGTH = 512
# The lookbehind makes each attempt start where a run starts: linear, not quadratic.
_LONG_RUN = re.compile(rf"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{{{_LONG_RUN_LENGTH},}}")
_KEPT_TAIL = 24  # longer than the part of any needle a run can hold


def _run_tail(match: re.Match[str]) -> str:
    return " " + match.group()[-_KEPT_TAIL:]


def _anchor(needle: str) -> str:
    """The first of the rare characters ``needle`` holds, or ``""``."""
    return next((char for char in _ANCHORS if char in needle), "")


def _field_name(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _split(names: Iterable[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """Exact names and ``prefix*`` names, lower-cased."""
    exact: set[str] = set()
    prefixes: list[str] = []
    for name in names:
        lowered = name.strip().lower()
        if lowered.endswith("*"):
            prefixes.append(lowered[:-1])
        elif lowered:
            exact.add(lowered)
    return frozenset(exact), tuple(prefixes)


@dataclass(frozen=True, slots=True)
class ScrubPolicy:
    """What scrubbing keeps and what it redacts; build one with :func:`scrub_policy`."""

    safe_headers: frozenset[str] = SAFE_HEADERS
    safe_header_prefixes: tuple[str, ...] = SAFE_HEADER_PREFIXES
    safe_query_params: frozenset[str] = SAFE_QUERY_PARAMS
    safe_query_prefixes: tuple[str, ...] = SAFE_QUERY_PREFIXES
    secret_fields: frozenset[str] = SECRET_BODY_FIELDS
    rules: tuple[SecretRule, ...] = SECRET_RULES
    field_search: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    """Finds a secret field's name as a JSON key in serialised bytes (any case), in JSON
    text held in a string too (``\\"password\\":``)."""
    field_values: re.Pattern[str] = field(init=False, repr=False, compare=False)
    """Finds a secret field's scalar value in JSON text (group 1: the value as written)."""
    nested_fields: re.Pattern[str] = field(init=False, repr=False, compare=False)
    """Finds what only the parse of JSON text held in a string shows: a secret field's
    name, an MCP tool, reasoning's ``encrypted_content``, a network policy's secrets."""
    needled_rules: tuple[tuple[SecretRule, tuple[tuple[str, str], ...]], ...] = field(
        init=False, repr=False, compare=False
    )
    """Each rule with needles, and each needle with its anchor (see ``candidate_rules``)."""
    plain_rules: tuple[SecretRule, ...] = field(init=False, repr=False, compare=False)
    """The rules with no needle (a project's patterns): their regex is the check."""
    folds: bool = field(init=False, repr=False, compare=False)
    """Whether a rule compares its needles with the text in lower case."""

    def __post_init__(self) -> None:
        alternatives = b"|".join(
            re.escape(name.encode()).replace(b"_", b"[_-]") for name in sorted(self.secret_fields)
        )
        search = re.compile(rb'(?i)"(?:' + alternatives + rb')\\*"\s*:')
        object.__setattr__(self, "field_search", search)
        values = re.compile(
            r'(?i)"(?:' + alternatives.decode() + r')"\s*:\s*'
            r'("(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)'
        )
        object.__setattr__(self, "field_values", values)
        keys = alternatives.decode() + "|mcp|encrypted_content|domain_secrets"
        object.__setattr__(self, "nested_fields", re.compile(r'(?i)"(?:' + keys + r')\\*"'))
        needled = tuple(
            (rule, tuple((needle, _anchor(needle)) for needle in rule.needles))
            for rule in self.rules
            if rule.needles
        )
        object.__setattr__(self, "needled_rules", needled)
        object.__setattr__(self, "plain_rules", tuple(r for r in self.rules if not r.needles))
        object.__setattr__(self, "folds", any(rule.fold_case for rule in self.rules))

    def candidate_rules(self, text: str) -> list[SecretRule]:
        """The rules that might match ``text``: those with a needle in it, and the plain ones.

        Two things keep a large base64 image (the bulk of many bodies) cheap to
        search. Long base64 runs are cut to their last characters first: no
        rule matches inside one (each match must start after a character
        base64 never holds), and the cut keeps any needle that starts at its
        end. And most needles hold a character base64 never does (``_``,
        ``-``, ``.``): one search for each rules out every needle holding it.
        """
        if len(text) > _LONG_RUN_LENGTH and base64_runs(text, _LONG_RUN_LENGTH):
            text = _LONG_RUN.sub(_run_tail, text)
        absent = {anchor for anchor in _ANCHORS if anchor not in text} if len(text) > 256 else ()
        folded = text.lower() if self.folds else ""
        rules = list(self.plain_rules)
        for rule, needles in self.needled_rules:
            haystack = folded if rule.fold_case else text
            for needle, anchor in needles:
                if needle in haystack and anchor not in absent:
                    rules.append(rule)
                    break
        return rules

    def is_safe_header(self, name: str) -> bool:
        """Whether a header's values are kept (``name`` in any case)."""
        lowered = name.lower()
        return lowered in self.safe_headers or lowered.startswith(self.safe_header_prefixes)

    def is_safe_param(self, name: str) -> bool:
        """Whether a URL query parameter's value is kept (``name`` as decoded)."""
        lowered = name.lower()
        return lowered in self.safe_query_params or lowered.startswith(self.safe_query_prefixes)

    def is_secret_field(self, name: str) -> bool:
        """Whether a JSON body field's value is always redacted."""
        return _field_name(name) in self.secret_fields


DEFAULT_POLICY = ScrubPolicy()
"""tooltape's own rules, with no project additions."""


@functools.lru_cache(maxsize=8)
def _secret_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The credential names among an environment's (asked again for every test)."""
    return tuple(sorted(name for name in names if is_credential_name(name)))


def live_secrets(
    environ: Mapping[str, str], also: tuple[tuple[str, str], ...] = ()
) -> tuple[tuple[str, str], ...]:
    """The credentials in ``environ`` a cassette must never hold, as ``(name, value)``,
    then those of ``also`` (ones seen earlier) not among them.

    Key shapes find the keys they know; a key of another shape (a 32-hex
    key of a compatible provider, a token a server echoes in an error) is
    found by its value (and the ways it may be spelled: percent-encoded,
    hex, base64, in any case). Variables
    named like credentials (``*API_KEY*``, ``*TOKEN*``, ``*SECRET*``,
    ``*PASSWORD*``, ``*CREDENTIAL*``, a ``KEY`` name part) with a value of at
    least 16 characters and no whitespace count, and so does the replay
    key's placeholder (replayed as the recorded key's placeholder).
    """
    found = [(KEY_VARIABLE, REPLAY_API_KEY)]
    for name in _secret_names(tuple(environ)):
        value = environ[name]
        if (
            len(value) >= SHORTEST_SECRET
            and not any(char.isspace() for char in value)
            and value != REPLAY_API_KEY
        ):
            found.append((name, value))
    return tuple(dict.fromkeys((*found, *also)))


def _spellings(value: str) -> set[str]:
    """``value`` and how a URL or a form spells it (``/``, ``+``, ``=`` percent-encoded,
    every byte encoded, encoded twice), and its bytes in hex."""
    data = value.encode()
    every_byte = "".join(f"%{byte:02X}" for byte in data)
    once = quote(value, safe="")
    return {
        value,
        once,
        quote(once, safe=""),
        quote(value),
        quote_plus(value),
        every_byte,
        data.hex(),
    }


def _base64_spellings(value: str) -> set[str]:
    """What every base64 text holding ``value`` holds, wherever ``value`` starts in it.

    Base64 writes 3 bytes as 4 characters, so the text depends on where the
    value falls among those groups (3 ways) and, at both ends, on its
    neighbours: for each way, only the characters made of the value's bytes
    alone (standard and URL-safe alphabets). ``user:key`` of a Basic
    credential, a key in an encoded JSON document: found all the same.
    """
    spellings: set[str] = set()
    for encoding in _BYTE_ENCODINGS:
        data = value.encode(encoding)
        for offset in range(3):
            encoded = base64.b64encode(bytes(offset) + data).decode()
            first = -(-8 * offset // 6)  # the first character without a neighbour's bits
            last = 8 * (offset + len(data)) // 6  # the first with the next byte's bits
            core = encoded[first:last]
            spellings |= {core, core.translate(_URL_SAFE)}
    return spellings


_BYTE_ENCODINGS = ("utf-8", "utf-16-le", "utf-16-be")
"""How a body kept as bytes (base64 in the cassette) may carry a value: a UTF-16 body too."""


_URL_SAFE = str.maketrans("+/", "-_")


def _value_rules(secrets: tuple[tuple[str, str], ...]) -> tuple[SecretRule, ...]:
    spelled: list[tuple[str, str]] = []
    for name, value in secrets:
        spellings = _spellings(value)
        if value != REPLAY_API_KEY:  # the placeholder is swapped where sent, never encoded
            spellings |= _base64_spellings(value)
        spelled.extend((name, spelling) for spelling in spellings)
    # A longer value first: one that holds another is replaced whole.
    spelled.sort(key=lambda secret: (-len(secret[1]), secret))
    return tuple(
        value_rule(
            f"the value of ${name}",
            value,
            KEY_PLACEHOLDER if name == KEY_VARIABLE else REDACTED,
        )
        for name, value in spelled
    )


@functools.lru_cache(maxsize=16)
def scrub_policy(
    settings: ScrubSettings | None = None, secrets: tuple[tuple[str, str], ...] = ()
) -> ScrubPolicy:
    """The policy for a project's ``[tool.tooltape.scrub]`` additions (``None``: none),
    redacting ``secrets`` (``live_secrets(os.environ)``) by value too."""
    if settings is None:
        settings = ScrubSettings()
    if settings == ScrubSettings() and not secrets:
        return DEFAULT_POLICY
    headers, header_prefixes = _split(settings.safe_headers)
    params, param_prefixes = _split(settings.safe_query_params)
    return ScrubPolicy(
        safe_headers=SAFE_HEADERS | headers,
        safe_header_prefixes=SAFE_HEADER_PREFIXES + header_prefixes,
        safe_query_params=SAFE_QUERY_PARAMS | params,
        safe_query_prefixes=SAFE_QUERY_PREFIXES + param_prefixes,
        secret_fields=SECRET_BODY_FIELDS
        | {_field_name(name) for name in settings.secret_body_fields},
        rules=SECRET_RULES
        + _value_rules(secrets)
        + tuple(project_rule(pattern, i) for i, pattern in enumerate(settings.secret_patterns)),
    )


def live_policy(
    settings: ScrubSettings | None = None, also: tuple[tuple[str, str], ...] = ()
) -> ScrubPolicy:
    """``scrub_policy(settings)`` that also redacts the credentials in the environment now
    (``live_secrets``) and ``also`` (ones seen earlier): what recording, importing and
    linting use."""
    return scrub_policy(settings, live_secrets(os.environ, also))
