"""Redact credentials from interactions before they are written.

Scrubbing replaces values, never structure: header names, body keys, list
lengths and event order stay as recorded. It is deterministic and idempotent,
and returns the very same objects when there is nothing to redact.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import cast

from tooltape.testing.cassette._model import (
    BinaryBody,
    Body,
    Cassette,
    EmptyBody,
    Headers,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    SseEvent,
    TextBody,
)
from tooltape.testing.cassette._patterns import (
    ENCRYPTED_PLACEHOLDER,
    REDACTED,
    SECRET_RULES,
    escaped_json,
    is_credential_header,
    redact_query,
)

__all__ = [
    "drop_credential_headers",
    "might_need_scrubbing",
    "scrub_body",
    "scrub_cassette",
    "scrub_headers",
    "scrub_interaction",
    "scrub_request",
    "scrub_response",
    "scrub_text",
    "scrub_tree",
    "scrub_uri",
]

_ENCRYPTED_IN_TEXT = re.compile(r'("encrypted_content"\s*:\s*")((?:[^"\\]|\\.)*)(")')


# A JSON \u escape can spell a needle the literal search would not see; an
# encrypted_content value or an MCP tool spec's headers and authorization are
# redacted by key, not by shape.
_UNREDACTED_ENCRYPTED = re.compile(rb'"encrypted_content"\s*:\s*"(?!REDACTED"|")')
_MCP_CREDENTIAL_KEYS = (b'"headers"', b'"authorization"')


def might_need_scrubbing(raw: bytes) -> bool:
    """``False`` only when scrubbing a body whose serialized bytes are ``raw`` changes nothing.

    One literal search per secret shape over the whole body instead of a
    walk over every string in it: most bodies hold no secret, and this is
    what lets a replay skip parsing them.
    """
    if b"\\u" in raw or _UNREDACTED_ENCRYPTED.search(raw):
        return True
    if b'"mcp"' in raw and any(key in raw for key in _MCP_CREDENTIAL_KEYS):
        return True
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return any(rule.might_match(text) for rule in SECRET_RULES)


def _redact_encrypted(match: re.Match[str]) -> str:
    return match.group(1) + ENCRYPTED_PLACEHOLDER + match.group(3)


def scrub_text(text: str) -> str:
    """``text`` with every key-shaped string (and JSON-ish ``encrypted_content``) redacted."""
    scrubbed = text
    for rule in SECRET_RULES:
        scrubbed = rule.redact(scrubbed)
    if '"encrypted_content"' in scrubbed:
        scrubbed = _ENCRYPTED_IN_TEXT.sub(_redact_encrypted, scrubbed)
    return scrubbed if scrubbed != text else text


def _scrub_text_body(text: str) -> str:
    """``scrub_text``, then (for JSON kept as text) the keys only its decoded value shows."""
    scrubbed = scrub_text(text)
    decoded = escaped_json(scrubbed)
    if decoded is None:
        return scrubbed
    tree = scrub_tree(decoded)
    return scrubbed if tree is decoded else json.dumps(tree, ensure_ascii=False)


def scrub_uri(uri: str) -> str:
    """``uri`` with key-shaped strings and credential query parameters redacted."""
    scrubbed = redact_query(scrub_text(uri))
    return scrubbed if scrubbed != uri else uri


def scrub_headers(headers: Headers) -> Headers:
    """Credential headers' values replaced by ``"REDACTED"``; key-shaped strings elsewhere too."""
    changed = False
    result: dict[str, tuple[str, ...]] = {}
    # One search over all values first: headers rarely hold a key-shaped string.
    credential = {name for name in headers if is_credential_header(name)}
    joined = "\n".join(
        value for name, values in headers.items() if name not in credential for value in values
    )
    plain = scrub_text(joined) is joined
    for name, values in headers.items():
        if name in credential:
            new = tuple(REDACTED if value else value for value in values)
        elif plain:
            new = values
        else:
            new = tuple(scrub_text(value) for value in values)
        changed = changed or new != values
        result[name] = new
    return result if changed else headers


def _scrub_mcp_tool(tool: dict[str, object]) -> dict[str, object]:
    """An ``{"type": "mcp", ...}`` tool spec with its header values and authorization hidden."""
    result = tool
    headers = tool.get("headers")
    if isinstance(headers, Mapping):
        header_map = cast(Mapping[str, object], headers)
        hidden = {
            key: (value if value in (None, "", REDACTED) else REDACTED)
            for key, value in header_map.items()
        }
        if hidden != header_map:
            result = {**result, "headers": hidden}
    authorization = tool.get("authorization")
    if authorization not in (None, "", REDACTED):
        result = {**result, "authorization": REDACTED}
    return result


