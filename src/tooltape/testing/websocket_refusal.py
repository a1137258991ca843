"""Websocket connections refused while a cassette test runs.

A cassette records and replays HTTP. openai-agents' Responses websocket
transport (``OpenAIProvider(use_responses_websocket=True)``,
``set_default_openai_responses_transport("websocket")``) and the SDK's
websocket APIs (``responses.connect()``, realtime) open their connections
with the ``websockets`` package, which no cassette sees: recording wrote
nothing of them (a test passed with no cassette, whose replay then asked to
be recorded), and replay sent them to the network, key and all. While a
cassette test runs, opening one fails with :class:`WebSocketNotRecorded`,
saying to use the HTTP transport.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Generator
from typing import Any

import pytest

__all__ = ["WebSocketNotRecorded", "websockets_refused"]

_CONNECTING_MODULES = ("websockets.asyncio.client", "websockets.sync.client")
"""Where the ``websockets`` package keeps its ``connect`` functions."""

_IMPORTED_AT_LOAD = ("openai.lib._websocket",)
"""Modules that bind ``websockets``' ``connect`` when they are imported (the others
import it where they connect)."""


class WebSocketNotRecorded(ConnectionError):
    """A websocket opened while a cassette test runs: no cassette can hold it."""

    def __init__(self, uri: object) -> None:
        self.uri = str(uri)
        super().__init__(
            f"tooltape: the test opened a websocket ({self.uri}), which no cassette records "
            "or replays (they hold HTTP): recording would keep nothing of it, and replay "
            "would send it to the network. Use the HTTP transport in tests: "
            "OpenAIProvider(use_responses_websocket=False) or "
            'agents.set_default_openai_responses_transport("http") for openai-agents; '
            "responses.create(stream=True) for the SDK."
        )


def _refusing(*args: Any, **kwargs: Any) -> Any:
    raise WebSocketNotRecorded(args[0] if args else kwargs.get("uri", "a websocket URI"))


@contextlib.contextmanager
def websockets_refused() -> Generator[None, None, None]:
    """Opening a websocket through ``websockets`` fails with :class:`WebSocketNotRecorded`
    inside the block (nothing changes when the package is not installed)."""
    with pytest.MonkeyPatch.context() as patch:
        originals: list[object] = []
        for name in _CONNECTING_MODULES:
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
            original = getattr(module, "connect", None)
            if original is not None:
                originals.append(original)
                patch.setattr(module, "connect", _refusing)
        for name in _IMPORTED_AT_LOAD:
            module = sys.modules.get(name)
            if module is not None and getattr(module, "connect", None) in originals:
                patch.setattr(module, "connect", _refusing)
        yield
