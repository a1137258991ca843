"""Replayed responses httpx can build, whatever text their headers and reason hold.

vcrpy's httpx stub (it serves httpx2 too) records each header value as the
text httpx decoded, UTF-8 when the bytes are and Latin-1 otherwise, and
replays it as text, which httpx encodes as ASCII: a recorded
``content-disposition: attachment; filename="résumé.pdf"`` fails its own
replay with a ``UnicodeEncodeError``. Here a value beyond ASCII reaches
httpx as its UTF-8 bytes, which httpx decodes back to the recorded text.

The stub encodes the reason phrase as ASCII too. httpx itself never records
one past ASCII (it drops such characters as it reads the status line), but
another client's recording, an imported one or a hand-edited cassette can
hold one; it is handed on without those characters, which is what httpx
shows for the same status line from a server. An empty reason
(``HTTP/1.1 200 ``), which the stub replays as the status code's own
(``"OK"``), replays empty, as httpx showed it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from tooltape.testing.vcr._names import httpx_stubs
from tooltape.testing.vcr.stub_wraps import wrap_once

__all__ = ["replay_any_text"]


def _header_pairs(headers: Mapping[str, Sequence[object]]) -> list[tuple[str, object]]:
    """What vcrpy's ``_deserialize_headers`` gives, with text past ASCII as UTF-8 bytes."""
    return [
        (name, value.encode("utf-8") if isinstance(value, str) and not value.isascii() else value)
        for name, values in headers.items()
        for value in values
    ]


def _ascii_reason(response: object) -> object:
    """``response`` (vcrpy's dict) with its reason phrase as httpx would read it."""
    if not isinstance(response, dict):
        return response
    recorded = cast("dict[str, object]", response)
    status = recorded.get("status")
    if not isinstance(status, dict):
        return recorded
    code_and_message = cast("dict[str, object]", status)
    message = code_and_message.get("message")
    if not isinstance(message, str) or message.isascii():
        return recorded
    ascii_message = message.encode("ascii", "ignore").decode("ascii")
    return {**recorded, "status": {**code_and_message, "message": ascii_message}}


def replay_any_text() -> None:
    """Have vcrpy's httpx stub use :func:`_header_pairs` and :func:`_ascii_reason`
    (a vcrpy without those functions is left alone)."""
    stubs = httpx_stubs()
    if stubs is None:
        return
    if callable(getattr(stubs, "_deserialize_headers", None)):
        stubs._deserialize_headers = _header_pairs
    wrap_once(stubs, "_deserialize_response", "tooltape_reason_first", _reason_first)


def _recorded_empty(response: object) -> bool:
    """Whether ``response`` (vcrpy's dict) recorded an empty reason phrase."""
    status = (
        cast("dict[str, object]", response).get("status") if isinstance(response, dict) else None
    )
    return isinstance(status, dict) and cast("dict[str, object]", status).get("message") == ""


def _reason_first(deserialize: Callable[..., object]) -> Callable[..., object]:
    @functools.wraps(deserialize)
    def deserialize_response(response: object, httpx: object) -> object:
        replayed = deserialize(_ascii_reason(response), httpx)
        extensions = getattr(replayed, "extensions", None)
        if _recorded_empty(response) and isinstance(extensions, dict):
            # The stub gives an empty phrase no extension, and httpx then shows the
            # status code's own ("OK"): the server sent none, and httpx showed "".
            cast("dict[str, object]", extensions)["reason_phrase"] = b""
        return replayed

    return deserialize_response
