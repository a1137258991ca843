"""Read Responses API items whether they are JSON dicts or openai SDK objects.

Recorded cassettes give dicts, the SDK gives pydantic models, and real
responses carry fields no SDK version knows. Every codec reads items
through these accessors: a missing or mistyped field reads as ``None`` (or
empty), unknown fields are ignored, nothing depends on an exact key set.
That is the content half of the reading rule; the envelope half (what must
hold of an item's ``type`` and identity fields) is in
:mod:`~tooltape.adapters.openai.codecs.envelope`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast


def field(item: object, key: str) -> object:
    """``item[key]`` for a mapping, ``item.key`` for an object, else ``None``."""
    if item is None:
        return None
    if isinstance(item, Mapping):
        return cast("Mapping[str, object]", item).get(key)
    return getattr(item, key, None)


def text(item: object, key: str) -> str | None:
    """A string field, or ``None``."""
    value = field(item, key)
    return value if isinstance(value, str) else None


def integer(item: object, key: str) -> int | None:
    """An integer field (bools excluded), or ``None``."""
    value = field(item, key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def number(item: object, key: str) -> float | None:
    """A numeric field (bools excluded), or ``None``."""
    value = field(item, key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def elements(item: object, key: str) -> tuple[object, ...]:
    """A list field as a tuple (empty when missing or not a list)."""
    value = field(item, key)
    if isinstance(value, list | tuple):
        return tuple(cast("Iterable[object]", value))
    return ()


def strings(item: object, key: str) -> tuple[str, ...]:
    """The string elements of a list field."""
    return tuple(value for value in elements(item, key) if isinstance(value, str))


def item_type(item: object) -> str | None:
    """The ``type`` of an item or part."""
    return text(item, "type")


def of_types(items: Sequence[Any], types: Iterable[str]) -> list[object]:
    """The items whose ``type`` is one of ``types``, in response order."""
    wanted = frozenset(types)
    return [item for item in items if item_type(item) in wanted]


def plain(value: object) -> object:
    """``value`` as plain JSON data (SDK models dumped, mappings and lists copied)."""
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return plain(dump(mode="json"))
    if isinstance(value, Mapping):
        mapping = cast("Mapping[object, object]", value)
        return {str(k): plain(v) for k, v in mapping.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in cast("Iterable[object]", value)]
    return value


def mapping(value: object) -> dict[str, object]:
    """``value`` as a plain dict (empty when it is not an object)."""
    data = plain(value)
    return cast("dict[str, object]", data) if isinstance(data, dict) else {}


def json_object(raw: str | None) -> dict[str, object]:
    """A JSON text decoded to a dict (empty when missing, invalid or not an object)."""
    if not raw:
        return {}
    try:
        decoded: object = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested past Python's limit
        return {}
    return cast("dict[str, object]", decoded) if isinstance(decoded, dict) else {}


def locate(response_items: Sequence[Any], item: object, key: str) -> str:
    """Where a field sits, for an error: ``output[3].result (image_generation_call ig_1)``."""
    index = next((i for i, other in enumerate(response_items) if other is item), None)
    where = f"output[{index}]" if index is not None else "output item"
    label = " ".join(part for part in (item_type(item), text(item, "id")) if part)
    return f"{where}.{key}" + (f" ({label})" if label else "")
