"""Redact credentials from interactions before they are written.

Scrubbing replaces values, never structure: header names, body keys, list
lengths and event order stay as recorded. It is an allowlist for headers and
URL query values (see ``_policy``), finds key shapes anywhere (through JSON
escapes, base64 and the deltas of a stream, see ``_text`` and ``_stream``),
and redacts the project's secret body fields and MCP tool credentials by key.
It is deterministic and idempotent, and returns the very same objects when
there is nothing to redact.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import cast

from tooltape.testing.cassette._limits import parse_json_text
from tooltape.testing.cassette._model import (
    BinaryBody,
    Body,
    Cassette,
    CassetteSource,
    EmptyBody,
    Headers,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    SseEvent,
    TextBody,
    escape_lone_surrogates,
)
from tooltape.testing.cassette._patterns import (
    ENCRYPTED_PLACEHOLDER,
    REDACTED,
    is_credential_header,
)
from tooltape.testing.cassette._policy import DEFAULT_POLICY, URL_HEADERS, ScrubPolicy
from tooltape.testing.cassette._stream import redact_split_secrets
from tooltape.testing.cassette._text import (
    base64_holds_secret,
    encoded_holds_secret,
    encoded_key_spans,
    find_spans,
    holds_secret,
    redact_spans,
)
from tooltape.testing.cassette._text_fields import form_field_spans, json_field_spans
from tooltape.testing.cassette._urls import find_url_secrets, rewrite_url

__all__ = [
    "drop_credential_headers",
    "holds_json_structure",
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

# A JSON \u escape, an escaped slash or a JavaScript \x escape (written \\x in JSON)
# can spell a needle the literal search would not see, an escaped line break between
# two runs of base64 may be inside base64 wrapped into lines, and one after "=" may be a
# quoted-printable soft line break: only the parsed string shows them (see ``_text``).
# One regex pass, led by the backslash they share, finds any of them far faster than
# literal searches would.
_ESCAPES_HIDING_SECRETS = re.compile(
    rb"\\(?:[u/]"
    rb"|\\x[0-9A-Fa-f]{2}"
    rb"|n(?=[A-Za-z0-9+/])(?:(?<=[A-Za-z0-9+/]{28}\\n)|(?<=[A-Za-z0-9+/]{28}\\r\\n))"
    rb"|(?<==\\)(?:r\\)?n)"
)
# An encrypted_content value or an MCP tool spec's headers and authorization are
# redacted by key, not by shape.
_UNREDACTED_ENCRYPTED = re.compile(rb'"encrypted_content"\s*:\s*"(?!REDACTED"|")')
_MCP_CREDENTIAL_KEYS = (b'"headers"', b'"authorization"')
_DOMAIN_SECRETS = b'"domain_secrets"'


def might_need_scrubbing(raw: bytes, policy: ScrubPolicy = DEFAULT_POLICY) -> bool:
    """``False`` only when scrubbing a JSON or text body whose bytes are ``raw`` changes nothing.

    Literal searches over the whole body instead of a walk over every string
    in it: most bodies hold no secret, and this is what lets the recording
    hooks skip parsing them. (A stream's split secrets need the parse: the
    hooks never take this shortcut for one.)
    """
    if _ESCAPES_HIDING_SECRETS.search(raw) or _UNREDACTED_ENCRYPTED.search(raw):
        return True
    if b'"mcp"' in raw and any(key in raw for key in _MCP_CREDENTIAL_KEYS):
        return True
    if policy.field_search.search(raw) or _DOMAIN_SECRETS in raw:
        return True
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    if form_field_spans(text, policy):
        return True
    for rule in policy.candidate_rules(text):
        if rule.loose is None or rule.loose.search(text):
            return True
    if "://" in text and find_url_secrets(text, policy):
        return True
    return encoded_holds_secret(text, policy, loose=True) or base64_holds_secret(text, policy)


_JSON_START = re.compile(r"\s*[\[{]")


def holds_json_structure(text: str, policy: ScrubPolicy) -> bool:
    """Whether ``text`` may be JSON whose structure holds what only its parse shows (a
    secret field, an MCP tool, ``encrypted_content``): a function call's ``arguments``,
    a tool's output, a document in a string."""
    return _JSON_START.match(text) is not None and policy.nested_fields.search(text) is not None


