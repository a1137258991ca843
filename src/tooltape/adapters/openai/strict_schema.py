"""JSON Schemas in the form OpenAI's strict function calling accepts, and back.

Strict mode wants every property listed in ``required`` and no ``default``.
An optional (defaulted) field therefore becomes required-but-nullable on the
wire; when the model sends ``null`` for it, the key is dropped again before
validation so the dataclass default applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from tooltape.prompt.json_pointer import referenced_schema
from tooltape.prompt.schema import without_keywords

_DROPPED_KEYS = ("default", "title")


def _is_nullable(schema: Mapping[str, Any]) -> bool:
    if schema.get("type") == "null":
        return True
    options = cast("list[Mapping[str, Any]]", schema.get("anyOf", []))
    return any(_is_nullable(option) for option in options)


def _strict_object(mapping: dict[str, object]) -> object:
    """A schema object as strict mode wants it: every property required (optional ones
    nullable), no others allowed."""
    properties = mapping.get("properties")
    if mapping.get("type") == "object" and isinstance(properties, dict):
        props = cast("dict[str, dict[str, Any]]", properties)
        required = set(cast("list[str]", mapping.get("required", [])))
        for name, prop in list(props.items()):
            if name not in required and not _is_nullable(prop):
                props[name] = {"anyOf": [prop, {"type": "null"}]}
        mapping["required"] = list(props)
        mapping["additionalProperties"] = False
    return mapping


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` made acceptable to ``"strict": true`` function tools."""
    return cast("dict[str, Any]", without_keywords(schema, _DROPPED_KEYS, _strict_object))


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """``schema`` with a local ``$ref`` followed wherever it points (``#/$defs/...``,
    ``#/definitions/...``); a reference that leads nowhere stays as it is."""
    seen: set[int] = set()  # a reference chain that loops ends where it began
    while (target := referenced_schema(schema, root)) is not None and id(target) not in seen:
        seen.add(id(target))
        schema = target
    return schema


def _options(schema: Mapping[str, Any], root: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``schema`` and the alternatives it is made of (``anyOf``/``oneOf``/``allOf``), each
    resolved: where a value's object or array shape may be declared."""
    resolved = _resolve(schema, root)
    found = [resolved]
    for keyword in ("anyOf", "oneOf", "allOf"):
        for option in cast("list[object]", resolved.get(keyword, [])):
            if isinstance(option, Mapping):
                found.extend(_options(cast("Mapping[str, Any]", option), root))
    return found


def _cleaned(value: object, schema: Mapping[str, Any], root: Mapping[str, Any]) -> object:
    """``value`` with strict-wire nulls dropped inside it, as far as ``schema`` declares."""
    if isinstance(value, dict):
        arguments = cast("dict[str, Any]", value)
        for option in _options(schema, root):
            if isinstance(option.get("properties"), Mapping):
                return drop_null_optionals(arguments, option, root)
        return arguments
    if isinstance(value, list):
        values = cast("list[object]", value)
        for option in _options(schema, root):
            items = option.get("items")
            if isinstance(items, Mapping):
                item_schema = cast("Mapping[str, Any]", items)
                return [_cleaned(item, item_schema, root) for item in values]
        return values
    return value


def drop_null_optionals(
    arguments: Mapping[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Remove ``null`` values the strict wire forced onto optional, non-nullable fields, at
    any depth (nested objects, list items, behind references).

    ``schema`` is the original (non-strict) schema of the params.
    """
    root = schema if root is None else root
    schema = _resolve(schema, root)
    properties = cast("Mapping[str, Mapping[str, Any]]", schema.get("properties", {}))
    required = set(cast("list[str]", schema.get("required", [])))
    cleaned: dict[str, Any] = {}
    for key, value in arguments.items():
        prop = properties.get(key)
        if prop is None:
            cleaned[key] = value
            continue
        if value is None and key not in required and not _is_nullable(_resolve(prop, root)):
            continue
        cleaned[key] = _cleaned(value, prop, root)
    return cleaned
