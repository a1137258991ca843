"""A loaded tooltape cassette as what vcrpy replays: ``(requests, responses)``.

``cassette_to_vcr`` gives vcrpy's serialised data, bodies written with the
standard library's JSON encoder; replay loads every cassette of every test,
so here JSON bodies, and the JSON data of plain stream events, are written
by ``pydantic_core.to_json`` (three to five times faster; the same bytes for
real responses, and always the same JSON values: only the spelling of some
floats may differ, ``1e-7`` for ``1e-07``).
``content-length`` always matches the bytes replayed, and the responses of a
cassette read from tooltape JSON are marked ``SCANNED`` as ``cassette_to_vcr``
marks them (they were scrubbed when written). Those responses are written
only when something reads them (:class:`~tooltape.testing.vcr.deferred.DeferredResponse`):
a test pays for the bodies it plays, not for every body of its cassette.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any
from urllib.parse import urlparse

from pydantic_core import PydanticSerializationError, to_json

from tooltape.testing.cassette import Body, Cassette, CassetteError, JsonBody
from tooltape.testing.cassette._format import non_finite_error
from tooltape.testing.cassette._limits import NonFiniteNumberError, check_finite
from tooltape.testing.cassette._model import (
    Headers,
    RecordedResponse,
    SseBody,
    SseEvent,
    utf8,
    wire_headers,
)
from tooltape.testing.cassette._vcrpy_format import SCANNED
from tooltape.testing.vcr._names import VcrRequest, make_request
from tooltape.testing.vcr.deferred import DeferredResponse

__all__ = ["SHARED_FROM", "vcr_interactions"]

SHARED_FROM = "tooltape_shared_from"
"""The attribute marking a request loaded from a shared cassette (the ``vcr`` mark's): the
file it came from. vcrpy's copies of the request keep it."""


_UNENCODABLE = (PydanticSerializationError, ValueError)
"""What ``to_json`` raises for a lone surrogate: the standard encoder then says what is wrong."""

_INFINITY = b"Infinity"
"""How ``to_json`` writes an infinity. A loaded tree holds no NaN (the parser refuses
it) but may hold an infinity (``1e400``): only when the bytes hold this word (a
string may too) is the tree looked through, to name where."""


def _event_bytes(event: SseEvent, ending: bytes) -> bytes | None:
    """A plain event (``event:``, compact JSON ``data:``) as ``to_text`` writes it, or ``None``."""
    if (
        event.raw is not None
        or event.raw_data
        or event.data is None
        or event.json_style != "compact"
        or event.comments
        or event.id is not None
        or event.retry is not None
    ):
        return None
    try:
        written = to_json(event.data)
    except _UNENCODABLE:
        return None
    if _INFINITY in written:
        check_finite(event.data)
    data = b"data: " + written + ending + ending
    if event.event is None:
        return data
    return b"event: " + utf8(event.event) + ending + data


def _stream_bytes(body: SseBody) -> bytes:
    ending = body.line_ending
    encoded = utf8(ending)
    blocks: list[bytes] = []
    for index, event in enumerate(body.events):
        try:
            block = _event_bytes(event, encoded)
            blocks.append(block if block is not None else utf8(event.to_text(ending)))
        except ValueError:
            try:
                check_finite(event.data)
            except NonFiniteNumberError as error:
                where = f"/{index}/data{error.where}"
                raise NonFiniteNumberError(where, error.value) from None
            raise
    return b"".join(blocks)


def _body_bytes(body: Body) -> bytes:
    """The body's bytes; :class:`NonFiniteNumberError` for an infinity in its JSON."""
    if isinstance(body, JsonBody):
        try:
            data = to_json(body.data)
        except _UNENCODABLE:
            pass
        else:
            if _INFINITY in data:
                check_finite(body.data)
            return data
    elif isinstance(body, SseBody):
        return _stream_bytes(body)
    return body.to_bytes()


def _listed(headers: Headers, body: bytes) -> dict[str, list[str]]:
    return {name: list(values) for name, values in wire_headers(headers, body).items()}


def _located(
    error: NonFiniteNumberError, body: Body, path: str | None, index: int, side: str
) -> CassetteError:
    """The ``CassetteError`` naming ``path`` and where ``error`` is (the body of
    interaction ``index``'s ``side``)."""
    tag = "sse" if isinstance(body, SseBody) else "json"
    where = f"/interactions/{index}/{side}/body/{tag}{error.where}"
    return non_finite_error(path or "<cassette>", NonFiniteNumberError(where, error.value))


def _response_dict(response: RecordedResponse, path: str | None, index: int) -> dict[str, Any]:
    try:
        body = _body_bytes(response.body)
    except NonFiniteNumberError as error:
        raise _located(error, response.body, path, index, "response") from None
    return {
        "status": {"code": response.status_code, "message": response.reason},
        "headers": _listed(response.headers, body),
        "body": {"string": body},
    }


_Request: Any = importlib.import_module("vcr.request").Request
_HeadersDict: Any = importlib.import_module("vcr.request").HeadersDict


def _direct_request(method: str, uri: str, body: bytes, headers: Mapping[str, str]) -> Any:
    """``vcr.request.Request(method, uri, body, headers)`` for a bytes body, built by filling
    its attributes: its ``__init__`` (a property setter per field, each header set through
    a case-insensitive dict) is a fifth of a load."""
    store = {name.lower(): (name, value) for name, value in headers.items()}
    if len(store) != len(headers):  # names differing only in case: vcrpy merges its way
        return make_request(method, uri, body, headers)
    stored = _HeadersDict.__new__(_HeadersDict)
    stored._store = store
    request = _Request.__new__(_Request)
    request.__dict__.update(
        method=method,
        _uri=uri,
        parsed_uri=urlparse(uri),
        _was_file=False,
        _was_iter=False,
        _body=body,
        _headers=stored,
    )
    return request


def _state(request: Any) -> dict[str, Any]:
    return {**vars(request), "_headers": vars(request._headers)}


def _request_builder() -> Callable[[str, str, bytes, Mapping[str, str]], VcrRequest]:
    """:func:`_direct_request` when it builds what vcrpy's own ``__init__`` builds (tried
    once, on a sample with every kind of value), else vcrpy's constructor."""
    sample = ("POST", "https://api.example.test/v1/x?a=1", b"{}", {"a": "1", "B-c": "2"})
    try:
        same = _state(_direct_request(*sample)) == _state(make_request(*sample))
    except Exception:  # a vcrpy whose Request is built another way
        same = False
    return _direct_request if same else make_request


_loaded_request = _request_builder()


def vcr_interactions(
    cassette: Cassette, path: str | None = None
) -> tuple[list[VcrRequest], list[dict[str, Any]]]:
    """vcrpy's requests and response dicts for every interaction of ``cassette``, in order.

    A body holding an infinity (``1e400`` in a cassette loaded with
    ``check_numbers=False``) raises ``CassetteError`` naming ``path`` and the
    value's place when its bytes are written: a request's as it loads, a
    response's as it is played.

    A response of a tooltape cassette is a :class:`DeferredResponse`, written
    when first read. One of a vcrpy cassette is written now: the recording
    hook reads it as vcrpy loads it (to scrub it); so is one that still has a
    ``content-encoding`` (tooltape could not decode it), which vcrpy's
    decoding step reads.
    """
    requests: list[VcrRequest] = []
    responses: list[dict[str, Any]] = []
    scanned = cassette.format == "tooltape"
    for index, interaction in enumerate(cassette.interactions):
        request, response = interaction.request, interaction.response
        try:
            body = _body_bytes(request.body)
        except NonFiniteNumberError as error:
            raise _located(error, request.body, path, index, "request") from None
        # vcrpy keeps one value per request header: the first (its HeadersDict takes [0]).
        headers = {
            name: values[0]
            for name, values in wire_headers(request.headers, body).items()
            if values  # a header recorded with no value (`accept: []`) was not sent
        }
        requests.append(_loaded_request(request.method, request.uri, body, headers))
        if scanned and "content-encoding" not in response.headers:
            responses.append(DeferredResponse(partial(_response_dict, response, path, index)))
            continue
        loaded = _response_dict(response, path, index)
        if scanned:
            loaded[SCANNED] = True
        responses.append(loaded)
    return requests, responses
