"""Replayed response headers httpx can build, whatever text they hold.

vcrpy's httpx stub (it serves httpx2 too) records each header value as the
text httpx decoded, UTF-8 when the bytes are and Latin-1 otherwise, and
replays it as text, which httpx encodes as ASCII: a recorded
``content-disposition: attachment; filename="résumé.pdf"`` fails its own
replay with a ``UnicodeEncodeError``. Here a value beyond ASCII reaches
httpx as its UTF-8 bytes, which httpx decodes back to the recorded text.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["replay_any_header_text"]


def _header_pairs(headers: Mapping[str, Sequence[object]]) -> list[tuple[str, object]]:
    """What vcrpy's ``_deserialize_headers`` gives, with text past ASCII as UTF-8 bytes."""
    return [
        (name, value.encode("utf-8") if isinstance(value, str) and not value.isascii() else value)
        for name, values in headers.items()
        for value in values
    ]


def replay_any_header_text() -> None:
    """Have vcrpy's httpx stub use :func:`_header_pairs` (a vcrpy without it is left alone)."""
    try:
        stubs: Any = importlib.import_module("vcr.stubs.httpx_stubs")  # untyped
    except ImportError:  # httpx is not installed: vcrpy has no such stub to replay through
        return
    if callable(getattr(stubs, "_deserialize_headers", None)):
        stubs._deserialize_headers = _header_pairs
