"""Find credentials a cassette still holds, by their place in the on-disk document."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from tooltape.testing.cassette._errors import SecretFinding
from tooltape.testing.cassette._model import (
    BinaryBody,
    Body,
    Cassette,
    Headers,
    JsonBody,
    SseBody,
    TextBody,
)
from tooltape.testing.cassette._patterns import (
    REDACTED,
    SECRET_RULES,
    escaped_json,
    is_credential_header,
    iter_secret_params,
    mask,
)
from tooltape.testing.cassette._shape import pointer

__all__ = ["find_secrets", "find_secrets_in_text"]


def find_secrets_in_text(text: str, location: str) -> Iterator[SecretFinding]:
    """Every key-shaped string in ``text``, reported at ``location``."""
    for rule in SECRET_RULES:
        if not rule.might_match(text):
            continue
        for match in rule.pattern.finditer(text):
            yield SecretFinding(location=location, excerpt=mask(match.group(0)), kind=rule.kind)


def _scan_tree(tree: object, location: str) -> Iterator[SecretFinding]:
    if isinstance(tree, str):
        yield from find_secrets_in_text(tree, location)
    elif isinstance(tree, dict):
        for key, value in cast(dict[str, object], tree).items():
            at = pointer(location, key)
            yield from find_secrets_in_text(key, at)
            yield from _scan_tree(value, at)
    elif isinstance(tree, list):
        for index, item in enumerate(cast(list[object], tree)):
            yield from _scan_tree(item, pointer(location, index))


def _scan_text_body(text: str, location: str) -> Iterator[SecretFinding]:
    """Keys in the text, then those only its decoded JSON value shows (see ``escaped_json``)."""
    seen: set[tuple[str, str]] = set()
    for finding in find_secrets_in_text(text, location):
        seen.add((finding.kind, finding.excerpt))
        yield finding
    decoded = escaped_json(text)
    if decoded is not None:
        for finding in _scan_tree(decoded, location):
            if (finding.kind, finding.excerpt) not in seen:
                yield finding


def _scan_headers(headers: Headers, location: str) -> Iterator[SecretFinding]:
    for name, values in headers.items():
        for index, value in enumerate(values):
            at = pointer(pointer(location, name), index)
            if is_credential_header(name) and value not in ("", REDACTED):
                yield SecretFinding(location=at, excerpt=mask(value), kind="credential header")
            else:
                yield from find_secrets_in_text(value, at)


def _scan_body(body: Body, location: str) -> Iterator[SecretFinding]:
    if isinstance(body, JsonBody):
        yield from _scan_tree(body.data, pointer(location, "json"))
    elif isinstance(body, SseBody):
        events_at = pointer(location, "sse")
        for index, event in enumerate(body.events):
            at = pointer(events_at, index)
            for field, value in (("event", event.event), ("id", event.id), ("raw", event.raw)):
                if value is not None:
                    yield from find_secrets_in_text(value, pointer(at, field))
            for number, comment in enumerate(event.comments):
                yield from find_secrets_in_text(comment, pointer(pointer(at, "comments"), number))
            if event.raw_data:
                yield from _scan_text_body(str(event.data), pointer(at, "data"))
            else:
                yield from _scan_tree(event.data, pointer(at, "data"))
    elif isinstance(body, TextBody):
        yield from _scan_text_body(body.text, pointer(location, "text"))
    elif isinstance(body, BinaryBody):
        yield from find_secrets_in_text(body.data.decode("latin-1"), pointer(location, "base64"))


def find_secrets(cassette: Cassette) -> list[SecretFinding]:
    """Every credential still in the cassette: unredacted credential headers,
    credential query parameters, and key-shaped strings in the URI, any header,
    any body string (tree values and keys, event data, text, binary) or metadata.

    Locations are JSON pointers into the tooltape document, e.g.
    ``/interactions/0/response/body/sse/3/data/item/id``.
    """
    findings: list[SecretFinding] = []
    for index, interaction in enumerate(cassette.interactions):
        at = pointer("/interactions", index)
        request, response = interaction.request, interaction.response
        request_at, response_at = pointer(at, "request"), pointer(at, "response")
        uri_at = pointer(request_at, "uri")
        findings.extend(find_secrets_in_text(request.uri, uri_at))
        findings.extend(
            SecretFinding(
                location=uri_at, excerpt=f"{name}={mask(value)}", kind="credential query parameter"
            )
            for name, value in iter_secret_params(request.uri)
        )
        findings.extend(_scan_headers(request.headers, pointer(request_at, "headers")))
        findings.extend(_scan_body(request.body, pointer(request_at, "body")))
        findings.extend(_scan_headers(response.headers, pointer(response_at, "headers")))
        findings.extend(_scan_body(response.body, pointer(response_at, "body")))
    findings.extend(_scan_tree(dict(cassette.metadata), "/metadata"))
    return findings
