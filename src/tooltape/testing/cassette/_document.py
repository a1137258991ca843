"""The tooltape document: a cassette as a JSON tree, and back.

``{"tooltape": {"version", "source", "provenance"}, "interactions": [...]}``.
Bodies are tagged objects: ``{"json": tree}``, ``{"sse": [events]}``,
``{"text": str}``, ``{"base64": str}`` or ``null``. Body trees are taken over
as they are (no copies, no key sorting).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Any, cast, get_args

from tooltape.testing.cassette._errors import StructureError
from tooltape.testing.cassette._model import (
    JSON_STYLES,
    BinaryBody,
    Body,
    Cassette,
    CassetteHeader,
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
    standard_reason,
)
from tooltape.testing.cassette._shape import (
    describe,
    expect_list,
    expect_map,
    expect_status,
    expect_str,
    expect_uri,
    pointer,
)

__all__ = ["body_to_document", "cassette_from_document", "cassette_to_document"]

_SOURCES: tuple[str, ...] = get_args(CassetteSource)
_BODY_TAGS = ("json", "sse", "text", "base64")
_LINE_ENDINGS = ("\n", "\r\n", "\r")


def _headers_to_document(headers: Headers) -> dict[str, list[str]]:
    return {name: list(headers[name]) for name in sorted(headers, key=str.lower)}


def _event_to_document(event: SseEvent) -> dict[str, object]:
    doc: dict[str, object] = {}
    if event.event is not None:
        doc["event"] = event.event
    if event.id is not None:
        doc["id"] = event.id
    if event.retry is not None:
        doc["retry"] = event.retry
    if event.comments:
        doc["comments"] = list(event.comments)
    if event.data is not None:
        data: object = event.data
        tree_like = not event.raw_data and isinstance(data, (dict, list))
        doc["data"] = event.data if tree_like else event.data_text
        if tree_like and event.json_style != "compact":
            doc["json_style"] = event.json_style
    if event.raw is not None:
        doc["raw"] = event.raw
    return doc


def body_to_document(body: Body) -> dict[str, object] | None:
    """The tagged on-disk form of a body."""
    if isinstance(body, JsonBody):
        return {"json": body.data}
    if isinstance(body, SseBody):
        doc: dict[str, object] = {"sse": [_event_to_document(event) for event in body.events]}
        if body.line_ending != "\n":
            doc["line_ending"] = body.line_ending
        return doc
    if isinstance(body, TextBody):
        return {"text": body.text}
    if isinstance(body, BinaryBody):
        return {"base64": base64.b64encode(body.data).decode("ascii")}
    return None


def cassette_to_document(cassette: Cassette) -> dict[str, object]:
    """The whole cassette as a JSON-ready tree, keys in their on-disk order."""
    header = cassette.header
    interactions: list[object] = []
    for interaction in cassette.interactions:
        request, response = interaction.request, interaction.response
        interactions.append(
            {
                "request": {
                    "method": request.method,
                    "uri": request.uri,
                    "headers": _headers_to_document(request.headers),
                    "body": body_to_document(request.body),
                },
                "response": {
                    "status_code": response.status_code,
                    "reason": response.reason,
                    "headers": _headers_to_document(response.headers),
                    "body": body_to_document(response.body),
                },
            }
        )
    doc: dict[str, object] = {
        "tooltape": {
            "version": header.tooltape_version,
            "source": header.source,
            "provenance": header.provenance,
        },
        "interactions": interactions,
    }
    if cassette.metadata:
        doc["metadata"] = dict(cassette.metadata)
    return doc


def _headers_from_document(value: object, where: str, key: str) -> dict[str, tuple[str, ...]]:
    # Values are checked to be strings below: a cast per value would cost more than that.
    raw: Mapping[str, Any] = expect_map(value, where, key)
    headers: dict[str, tuple[str, ...]] = {
        name.lower(): (values,) if isinstance(values, str) else tuple(values)  # pyright: ignore[reportUnknownArgumentType]
        for name, values in raw.items()
        if isinstance(values, (str, list))
    }
    if len(headers) == len(raw) and _all_strings(headers.values()):
        return headers
    headers_at = pointer(where, key)  # a wrong value, or names differing only in case
    merged: dict[str, tuple[str, ...]] = {}
    for name, values in raw.items():
        if isinstance(values, str):
            items: tuple[str, ...] = (values,)
        else:
            listed = expect_list(values, headers_at, name)
            at = pointer(headers_at, name)
            items = tuple(expect_str(item, at, index) for index, item in enumerate(listed))
        merged[name.lower()] = merged.get(name.lower(), ()) + items
    return merged


def _all_strings(groups: Iterable[tuple[str, ...]]) -> bool:
    try:
        "".join(chain.from_iterable(groups))  # C-speed check; headers are read for every test
    except TypeError:
        return False
    return True


def _optional_str(doc: Mapping[str, object], key: str, where: str) -> str | None:
    value = doc.get(key)
    return None if value is None else expect_str(value, where, key)


def _comments(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    items = expect_list(value, where, "comments")
    return tuple(expect_str(item, pointer(where, "comments"), i) for i, item in enumerate(items))


_PLAIN_EVENT_KEYS = frozenset({"event", "data"})


def _event_from_document(value: object, where: str) -> SseEvent:
    doc = expect_map(value, where)
    name = doc.get("event")
    if doc.keys() <= _PLAIN_EVENT_KEYS and (name is None or isinstance(name, str)):
        data = doc.get("data")  # the common case, kept cheap: streams are long
        return SseEvent(name, data, isinstance(data, str))
    data = doc.get("data")
    style = _optional_str(doc, "json_style", where) or "compact"
    if style not in JSON_STYLES:
        raise StructureError(
            pointer(where, "json_style"),
            f"is {describe(style)}; it must be one of {', '.join(JSON_STYLES)}",
        )
    return SseEvent(
        event=_optional_str(doc, "event", where),
        data=data,
        raw_data=isinstance(data, str),
        id=_optional_str(doc, "id", where),
        retry=_optional_str(doc, "retry", where),
        comments=_comments(doc.get("comments"), where),
        raw=_optional_str(doc, "raw", where),
        json_style=style,
    )


def _body_from_document(value: object, where: str) -> Body:
    if value is None:
        return EmptyBody()
    doc = expect_map(value, where)
    tags = [tag for tag in _BODY_TAGS if tag in doc]
    if len(tags) != 1:
        known = ", ".join(_BODY_TAGS)
        raise StructureError(
            where, f"expected exactly one body encoding of {known} or null, got keys {list(doc)}"
        )
    tag = tags[0]
    content = doc[tag]
    if tag == "json":
        return JsonBody(content)
    if tag == "text":
        return TextBody(expect_str(content, where, tag))
    if tag == "base64":
        try:
            return BinaryBody(base64.b64decode(expect_str(content, where, tag), validate=True))
        except binascii.Error as error:
            raise StructureError(pointer(where, tag), f"invalid base64 ({error})") from None
    events = expect_list(content, where, tag)
    at = pointer(where, tag)
    line_ending = _optional_str(doc, "line_ending", where) or "\n"
    if line_ending not in _LINE_ENDINGS:
        # Replay writes it between the stream's lines: anything else is bytes no server sent.
        raise StructureError(
            pointer(where, "line_ending"),
            f"is {describe(line_ending)}; a stream's lines end with one of "
            + ", ".join(repr(ending) for ending in _LINE_ENDINGS),
        )
    return SseBody(
        events=tuple(_event_from_document(item, f"{at}/{i}") for i, item in enumerate(events)),
        line_ending=line_ending,
    )


def _interaction_from_document(value: object, where: str) -> Interaction:
    doc = expect_map(value, where)
    req_at, resp_at = f"{where}/request", f"{where}/response"
    req = expect_map(doc.get("request"), req_at)
    resp = expect_map(doc.get("response"), resp_at)
    request = RecordedRequest(
        method=expect_str(req.get("method"), req_at, "method"),
        uri=expect_uri(req.get("uri"), req_at, "uri"),
        headers=_headers_from_document(req.get("headers", {}), req_at, "headers"),
        body=_body_from_document(req.get("body"), f"{req_at}/body"),
    )
    reason = resp.get("reason")
    status_code = expect_status(resp.get("status_code"), resp_at, "status_code", digit_text=False)
    response = RecordedResponse(
        status_code=status_code,
        reason=standard_reason(status_code)
        if reason is None
        else expect_str(reason, resp_at, "reason"),
        headers=_headers_from_document(resp.get("headers", {}), resp_at, "headers"),
        body=_body_from_document(resp.get("body"), f"{resp_at}/body"),
    )
    return Interaction(request=request, response=response)


def _header_from_document(value: object) -> CassetteHeader:
    doc = expect_map(value, "/tooltape")
    source = expect_str(doc.get("source"), "/tooltape", "source")
    if source not in _SOURCES:
        raise StructureError(
            "/tooltape/source", f"expected one of {', '.join(_SOURCES)}, got {describe(source)}"
        )
    return CassetteHeader(
        tooltape_version=expect_str(doc.get("version"), "/tooltape", "version"),
        source=cast(CassetteSource, source),
        provenance=_optional_str(doc, "provenance", "/tooltape"),
    )


def cassette_from_document(value: object) -> Cassette:
    """Build a cassette from a parsed tooltape document.

    Raises :class:`StructureError` naming the first value of the wrong shape.
    """
    doc = expect_map(value, "")
    header = _header_from_document(doc.get("tooltape"))
    items = expect_list(doc.get("interactions"), "/interactions")
    interactions = tuple(
        _interaction_from_document(item, f"/interactions/{i}") for i, item in enumerate(items)
    )
    metadata = doc.get("metadata")
    return Cassette(
        header=header,
        interactions=interactions,
        metadata={} if metadata is None else expect_map(metadata, "/metadata"),
        format="tooltape",
    )
