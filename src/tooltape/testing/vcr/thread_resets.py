"""Requests from other threads stay on the cassette while vcrpy builds a urllib3 connection.

vcrpy's ``http.client`` stub (requests, urllib3) puts every real class back,
for the whole process, while it builds a real connection, connects it or
sends through it (``vcr.patch.force_reset``): urllib3's connection classes
and httpx's transports alike. A thread that opened a connection, or sent
through httpx, in that moment did so unpatched: its request went to the
network, neither played nor recorded. Eight threads replaying one cassette
through requests sent up to six of their requests to the server.

A connection built on urllib3's classes needs no such window: they reach their
bases through ``super()`` and read no patched name. For those the window is
left shut, and nothing changes for other threads. (``http.client``'s own
``HTTPSConnection`` names its class in its constructor, so the connections
built on it, which urllib.request and httplib2 use, keep vcrpy's window.)
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
from collections.abc import Callable, Generator
from typing import Any

from tooltape.testing.vcr.stub_wraps import wrap_once

__all__ = ["keep_resets_to_their_thread"]

_MARK = "tooltape_resets_kept"
"""Marks what :func:`keep_resets_to_their_thread` replaced."""

_needless = threading.local()
"""``on`` while this thread works a connection built on urllib3's classes."""


def _kept(reset: Callable[[], Any]) -> Callable[[], Any]:
    @contextlib.contextmanager
    def force_reset() -> Generator[None, None, None]:
        if getattr(_needless, "on", False):
            yield
        else:
            with reset():
                yield

    return force_reset


def _urllib3_based(connection: object) -> bool:
    base = getattr(type(connection), "_baseclass", None)
    return str(getattr(base, "__module__", "")).startswith("urllib3.")


def _without_window(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def worked(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not _urllib3_based(self):
            return method(self, *args, **kwargs)
        before = getattr(_needless, "on", False)
        _needless.on = True
        try:
            return method(self, *args, **kwargs)
        finally:
            _needless.on = before

    return worked


def keep_resets_to_their_thread() -> None:
    """Have vcrpy's ``http.client`` stub open no process-wide window for connections built
    on urllib3's classes (once; a vcrpy without the names used is left alone)."""
    patch: Any = importlib.import_module("vcr.patch")
    connection: Any = getattr(importlib.import_module("vcr.stubs"), "VCRConnection", None)
    if connection is None or not callable(getattr(patch, "force_reset", None)):
        return
    wrap_once(patch, "force_reset", _MARK, _kept)
    for name in ("__init__", "connect", "getresponse"):
        wrap_once(connection, name, _MARK, _without_window)
