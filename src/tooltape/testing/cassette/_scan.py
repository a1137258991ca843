"""Find credentials a cassette still holds, by their place in the on-disk document.

The scanner looks for exactly what the scrubber removes (both read
``_policy``, ``_text`` and ``_stream``), so a scrubbed cassette scans clean
and anything that survived scrubbing (a key used as a dict key, a key inside
a binary body) is reported. A finding says where and what kind, never the
value: even a JSON pointer through a key-shaped dict key has that key masked.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import cast

from tooltape.testing.cassette._errors import SecretFinding
from tooltape.testing.cassette._limits import parse_json_text
from tooltape.testing.cassette._model import (
    BinaryBody,
    Body,
    Cassette,
    Headers,
    JsonBody,
    SseBody,
    TextBody,
)
from tooltape.testing.cassette._patterns import is_masked, mask
from tooltape.testing.cassette._policy import DEFAULT_POLICY, URL_HEADERS, ScrubPolicy
from tooltape.testing.cassette._scrub import holds_json_structure
from tooltape.testing.cassette._shape import pointer
from tooltape.testing.cassette._span import Span
from tooltape.testing.cassette._stream import find_split_secrets
from tooltape.testing.cassette._text import encoded_key_spans, find_spans, redact_spans
from tooltape.testing.cassette._text_fields import form_field_spans
from tooltape.testing.cassette._urls import rewrite_url

__all__ = ["find_secrets", "find_secrets_in_text", "masked_step"]

_MASKED_STEP = "<masked>"

ENCRYPTED_KIND = "encrypted content (opaque, bound to the account), not redacted"

_STRUCTURAL_KINDS = frozenset(
    {
        "secret body field",
        "MCP tool headers",
        "MCP tool authorization",
        "network policy secret",
        ENCRYPTED_KIND,
    }
)
"""What only a body's JSON structure shows, not its text."""


@functools.lru_cache(maxsize=4096)
def masked_step(key: str, policy: ScrubPolicy = DEFAULT_POLICY) -> str:
    """A dict key (or header name) as a JSON pointer may show it: key-shaped parts masked."""
    spans = find_spans(key, policy)
    if not spans:
        return key
    return redact_spans(key, [Span(s.start, s.end, s.kind, _MASKED_STEP) for s in spans])


def _step(location: str, key: str, policy: ScrubPolicy) -> str:
    return pointer(location, masked_step(key, policy))


def find_secrets_in_text(
    text: str, location: str, policy: ScrubPolicy = DEFAULT_POLICY
) -> Iterator[SecretFinding]:
    """Every secret in ``text`` (key shapes, URL credentials), reported at ``location``."""
    for span in find_spans(text, policy):
        yield SecretFinding(location, mask(text[span.start : span.end]), span.kind)


def _leaves(value: object) -> Iterator[str]:
    """The text of every scalar a credential field holds that is not already masked."""
    if isinstance(value, str):
        if not is_masked(value):
            yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)
    elif isinstance(value, Mapping):
        for item in cast(Mapping[str, object], value).values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in cast(list[object], value):
            yield from _leaves(item)


def _scan_tree(tree: object, location: str, policy: ScrubPolicy) -> Iterator[SecretFinding]:
    if isinstance(tree, str):
        if holds_json_structure(tree, policy):  # JSON in a string, as the scrubber reads it
            yield from _scan_text_body(tree, location, policy)
        else:
            yield from find_secrets_in_text(tree, location, policy)
    elif isinstance(tree, dict):
        items = cast(dict[str, object], tree)
        mcp_tool = items.get("type") == "mcp"
        for key, value in items.items():
            at = _step(location, key, policy)
            for span in find_spans(key, policy):
                yield SecretFinding(at, mask(key[span.start : span.end]), f"{span.kind} in a key")
            if policy.is_secret_field(key):
                kind = "secret body field"
            elif mcp_tool and key in ("headers", "authorization"):
                kind = f"MCP tool {key}"
            elif key == "encrypted_content" and isinstance(value, str):
                kind = ENCRYPTED_KIND
            elif key == "domain_secrets" and isinstance(value, list):
                yield from _scan_domain_secrets(cast(list[object], value), at, policy)
                continue
            else:
                yield from _scan_tree(value, at, policy)
                continue
            for leaf in _leaves(value):
                yield SecretFinding(at, mask(leaf), kind)
    elif isinstance(tree, list):
        for index, item in enumerate(cast(list[object], tree)):
            yield from _scan_tree(item, pointer(location, index), policy)


def _scan_domain_secrets(
    secrets: list[object], location: str, policy: ScrubPolicy
) -> Iterator[SecretFinding]:
    """A container network policy's ``domain_secrets``: each ``value`` is a credential."""
    for index, entry in enumerate(secrets):
        at = pointer(location, index)
        if not isinstance(entry, Mapping):
            yield from _scan_tree(entry, at, policy)
            continue
        for key, value in cast(Mapping[str, object], entry).items():
            if key == "value":
                for leaf in _leaves(value):
                    yield SecretFinding(pointer(at, key), mask(leaf), "network policy secret")
            else:
                yield from _scan_tree(value, _step(at, key, policy), policy)


