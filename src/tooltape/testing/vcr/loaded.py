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

from functools import partial
from typing import Any

from pydantic_core import PydanticSerializationError, to_json

from tooltape.testing.cassette import Body, Cassette, JsonBody
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

__all__ = ["vcr_interactions"]


_UNENCODABLE = (PydanticSerializationError, ValueError)
"""What ``to_json`` raises for a lone surrogate: the standard encoder then says what is wrong."""


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
        data = b"data: " + to_json(event.data) + ending + ending
    except _UNENCODABLE:
        return None
    if event.event is None:
        return data
    return b"event: " + utf8(event.event) + ending + data


def _stream_bytes(body: SseBody) -> bytes:
    ending = body.line_ending
    encoded = utf8(ending)
    blocks: list[bytes] = []
    for event in body.events:
        block = _event_bytes(event, encoded)
        blocks.append(block if block is not None else utf8(event.to_text(ending)))
    return b"".join(blocks)


def _body_bytes(body: Body) -> bytes:
    if isinstance(body, JsonBody):
        try:
            return to_json(body.data)
        except _UNENCODABLE:
            pass
    elif isinstance(body, SseBody):
        return _stream_bytes(body)
    return body.to_bytes()


def _listed(headers: Headers, body: bytes) -> dict[str, list[str]]:
    return {name: list(values) for name, values in wire_headers(headers, body).items()}


def _response_dict(response: RecordedResponse) -> dict[str, Any]:
    body = _body_bytes(response.body)
    return {
        "status": {"code": response.status_code, "message": response.reason},
        "headers": _listed(response.headers, body),
        "body": {"string": body},
    }


def vcr_interactions(cassette: Cassette) -> tuple[list[VcrRequest], list[dict[str, Any]]]:
    """vcrpy's requests and response dicts for every interaction of ``cassette``, in order.

    A response of a tooltape cassette is a :class:`DeferredResponse`, written
    when first read. One of a vcrpy cassette is written now: the recording
    hook reads it as vcrpy loads it (to scrub it); so is one that still has a
    ``content-encoding`` (tooltape could not decode it), which vcrpy's
    decoding step reads.
    """
    requests: list[VcrRequest] = []
    responses: list[dict[str, Any]] = []
    scanned = cassette.format == "tooltape"
    for interaction in cassette.interactions:
        request, response = interaction.request, interaction.response
        body = _body_bytes(request.body)
        # vcrpy keeps one value per request header: the first (its HeadersDict takes [0]).
        headers = {name: values[0] for name, values in wire_headers(request.headers, body).items()}
        requests.append(make_request(request.method, request.uri, body, headers))
        if scanned and "content-encoding" not in response.headers:
            responses.append(DeferredResponse(partial(_response_dict, response)))
            continue
        loaded = _response_dict(response)
        if scanned:
            loaded[SCANNED] = True
        responses.append(loaded)
    return requests, responses
