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
    if isinstance(key, int):
        return f"{parent}/{key}"
    if "~" in key or "/" in key:
        key = key.replace("~", "~0").replace("/", "~1")
    return f"{parent}/{key}"


def describe(value: object) -> str:
    """A short description of a value for error messages."""
    if value is None:
        return "null"
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


def _at(where: str, key: str | int | None) -> str:
    return where if key is None else pointer(where, key)


def expect_map(value: object, where: str, key: str | int | None = None) -> Mapping[str, object]:
    """``value`` (found at ``where``/``key``) as a mapping, or a :class:`StructureError`."""
    if isinstance(value, (dict, Mapping)):  # dict first: the fast check
        return cast(Mapping[str, object], value)
    raise StructureError(_at(where, key), f"expected an object, got {describe(value)}")


def expect_list(value: object, where: str, key: str | int | None = None) -> list[object]:
    """``value`` (found at ``where``/``key``) as a list, or a :class:`StructureError`."""
    if not isinstance(value, list):
        raise StructureError(_at(where, key), f"expected a list, got {describe(value)}")
    return cast(list[object], value)


def expect_str(value: object, where: str, key: str | int | None = None) -> str:
    """``value`` (found at ``where``/``key``) as a string, or a :class:`StructureError`."""
    if not isinstance(value, str):
        raise StructureError(_at(where, key), f"expected a string, got {describe(value)}")
    return value


def expect_int(value: object, where: str, key: str | int | None = None) -> int:
    """``value`` (found at ``where``/``key``) as an integer (not a bool), or a
    :class:`StructureError`. A string of digits is accepted (some YAML writers quote codes).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.isdigit():
            return int(value)
        raise StructureError(_at(where, key), f"expected an integer, got {describe(value)}")
    return value
