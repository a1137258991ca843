"""JSON of tool values, whatever text a provider put in them.

A provider can send a lone UTF-16 surrogate (half of an emoji, ``\\ud83d``):
valid JSON, a valid Python string, but not text UTF-8 can carry, so
pydantic's encoder refuses it (in a value or in a key). These functions give
pydantic's result when it can, and otherwise walk the value themselves; JSON
text writes such characters back as the ``\\uXXXX`` escape they arrived as,
which decodes to the same string.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from pydantic_core import PydanticSerializationError, to_json, to_jsonable_python

_SURROGATE = re.compile("[\ud800-\udfff]")
UNENCODABLE = (UnicodeEncodeError, PydanticSerializationError)
"""What pydantic's encoder raises for text UTF-8 cannot carry."""

Fallback = Callable[[Any], Any] | None


def escape_surrogates(text: str) -> str:
    """``text`` with every lone surrogate written as its ``\\uXXXX`` escape."""
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def map_leaves(value: Any, leaf: Callable[[Any], Any]) -> Any:
    """``value`` with ``leaf`` applied to everything in it that is neither a mapping nor a
    list or tuple (keys too); mappings come back as dicts, lists and tuples as themselves."""
    if isinstance(value, Mapping):
        pairs = cast("Mapping[object, object]", value).items()
        return {map_leaves(key, leaf): map_leaves(item, leaf) for key, item in pairs}
    if isinstance(value, list | tuple):
        items = [map_leaves(item, leaf) for item in cast("Iterable[object]", value)]
        return items if isinstance(value, list) else tuple(items)
    return leaf(value)


def escape_surrogates_in(value: Any) -> Any:
    """JSON data ``value`` with every lone surrogate in its strings (keys too) escaped."""
    return map_leaves(
        value, lambda leaf: escape_surrogates(leaf) if isinstance(leaf, str) else leaf
    )


def _walk(value: object, fallback: Fallback) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        pairs = cast("Mapping[object, object]", value).items()
        return {
            key if isinstance(key, str) else str(_walk(key, fallback)): _walk(item, fallback)
            for key, item in pairs
        }
    if isinstance(value, list | tuple | set | frozenset):
        return [_walk(item, fallback) for item in cast("Iterable[object]", value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _walk(getattr(value, f.name), fallback) for f in dataclasses.fields(value)}
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return _walk(dump(), fallback)
    return to_jsonable_python(value, fallback=fallback)


def jsonable(value: object, *, fallback: Fallback = None) -> Any:
    """``value`` as plain JSON data, like pydantic's ``to_jsonable_python``."""
    try:
        return to_jsonable_python(value, fallback=fallback)
    except UNENCODABLE:
        return _walk(value, fallback)


def json_text(value: object, *, fallback: Fallback = None) -> str:
    """Compact JSON of ``value`` (pydantic's encoding); lone surrogates become escapes."""
    try:
        return to_json(value, fallback=fallback).decode()
    except UNENCODABLE:
        # Only text UTF-8 cannot carry gets here; anything else fails again in _walk.
        plain = _walk(value, fallback)
        return escape_surrogates(json.dumps(plain, ensure_ascii=False, separators=(",", ":")))