def _redact_encrypted(match: re.Match[str]) -> str:
    return match.group(1) + ENCRYPTED_PLACEHOLDER + match.group(3)


def scrub_text(text: str, policy: ScrubPolicy = DEFAULT_POLICY) -> str:
    """``text`` with every secret found in it (and a JSON-ish ``encrypted_content``) redacted."""
    scrubbed = redact_spans(text, find_spans(text, policy))
    if '"encrypted_content"' in scrubbed:
        scrubbed = _ENCRYPTED_IN_TEXT.sub(_redact_encrypted, scrubbed)
    return scrubbed if scrubbed != text else text


def _scrub_text_body(text: str, policy: ScrubPolicy) -> str:
    """``scrub_text``, after the by-key rules when the text is JSON kept as text, or a
    form (its secret fields)."""
    # Values redacted where they are written first: the text keeps its layout (the deltas
    # of a streamed call reassemble to it), and is rebuilt only for what else needs its tree.
    text = redact_spans(text, form_field_spans(text, policy) or json_field_spans(text, policy))
    if text.lstrip()[:1] in ("{", "["):
        try:
            tree = parse_json_text(text)
        except ValueError:
            pass
        else:
            scrubbed_tree = scrub_tree(tree, policy)
            if scrubbed_tree is not tree:
                text = escape_lone_surrogates(json.dumps(scrubbed_tree, ensure_ascii=False))
    return scrub_text(text, policy)


def scrub_uri(uri: str, policy: ScrubPolicy = DEFAULT_POLICY) -> str:
    """``uri`` without userinfo, query values outside the safe set, or key-shaped strings."""
    rewritten, _ = rewrite_url(redact_spans(uri, encoded_key_spans(uri, policy)), policy)
    scrubbed = scrub_text(rewritten, policy)
    return scrubbed if scrubbed != uri else uri


def scrub_headers(headers: Headers, policy: ScrubPolicy = DEFAULT_POLICY) -> Headers:
    """Every value of a header outside the safe set replaced by ``"REDACTED"``;
    key-shaped strings in the values that are kept redacted too. A redirect's
    ``location`` is scrubbed as a URL (userinfo, query values outside the safe set)."""
    changed = False
    result: dict[str, tuple[str, ...]] = {}
    # One search over all kept values and every name first: they rarely hold a secret.
    kept = "\n".join(
        value for name, values in headers.items() if policy.is_safe_header(name) for value in values
    )
    plain = not holds_secret(f"{kept}\n" + "\n".join(headers), policy)
    renamed = {} if plain else _renamed(headers, policy)
    for name, values in headers.items():
        if name.lower() in URL_HEADERS:  # kept as the URL they are, so a redirect replays
            new = tuple(scrub_uri(value, policy) for value in values)
        elif not policy.is_safe_header(name):
            new = tuple(_redacted(value) for value in values)
        elif plain:
            new = values
        else:
            new = tuple(scrub_text(value, policy) for value in values)
        changed = changed or new != values
        name = renamed.get(name, name)
        result[name] = result.get(name, ()) + new
    return result if changed or renamed else headers


def _renamed(names: Iterable[str], policy: ScrubPolicy) -> dict[str, str]:
    """Each name (a header's, a JSON key) holding a secret, and what it becomes.

    A hostile server can put anything in a name, an echoed key too. One
    search over all the names first: they almost never hold one.
    """
    names = tuple(names)
    if not names or not holds_secret("\n".join(names), policy):
        return {}
    return {name: new for name in names if (new := scrub_text(name, policy)) != name}


def _redacted(value: str) -> str:
    """A value that must not be kept: empty stays empty, anything else (even a mask some
    other tool wrote, like ``<redacted>``) becomes ``REDACTED``, so cassettes agree."""
    return value if value in ("", REDACTED) else REDACTED