def _scrub_dict(tree: dict[str, object]) -> dict[str, object]:
    result: dict[str, object] | None = None
    for key, value in tree.items():
        if key == "encrypted_content" and isinstance(value, str):
            new: object = ENCRYPTED_PLACEHOLDER if value else value
        else:
            new = scrub_tree(value)
        if new is not value:
            if result is None:
                result = dict(tree)
            result[key] = new
    scrubbed = tree if result is None else result
    if scrubbed.get("type") == "mcp":
        scrubbed = _scrub_mcp_tool(scrubbed)
    return scrubbed


def scrub_tree(tree: object) -> object:
    """A JSON tree with secrets redacted; unchanged subtrees are shared, not copied.

    Redacts key-shaped strings in every string value, every reasoning
    ``encrypted_content`` string, and the ``headers`` values and
    ``authorization`` of every ``{"type": "mcp"}`` tool spec.
    """
    if isinstance(tree, str):
        return scrub_text(tree)
    if isinstance(tree, dict):
        return _scrub_dict(cast(dict[str, object], tree))
    if isinstance(tree, list):
        items = cast(list[object], tree)
        scrubbed = [scrub_tree(item) for item in items]
        if any(new is not old for new, old in zip(scrubbed, items, strict=True)):
            return scrubbed
        return items
    return tree


def _scrub_event(event: SseEvent) -> SseEvent:
    data = _scrub_text_body(str(event.data)) if event.raw_data else scrub_tree(event.data)
    comments = tuple(scrub_text(comment) for comment in event.comments)
    raw = None if event.raw is None else scrub_text(event.raw)
    if data is event.data and comments == event.comments and raw == event.raw:
        return event
    return replace(event, data=data, comments=comments, raw=raw)


def scrub_body(body: Body) -> Body:
    """A body with secrets redacted (binary bodies are left as they are)."""
    if isinstance(body, JsonBody):
        data = scrub_tree(body.data)
        return body if data is body.data else JsonBody(data)
    if isinstance(body, SseBody):
        events = tuple(_scrub_event(event) for event in body.events)
        if all(new is old for new, old in zip(events, body.events, strict=True)):
            return body
        return replace(body, events=events)
    if isinstance(body, TextBody):
        text = _scrub_text_body(body.text)
        return body if text is body.text else TextBody(text)
    if isinstance(body, (BinaryBody, EmptyBody)):
        return body
    return body


def scrub_request(request: RecordedRequest) -> RecordedRequest:
    """A request with credentials redacted from its URI, headers and body."""
    uri = scrub_uri(request.uri)
    headers = scrub_headers(request.headers)
    body = scrub_body(request.body)
    if uri is request.uri and headers is request.headers and body is request.body:
        return request
    return RecordedRequest(method=request.method, uri=uri, headers=headers, body=body)


def scrub_response(response: RecordedResponse) -> RecordedResponse:
    """A response with credentials redacted from its headers and body."""
    headers = scrub_headers(response.headers)
    body = scrub_body(response.body)
    if headers is response.headers and body is response.body:
        return response
    return replace(response, headers=headers, body=body)


def scrub_interaction(interaction: Interaction) -> Interaction:
    """An interaction with every credential redacted (idempotent)."""
    request = scrub_request(interaction.request)
    response = scrub_response(interaction.response)
    if request is interaction.request and response is interaction.response:
        return interaction
    return Interaction(request=request, response=response)


def scrub_cassette(cassette: Cassette) -> Cassette:
    """A cassette with every interaction scrubbed; the header is kept."""
    interactions = tuple(scrub_interaction(item) for item in cassette.interactions)
    if all(new is old for new, old in zip(interactions, cassette.interactions, strict=True)):
        return cassette
    return replace(cassette, interactions=interactions)


def _without_credentials(headers: Headers) -> Headers:
    kept = {name: values for name, values in headers.items() if not is_credential_header(name)}
    return headers if len(kept) == len(headers) else kept


def drop_credential_headers(cassette: Cassette) -> Cassette:
    """A cassette without any credential header at all (used when importing).

    Recording redacts such headers in place; an imported cassette has no use
    for them, so they go entirely.
    """
    interactions: list[Interaction] = []
    for interaction in cassette.interactions:
        request, response = interaction.request, interaction.response
        request_headers = _without_credentials(request.headers)
        response_headers = _without_credentials(response.headers)
        if request_headers is request.headers and response_headers is response.headers:
            interactions.append(interaction)
            continue
        interactions.append(
            Interaction(
                request=replace(request, headers=request_headers),
                response=replace(response, headers=response_headers),
            )
        )
    return replace(cassette, interactions=tuple(interactions))
