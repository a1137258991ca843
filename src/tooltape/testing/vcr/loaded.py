"""A loaded tooltape cassette as what vcrpy replays: ``(requests, responses)``.

``cassette_to_vcr`` gives vcrpy's serialised data, bodies written with the
standard library's JSON encoder; replay loads every cassette of every test,
so here JSON bodies are written by ``pydantic_core.to_json`` (about three
times faster; the same bytes for real responses, and always the same JSON
values: only the spelling of some floats may differ, ``1e-7`` for ``1e-07``).
``content-length`` always matches the bytes replayed, and the responses of a
cassette read from tooltape JSON are marked ``SCANNED`` as ``cassette_to_vcr``
marks them (they were scrubbed when written).
"""

from __future__ import annotations

from typing import Any

from pydantic_core import PydanticSerializationError, to_json

from tooltape.testing.cassette import Body, Cassette, JsonBody
from tooltape.testing.cassette._model import Headers, wire_headers
from tooltape.testing.cassette._vcrpy_format import SCANNED
from tooltape.testing.vcr._names import VcrRequest, request_from_dict

__all__ = ["vcr_interactions"]


def _body_bytes(body: Body) -> bytes:
    if isinstance(body, JsonBody):
        try:
            return to_json(body.data)
        except (PydanticSerializationError, ValueError):
            pass  # e.g. a lone surrogate: the standard encoder says what is wrong
    return body.to_bytes()


def _listed(headers: Headers, body: bytes) -> dict[str, list[str]]:
    return {name: list(values) for name, values in wire_headers(headers, body).items()}


def vcr_interactions(cassette: Cassette) -> tuple[list[VcrRequest], list[dict[str, Any]]]:
    """vcrpy's requests and response dicts for every interaction of ``cassette``, in order."""
    requests: list[VcrRequest] = []
    responses: list[dict[str, Any]] = []
    scanned = cassette.format == "tooltape"
    for interaction in cassette.interactions:
        request, response = interaction.request, interaction.response
        body = _body_bytes(request.body)
        requests.append(
            request_from_dict(
                {
                    "method": request.method,
                    "uri": request.uri,
                    "body": body,
                    "headers": _listed(request.headers, body),
                }
            )
        )
        body = _body_bytes(response.body)
        loaded: dict[str, Any] = {
            "status": {"code": response.status_code, "message": response.reason},
            "headers": _listed(response.headers, body),
            "body": {"string": body},
        }
        if scanned:
            loaded[SCANNED] = True
        responses.append(loaded)
    return requests, responses
