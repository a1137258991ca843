"""Small checks that a parsed document has the expected shape (internal).

Each check returns the value narrowed to its type or raises
:class:`StructureError` naming the JSON pointer of the offending value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from tooltape.testing.cassette._errors import StructureError

__all__ = ["describe", "expect_int", "expect_list", "expect_map", "expect_str", "pointer"]


def pointer(parent: str, key: str | int) -> str:
    """Append one JSON-pointer step (``~`` and ``/`` escaped) to ``parent``."""
    token = str(key).replace("~", "~0").replace("/", "~1")
    return f"{parent}/{token}"


def describe(value: object) -> str:
    """A short description of a value for error messages."""
    if value is None:
        return "null"
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


def expect_map(value: object, where: str) -> Mapping[str, object]:
    """``value`` as a mapping, or a :class:`StructureError`."""
    if not isinstance(value, Mapping):
        raise StructureError(where, f"expected an object, got {describe(value)}")
    return cast(Mapping[str, object], value)


def expect_list(value: object, where: str) -> list[object]:
    """``value`` as a list, or a :class:`StructureError`."""
    if not isinstance(value, list):
        raise StructureError(where, f"expected a list, got {describe(value)}")
    return cast(list[object], value)


def expect_str(value: object, where: str) -> str:
    """``value`` as a string, or a :class:`StructureError`."""
    if not isinstance(value, str):
        raise StructureError(where, f"expected a string, got {describe(value)}")
    return value


def expect_int(value: object, where: str) -> int:
    """``value`` as an integer (not a bool), or a :class:`StructureError`."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.isdigit():
            return int(value)
        raise StructureError(where, f"expected an integer, got {describe(value)}")
    return value