def _hidden(value: object) -> object:
    """A credential's value redacted, whatever its shape (containers keep theirs)."""
    if isinstance(value, str):
        return _redacted(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return REDACTED
    if isinstance(value, Mapping):
        mapping = cast(Mapping[str, object], value)
        hidden = {key: _hidden(item) for key, item in mapping.items()}
        return mapping if hidden == mapping else hidden
    if isinstance(value, list):
        items = cast(list[object], value)
        listed = [_hidden(item) for item in items]
        return items if listed == items else listed
    return value


def _scrub_mcp_tool(tool: dict[str, object]) -> dict[str, object]:
    """An ``{"type": "mcp", ...}`` tool spec with its header values and authorization hidden."""
    result = tool
    for key in ("headers", "authorization"):
        value = tool.get(key)
        if value is None:
            continue
        hidden = _hidden(value)
        if hidden is not value:
            result = {**result, key: hidden}
    return result


def _scrub_domain_secrets(policy: dict[str, object]) -> dict[str, object]:
    """A container network policy with the values of its ``domain_secrets`` hidden."""
    secrets = policy.get("domain_secrets")
    if not isinstance(secrets, list):
        return policy
    hidden: list[object] = []
    for secret in cast(list[object], secrets):
        entry: object = secret
        if isinstance(secret, Mapping):
            mapping = cast(Mapping[str, object], secret)
            if mapping.get("value") not in (None, "", REDACTED):
                entry = {**mapping, "value": REDACTED}
        hidden.append(entry)
    return policy if hidden == secrets else {**policy, "domain_secrets": hidden}


def _scrub_dict(tree: dict[str, object], policy: ScrubPolicy) -> dict[str, object]:
    result: dict[str, object] | None = None
    for key, value in tree.items():
        if policy.is_secret_field(key):
            new = _hidden(value)
        elif key == "encrypted_content" and isinstance(value, str):
            new = ENCRYPTED_PLACEHOLDER if value else value
        else:
            new = scrub_tree(value, policy)
        if new is not value:
            if result is None:
                result = dict(tree)
            result[key] = new
    scrubbed = tree if result is None else result
    renamed = _renamed(scrubbed, policy)
    if renamed:
        scrubbed = {renamed.get(key, key): value for key, value in scrubbed.items()}
    if scrubbed.get("type") == "mcp":
        scrubbed = _scrub_mcp_tool(scrubbed)
    elif "domain_secrets" in scrubbed:
        scrubbed = _scrub_domain_secrets(scrubbed)
    return scrubbed


def scrub_tree(tree: object, policy: ScrubPolicy = DEFAULT_POLICY) -> object:
    """A JSON tree with secrets redacted; unchanged subtrees are shared, not copied.

    Redacts secrets in every string value (see :func:`scrub_text`), the values
    of secret body fields, every reasoning ``encrypted_content`` string, the
    ``headers`` values and ``authorization`` of every ``{"type": "mcp"}``
    tool spec, and the ``value`` of every container network policy's
    ``domain_secrets``.
    """
    if isinstance(tree, str):
        if holds_json_structure(tree, policy):  # tool-call arguments: JSON in a string
            return _scrub_text_body(tree, policy)
        return scrub_text(tree, policy)
    if isinstance(tree, dict):
        return _scrub_dict(cast(dict[str, object], tree), policy)
    if isinstance(tree, list):
        items = cast(list[object], tree)
        scrubbed = [scrub_tree(item, policy) for item in items]
        if any(new is not old for new, old in zip(scrubbed, items, strict=True)):
            return scrubbed
        return items
    return tree


def _scrub_event(event: SseEvent, policy: ScrubPolicy) -> SseEvent:
    if event.raw_data:
        data: object = _scrub_text_body(str(event.data), policy)
    else:
        data = scrub_tree(event.data, policy)
    comments = tuple(scrub_text(comment, policy) for comment in event.comments)
    name = None if event.event is None else scrub_text(event.event, policy)
    event_id = None if event.id is None else scrub_text(event.id, policy)
    # A server writes what it likes in a field a client only reads as a number.
    retry = None if event.retry is None else scrub_text(event.retry, policy)
    # A data change the raw block text cannot show (a redacted field): rebuild the block.
    if data is not event.data:
        raw = None
    else:
        raw = None if event.raw is None else scrub_text(event.raw, policy)
    if (
        data is event.data
        and raw is event.raw
        and name is event.event
        and event_id is event.id
        and retry is event.retry
        and comments == event.comments
    ):
        return event
    return replace(
        event, event=name, data=data, id=event_id, retry=retry, comments=comments, raw=raw
    )


def scrub_body(body: Body, policy: ScrubPolicy = DEFAULT_POLICY) -> Body:
    """A body with secrets redacted (binary bodies are left as they are)."""
    if isinstance(body, JsonBody):
        data = scrub_tree(body.data, policy)
        return body if data is body.data else JsonBody(data)
    if isinstance(body, SseBody):
        joined = redact_split_secrets(body.events, policy)
        events = tuple(_scrub_event(event, policy) for event in joined)
        if all(new is old for new, old in zip(events, body.events, strict=True)):
            return body
        return replace(body, events=events)
    if isinstance(body, TextBody):
        text = _scrub_text_body(body.text, policy)
        return body if text is body.text else TextBody(text)
    if isinstance(body, (BinaryBody, EmptyBody)):
        return body
    return body


def scrub_request(
    request: RecordedRequest, policy: ScrubPolicy = DEFAULT_POLICY
) -> RecordedRequest:
    """A request with credentials redacted from its method (a hand-edited cassette's may
    hold anything), URI, headers and body."""
    method = scrub_text(request.method, policy)
    uri = scrub_uri(request.uri, policy)
    headers = scrub_headers(request.headers, policy)
    body = scrub_body(request.body, policy)
    if (
        method is request.method
        and uri is request.uri
        and headers is request.headers
        and body is request.body
    ):
        return request
    return RecordedRequest(method=method, uri=uri, headers=headers, body=body)


def scrub_response(
    response: RecordedResponse, policy: ScrubPolicy = DEFAULT_POLICY
) -> RecordedResponse:
    """A response with credentials redacted from its reason phrase, headers and body."""
    # A server writes what it likes in the status line ("401 Bad key sk-...").
    reason = scrub_text(response.reason, policy) if response.reason else response.reason
    headers = scrub_headers(response.headers, policy)
    body = scrub_body(response.body, policy)
    if reason is response.reason and headers is response.headers and body is response.body:
        return response
    return replace(response, reason=reason, headers=headers, body=body)


def scrub_interaction(
    interaction: Interaction, policy: ScrubPolicy = DEFAULT_POLICY
) -> Interaction:
    """An interaction with every credential redacted (idempotent)."""
    request = scrub_request(interaction.request, policy)
    response = scrub_response(interaction.response, policy)
    if request is interaction.request and response is interaction.response:
        return interaction
    return Interaction(request=request, response=response)


def scrub_cassette(cassette: Cassette, policy: ScrubPolicy = DEFAULT_POLICY) -> Cassette:
    """A cassette with every interaction, its metadata and its header's texts scrubbed."""
    interactions = tuple(scrub_interaction(item, policy) for item in cassette.interactions)
    header = cassette.header
    provenance = header.provenance and scrub_text(header.provenance, policy)
    # a hand-edited file may say anything
    source = scrub_text(header.source, policy)
    version = scrub_text(header.tooltape_version, policy)
    if (
        provenance != header.provenance
        or source != header.source
        or version != header.tooltape_version
    ):
        header = replace(
            header,
            tooltape_version=version,
            provenance=provenance,
            source=cast("CassetteSource", source),
        )
    metadata: object = scrub_tree(dict(cassette.metadata), policy) if cassette.metadata else {}
    unchanged = header is cassette.header and metadata == cassette.metadata
    if unchanged and all(
        new is old for new, old in zip(interactions, cassette.interactions, strict=True)
    ):
        return cassette
    return replace(
        cassette,
        header=header,
        interactions=interactions,
        metadata=cast("Mapping[str, object]", metadata),
    )


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
