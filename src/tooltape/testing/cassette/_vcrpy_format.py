"""vcrpy's interaction dicts to model values, and back (no vcrpy import).

vcrpy keeps a request as ``{"method", "uri", "body", "headers": {name: [v]}}``
and a response as ``{"status": {"code", "message"}, "headers": {name: [v...]},
"body": {"string": bytes | str}}``. Cassettes written by some projects store
a JSON body as a parsed tree under ``parsed_body`` instead; both are read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import cast

from tooltape.testing.cassette._bodies import body_from_bytes, decode_content, normalize_headers
from tooltape.testing.cassette._errors import StructureError
from tooltape.testing.cassette._limits import NON_FINITE_HINT, NonFiniteNumberError
from tooltape.testing.cassette._model import (
    Body,
    Cassette,
    CassetteHeader,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    standard_reason,
    wire_headers,
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

__all__ = [
    "SCANNED",
    "VCR_FORMAT_VERSION",
    "cassette_from_vcr",
    "cassette_to_vcr",
    "raw_body_bytes",
    "request_from_vcr",
    "request_to_vcr",
    "response_from_vcr",
    "response_to_vcr",
]

VCR_FORMAT_VERSION = 1
"""The ``version`` vcrpy writes into its cassettes."""

SCANNED = "tooltape_scanned"
"""Key set (to ``True``) on a response dict read from a tooltape cassette.

Such a response was scrubbed and scanned when the cassette was written, so
the recording hooks vcrpy runs on every loaded response pass it through
unexamined. Only dicts tooltape builds carry it; a dict read from a vcrpy
file never reaches the hooks with it.
"""


def raw_body_bytes(value: object, where: str) -> bytes:
    """The bytes of a vcrpy body value: ``None``, text, bytes, a file, a list or an iterator."""
    if value is None:
        return b""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytearray):
        return bytes(value)
    if isinstance(value, Mapping):
        return raw_body_bytes(
            cast(Mapping[str, object], value).get("string"), pointer(where, "string")
        )
    if isinstance(value, list):
        items = cast(list[object], value)
        return b"".join(raw_body_bytes(item, where) for item in items)
    getvalue = getattr(value, "getvalue", None)
    if callable(getvalue):
        return raw_body_bytes(getvalue(), where)
    if isinstance(value, Iterator):
        chunks = cast(Iterator[object], value)
        return b"".join(raw_body_bytes(chunk, where) for chunk in chunks)
    raise StructureError(where, f"expected a body string, got {describe(value)}")


_SCALARS = (str, int, float, bool, type(None))


def json_tree(value: object, where: str) -> object:
    """``value`` if it is plain JSON data, else a :class:`StructureError` at the first value
    that is not (YAML reads ``!!set``, ``!!binary`` and ``!!python/tuple`` keys too).

    Each shared node (a YAML alias) is walked once.
    """
    pending: list[tuple[object, str]] = [(value, where)]
    seen: set[int] = set()
    while pending:
        node, at = pending.pop()
        if isinstance(node, _SCALARS):
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            for key, child in cast("dict[object, object]", node).items():
                if not isinstance(key, _SCALARS):
                    raise StructureError(at, f"a key is {describe(key)}, not text")
                pending.append((child, pointer(at, str(key))))
        elif isinstance(node, (list, tuple)):
            items = cast("list[object] | tuple[object, ...]", node)
            pending.extend((child, pointer(at, index)) for index, child in enumerate(items))
        else:
            raise StructureError(at, f"expected JSON data, got {describe(node)}")
    return value


def _body(doc: Mapping[str, object], headers: dict[str, tuple[str, ...]], where: str) -> Body:
    """Decode and classify a body; ``headers`` loses ``content-encoding`` if decoded."""
    if "parsed_body" in doc:
        return JsonBody(json_tree(doc["parsed_body"], pointer(where, "parsed_body")))
    key = "body" if "body" in doc else "content"
    raw = raw_body_bytes(doc.get(key), pointer(where, key))
    decoded_headers, data = decode_content(headers, raw)
    headers.clear()
    headers.update(decoded_headers)
    try:
        return body_from_bytes(headers, data)
    except NonFiniteNumberError as error:
        inside = f" (at {error.where} of its JSON)" if error.where else ""
        raise StructureError(
            pointer(where, key), f"{error.problem}{inside}", NON_FINITE_HINT
        ) from None


def _headers(doc: Mapping[str, object], where: str) -> dict[str, tuple[str, ...]]:
    return normalize_headers(expect_map(doc.get("headers") or {}, pointer(where, "headers")))


def request_from_vcr(value: object, where: str = "/request") -> RecordedRequest:
    """A request from vcrpy's dict (``body`` or ``parsed_body``)."""
    doc = expect_map(value, where)
    headers = _headers(doc, where)
    body = _body(doc, headers, where)
    return RecordedRequest(
        method=expect_str(doc.get("method"), pointer(where, "method")),
        uri=expect_uri(doc.get("uri"), pointer(where, "uri")),
        headers=headers,
        body=body,
    )


