"""One recorded interaction per request, also when threads replay a cassette at once.

vcrpy's ``Cassette.play_response`` takes the first matching interaction not
played yet, then counts it as played. Two threads sending equal requests at
the same moment (a ``ThreadPoolExecutor`` around ``openai.OpenAI``) could
both take the same one: one answer given twice, another left unplayed, and a
test that failed as stale now and then. :func:`play_each_once` gives a
loaded cassette a ``play_response`` that takes and counts under a lock.

vcrpy asks whether a request can be played before it plays it; a thread
that finds every match taken in between gets what vcrpy raises for a request
its cassette cannot answer (``CannotOverwriteExistingCassetteException``,
reason ``already_played``), which the plugin explains like any other extra
request, not vcrpy's bare ``UnhandledHTTPRequestError``. A cassette that may
record (``new_episodes``) records it instead, as vcrpy does a request it
finds no unplayed match for: :func:`record_matches_taken` for vcrpy's httpx
stub (the OpenAI SDK's clients), :func:`play_or_record_matches_taken` for its
``http.client`` stub (requests, urllib3), which asks and plays inside
``getresponse``: it asks again, and plays the next match or records.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import threading
from collections.abc import Callable
from typing import Any, cast

from tooltape.testing.vcr._names import (
    CannotOverwriteExistingCassetteException,
    UnhandledHTTPRequestError,
    httpx_stubs,
)
from tooltape.testing.vcr.stub_wraps import wrap_once

__all__ = ["play_each_once", "play_or_record_matches_taken", "record_matches_taken"]

_refusal = cast("Callable[..., Exception]", CannotOverwriteExistingCassetteException)


class _PlayUnderLock:
    """A cassette's ``play_response``, one request at a time."""

    __slots__ = ("_cassette", "_lock", "_play")

    def __init__(self, cassette: Any) -> None:
        self._cassette = cassette
        self._play = cassette.play_response
        self._lock = threading.Lock()

    def __call__(self, request: Any) -> Any:
        with self._lock:
            try:
                return self._play(request)
            except UnhandledHTTPRequestError:
                cassette = self._cassette
                if not cassette.write_protected:
                    raise
        raise _refusal(cassette=cassette, failed_request=request)


def play_each_once(request: Any, response: Any, cassette: Any) -> tuple[Any, Any]:
    """vcrpy ``after_load_interaction`` hook: the cassette plays under a lock.

    It changes no interaction; the lock is set once, on the first interaction
    loaded. A cassette that loaded nothing has nothing to play.
    """
    if "play_response" not in vars(cassette):
        cassette.play_response = _PlayUnderLock(cassette)
    return request, response


# vcrpy asks inspect.signature whether the hook takes the cassette, once for
# every interaction it loads; a precomputed signature is the one it would find.
play_each_once.__signature__ = inspect.signature(play_each_once)


def _recorded_when_taken(vcr_request: Callable[..., Any], make: Callable[..., Any]) -> Any:
    @functools.wraps(vcr_request)
    def asked(cassette: Any, real_request: Any, body: bytes, httpx: Any) -> tuple[Any, Any]:
        try:
            return vcr_request(cassette, real_request, body, httpx)
        except UnhandledHTTPRequestError:
            if cassette.write_protected:
                raise
        return make(real_request, body), None  # to the server, and recorded

    return asked


def record_matches_taken() -> None:
    """Have vcrpy's httpx stub send (and record) a request whose match another thread
    played after the cassette said it could be played, when the cassette may record
    (once; a vcrpy whose stub lacks the functions used is left alone)."""
    stubs = httpx_stubs()
    make = getattr(stubs, "_make_vcr_request", None)
    if callable(make):
        wrap_once(
            stubs,
            "_vcr_request",
            "tooltape_records_taken",
            functools.partial(_recorded_when_taken, make=make),
        )


def _asked_again_when_taken(getresponse: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(getresponse)
    def answered(self: Any, *args: Any, **kwargs: Any) -> Any:
        cassette = self.cassette
        # Each refusal means another thread took a match: there are no more of those
        # than the cassette holds interactions.
        chances = len(cassette.data)
        while True:
            try:
                return getresponse(self, *args, **kwargs)
            except UnhandledHTTPRequestError:
                if cassette.write_protected or chances <= 0:
                    raise
                chances -= 1

    return answered


def play_or_record_matches_taken() -> None:
    """Have vcrpy's ``http.client`` stub ask again (and play another match, or send and
    record) for a request whose match another thread played after the cassette said it
    could be played, when the cassette may record (once; a vcrpy without that stub is
    left alone)."""
    connection: Any = getattr(importlib.import_module("vcr.stubs"), "VCRConnection", None)
    wrap_once(connection, "getresponse", "tooltape_asks_again", _asked_again_when_taken)
