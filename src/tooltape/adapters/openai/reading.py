"""Reading Responses API bodies: raw JSON dicts and SDK objects alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard, cast


def is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(value, Mapping)`` that tells the type checker the keys are strings."""
    return isinstance(value, Mapping)


def field(item: object, name: str, default: Any = None) -> Any:
    """``item[name]`` for dicts, ``item.name`` for SDK objects; ``default`` when absent."""
    if isinstance(item, Mapping):
        return cast("Mapping[str, Any]", item).get(name, default)
    return getattr(item, name, default)


def as_dict(item: object) -> dict[str, Any]:
    """A JSON dict for an item (SDK objects are dumped, unknown fields kept)."""
    if isinstance(item, Mapping):
        return dict(cast("Mapping[str, Any]", item))
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        return cast("dict[str, Any]", dump(mode="json", exclude_unset=True))
    raise TypeError(f"Cannot read a response item of type {type(item).__name__}.")


def output_text(items: Sequence[object]) -> str:
    """The assistant text of a response: every ``output_text`` part of every message."""
    parts: list[str] = []
    for item in items:
        if field(item, "type") != "message":
            continue
        for part in field(item, "content", None) or ():
            if field(part, "type") == "output_text":
                parts.append(str(field(part, "text", "")))
    return "".join(parts)


def describe_error(payload: object) -> str:
    """``code: message`` out of a provider error object (or whatever it is)."""
    if is_mapping(payload):
        inner_map: object = payload.get("error", payload)
        if is_mapping(inner_map):
            code = str(inner_map.get("code") or inner_map.get("type") or "")
            message = str(inner_map.get("message") or inner_map.get("reason") or "")
            if code or message:
                return f"{code}: {message}" if code and message else code or message
    return repr(payload) if not isinstance(payload, str) else payload