def response_from_vcr(value: object, where: str = "/response") -> RecordedResponse:
    """A response from vcrpy's dict (``body.string``, ``body`` or ``parsed_body``)."""
    doc = expect_map(value, where)
    headers = _headers(doc, where)
    body = _body(doc, headers, where)
    if "status" in doc:
        status_at = pointer(where, "status")
        status = expect_map(doc["status"], status_at)
        code = expect_status(status.get("code"), pointer(status_at, "code"))
        message = status.get("message")
        reason = (
            standard_reason(code)
            if message is None
            else expect_str(message, pointer(status_at, "message"))
        )
    else:  # very old httpx cassettes
        code = expect_status(doc.get("status_code"), pointer(where, "status_code"))
        reason = standard_reason(code)
    return RecordedResponse(status_code=code, reason=reason, headers=headers, body=body)


def request_to_vcr(request: RecordedRequest) -> dict[str, object]:
    """vcrpy's request dict (``Request._from_dict`` accepts it)."""
    body = request.body.to_bytes()
    return {
        "method": request.method,
        "uri": request.uri,
        "body": body,
        "headers": {
            name: list(values) for name, values in wire_headers(request.headers, body).items()
        },
    }


def response_to_vcr(response: RecordedResponse) -> dict[str, object]:
    """vcrpy's response dict, ``content-length`` matching the bytes replayed."""
    body = response.body.to_bytes()
    return {
        "status": {"code": response.status_code, "message": response.reason},
        "headers": {
            name: list(values) for name, values in wire_headers(response.headers, body).items()
        },
        "body": {"string": body},
    }


def cassette_from_vcr(value: object, header: CassetteHeader) -> Cassette:
    """A cassette from vcrpy's serialised data ``{"version", "interactions", "metadata"?}``."""
    doc = expect_map(value, "")
    items = expect_list(doc.get("interactions"), "/interactions")
    interactions: list[Interaction] = []
    for index, item in enumerate(items):
        at = pointer("/interactions", index)
        pair = expect_map(item, at)
        interactions.append(
            Interaction(
                request=request_from_vcr(pair.get("request"), pointer(at, "request")),
                response=response_from_vcr(pair.get("response"), pointer(at, "response")),
            )
        )
    metadata = doc.get("metadata")
    return Cassette(
        header=header,
        interactions=tuple(interactions),
        metadata={} if not metadata else expect_map(json_tree(metadata, "/metadata"), "/metadata"),
        format="vcrpy",
    )


def _loaded_response(response: RecordedResponse, scanned: bool) -> dict[str, object]:
    data = response_to_vcr(response)
    if scanned:
        data[SCANNED] = True
    return data


def cassette_to_vcr(cassette: Cassette) -> dict[str, object]:
    """vcrpy's serialised data, as its own deserialiser would return it.

    The responses of a cassette read from tooltape JSON are marked
    :data:`SCANNED` (they were scrubbed when written).
    """
    scanned = cassette.format == "tooltape"
    data: dict[str, object] = {
        "version": VCR_FORMAT_VERSION,
        "interactions": [
            {
                "request": request_to_vcr(interaction.request),
                "response": _loaded_response(interaction.response, scanned),
            }
            for interaction in cassette.interactions
        ],
    }
    if cassette.metadata:
        data["metadata"] = dict(cassette.metadata)
    return data
