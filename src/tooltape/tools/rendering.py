"""How hosted tool outputs present themselves: compact JSON, bytes as base64."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json, to_jsonable_python


def output_json(value: object) -> Any:
    """``value`` as plain JSON data; ``bytes`` become base64 text, ``None`` fields stay."""
    return to_jsonable_python(value, bytes_mode="base64")


class JsonRendered:
    """Mixin for output dataclasses: ``render()`` is compact JSON without ``None`` fields.

    Outputs carry image bytes, which plain ``to_json`` would try to decode as
    UTF-8; rendering them as base64 keeps every output renderable.
    """

    __slots__ = ()

    def render(self) -> str:
        """Compact JSON of this output (bytes as base64, ``None`` fields left out)."""
        return to_json(self, exclude_none=True, bytes_mode="base64").decode()
