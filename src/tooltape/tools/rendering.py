"""How hosted tool outputs present themselves: compact JSON, bytes as standard base64."""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, cast

from tooltape.prompt.json_text import json_text, jsonable


def _plain(value: object, *, drop_none: bool) -> object:
    # pydantic's own bytes_mode="base64" writes the URL-safe alphabet; outputs use
    # the standard one so base64.b64decode reads them back.
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        pairs = ((f.name, getattr(value, f.name)) for f in dataclasses.fields(value))
        return {
            name: _plain(item, drop_none=drop_none)
            for name, item in pairs
            if not (drop_none and item is None)
        }
    if isinstance(value, Mapping):
        mapping = cast("Mapping[object, object]", value)
        return {str(k): _plain(v, drop_none=drop_none) for k, v in mapping.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, drop_none=drop_none) for v in cast("Iterable[object]", value)]
    return value


def output_json(value: object) -> Any:
    """``value`` as plain JSON data; ``bytes`` become standard base64 text."""
    return jsonable(_plain(value, drop_none=False))


class JsonRendered:
    """Mixin for output dataclasses: ``render()`` is compact JSON without ``None`` fields.

    Outputs carry image bytes, which plain ``to_json`` would try to decode as
    UTF-8; rendering them as base64 keeps every output renderable.
    """

    __slots__ = ()

    def render(self) -> str:
        """Compact JSON of this output (bytes as base64, ``None`` fields left out)."""
        return json_text(_plain(self, drop_none=True))