def _scan_text_body(text: str, location: str, policy: ScrubPolicy) -> Iterator[SecretFinding]:
    """What the text shows, then what only its JSON or form structure shows (secret fields,
    MCP)."""
    yield from find_secrets_in_text(text, location, policy)
    for span in form_field_spans(text, policy):
        yield SecretFinding(location, mask(text[span.start : span.end]), span.kind)
    if text.lstrip()[:1] not in ("{", "["):
        return
    try:
        tree = parse_json_text(text)
    except ValueError:
        return
    for finding in _scan_tree(tree, location, policy):
        if finding.kind in _STRUCTURAL_KINDS:
            yield finding


def _scan_headers(headers: Headers, location: str, policy: ScrubPolicy) -> Iterator[SecretFinding]:
    for name, values in headers.items():
        at = _step(location, name, policy)
        for span in find_spans(name, policy):
            yield SecretFinding(at, mask(name[span.start : span.end]), f"{span.kind} in a name")
        safe = policy.is_safe_header(name)
        url = name.lower() in URL_HEADERS
        for index, value in enumerate(values):
            if url:
                yield from _scan_uri(value, pointer(at, index), policy)
            elif safe:
                yield from find_secrets_in_text(value, pointer(at, index), policy)
            elif not is_masked(value):
                kind = "header outside the safe set, not redacted"
                yield SecretFinding(pointer(at, index), mask(value), kind)


def _scan_body(body: Body, location: str, policy: ScrubPolicy) -> Iterator[SecretFinding]:
    if isinstance(body, JsonBody):
        yield from _scan_tree(body.data, pointer(location, "json"), policy)
    elif isinstance(body, SseBody):
        events_at = pointer(location, "sse")
        for index, event in enumerate(body.events):
            at = pointer(events_at, index)
            fields = (("event", event.event), ("id", event.id), ("retry", event.retry))
            for field, value in (*fields, ("raw", event.raw)):
                if value is not None:
                    yield from find_secrets_in_text(value, pointer(at, field), policy)
            for number, comment in enumerate(event.comments):
                comment_at = pointer(pointer(at, "comments"), number)
                yield from find_secrets_in_text(comment, comment_at, policy)
            if event.raw_data:
                yield from _scan_text_body(str(event.data), pointer(at, "data"), policy)
            else:
                yield from _scan_tree(event.data, pointer(at, "data"), policy)
        for split in find_split_secrets(body.events, policy):
            at = pointer(pointer(events_at, split.first.event), "data")
            for step in split.first.path:
                at = pointer(at, step)
            if split.first.event == split.last.event:
                kind = f"{split.kind} in a streamed text"
            else:
                kind = f"{split.kind} split across events {split.first.event}-{split.last.event}"
            yield SecretFinding(at, f"… ({split.length} chars)", kind)
    elif isinstance(body, TextBody):
        yield from _scan_text_body(body.text, pointer(location, "text"), policy)
    elif isinstance(body, BinaryBody):
        text = body.data.decode("latin-1")
        yield from find_secrets_in_text(text, pointer(location, "base64"), policy)


def _scan_uri(uri: str, location: str, policy: ScrubPolicy) -> Iterator[SecretFinding]:
    encoded = encoded_key_spans(uri, policy)  # before the rewrite cuts "&#115;" apart
    for span in encoded:
        yield SecretFinding(location, mask(uri[span.start : span.end]), span.kind)
    rewritten, hidden = rewrite_url(redact_spans(uri, encoded), policy)
    if hidden:
        yield SecretFinding(location, "… (values not shown)", hidden)
    # What the URL rewrite leaves (a key in the path) is found in what it leaves.
    yield from find_secrets_in_text(rewritten, location, policy)


def find_secrets(cassette: Cassette, policy: ScrubPolicy = DEFAULT_POLICY) -> list[SecretFinding]:
    """Every credential still in the cassette: header values outside the safe set, URL
    userinfo and query values outside the safe set, the reason phrase, secret body fields, MCP tool
    credentials, reasoning ``encrypted_content``, network policy ``domain_secrets``
    values, and key-shaped strings anywhere (URI, headers, body strings and
    keys, event data and fields, reassembled stream deltas, text, binary, metadata, the
    request method, the header's version, source and provenance).

    Locations are JSON pointers into the tooltape document, e.g.
    ``/interactions/0/response/body/sse/3/data/item/id``; excerpts give only
    a secret's length.
    """
    findings: list[SecretFinding] = []
    header = cassette.header
    findings.extend(find_secrets_in_text(header.tooltape_version, "/tooltape/version", policy))
    findings.extend(find_secrets_in_text(header.source, "/tooltape/source", policy))
    if header.provenance:
        findings.extend(find_secrets_in_text(header.provenance, "/tooltape/provenance", policy))
    for index, interaction in enumerate(cassette.interactions):
        at = pointer("/interactions", index)
        request, response = interaction.request, interaction.response
        request_at, response_at = pointer(at, "request"), pointer(at, "response")
        findings.extend(find_secrets_in_text(request.method, pointer(request_at, "method"), policy))
        findings.extend(_scan_uri(request.uri, pointer(request_at, "uri"), policy))
        findings.extend(_scan_headers(request.headers, pointer(request_at, "headers"), policy))
        findings.extend(_scan_body(request.body, pointer(request_at, "body"), policy))
        reason = pointer(response_at, "reason")
        findings.extend(find_secrets_in_text(response.reason, reason, policy))
        findings.extend(_scan_headers(response.headers, pointer(response_at, "headers"), policy))
        findings.extend(_scan_body(response.body, pointer(response_at, "body"), policy))
    findings.extend(_scan_tree(dict(cassette.metadata), "/metadata", policy))
    return findings
