"""Interactions are written in the order their requests were sent, not answered.

vcrpy's httpx stub (it serves httpx2 too) adds an interaction to the cassette
once its response has been read. Requests sent together (``asyncio.gather``,
a thread pool) are answered in whatever order the server finishes them, and
replay gives equal requests their recorded answers in cassette order: five
equal requests answered last-first replayed each one the answer another had
got. Here each request recorded carries the place it was sent in, and a
cassette is written with its new interactions in that order, so code that
sends in a fixed order gets back what it got when it recorded. (Requests
sent from several threads at once have no fixed order, then or later.)

Interactions loaded from the cassette keep their places; when a request
recorded in the run carries no place (another HTTP library's, which vcrpy
records through another stub), the cassette is written as vcrpy recorded it.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tooltape.testing.vcr._names import httpx_stubs
from tooltape.testing.vcr.stub_wraps import wrap_once

__all__ = ["in_send_order", "record_in_send_order"]

_SENT = "tooltape_sent"
"""The attribute a recorded request's place in sending is kept in."""

_places = itertools.count()
_recording = threading.Lock()

Interaction = TypeVar("Interaction")


def _placed_when_sent(vcr_request: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(vcr_request)
    def sent(cassette: Any, real_request: Any, body: bytes, httpx: Any) -> tuple[Any, Any]:
        request, response = vcr_request(cassette, real_request, body, httpx)
        if response is None:  # going to the server: recorded when answered
            setattr(request, _SENT, next(_places))
        return request, response

    return sent


def _placed_when_recorded(record: Callable[..., object]) -> Callable[..., None]:
    @functools.wraps(record)
    def recorded(cassette: Any, request: Any, response: Any, content: bytes) -> None:
        place = getattr(request, _SENT, None)
        with _recording:  # which interaction the cassette adds is this one's
            data: list[tuple[Any, Any]] = cassette.data
            before = len(data)
            record(cassette, request, response, content)
            if place is not None and len(data) > before:
                setattr(data[-1][0], _SENT, place)

    return recorded


def record_in_send_order() -> None:
    """Have vcrpy's httpx stub note the place each recorded request was sent in (once;
    a vcrpy whose stub lacks the functions wrapped is left alone)."""
    stubs = httpx_stubs()
    if not callable(getattr(stubs, "_vcr_request", None)) or not callable(
        getattr(stubs, "_record_responses", None)
    ):
        return
    wrap_once(stubs, "_vcr_request", "tooltape_places_sent", _placed_when_sent)
    wrap_once(stubs, "_record_responses", "tooltape_places_recorded", _placed_when_recorded)


def in_send_order(
    requests: Sequence[Any], interactions: Sequence[Interaction]
) -> list[Interaction]:
    """``interactions`` (one per request of ``requests``) with those recorded in this run
    put in the order their requests were sent, each where one of them was."""
    places: list[int | None] = [getattr(request, _SENT, None) for request in requests]
    recorded = [i for i, place in enumerate(places) if place is not None]
    ordered = list(interactions)
    if len(recorded) < 2 or any(place is None for place in places[recorded[0] :]):
        return ordered  # nothing to order, or not all of it placed: as recorded
    by_place = sorted(recorded, key=lambda i: places[i] or 0)
    for slot, i in zip(recorded, by_place, strict=True):
        ordered[slot] = interactions[i]
    return ordered
