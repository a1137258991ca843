"""JSON Schemas in the form OpenAI's strict function calling accepts, and back.

Strict mode wants every property listed in ``required`` and no ``default``.
An optional (defaulted) field therefore becomes required-but-nullable on the
wire; when the model sends ``null`` for it, the key is dropped again before
validation so the dataclass default applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

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
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        defs = cast("Mapping[str, Mapping[str, Any]]", root.get("$defs", {}))
        return defs.get(ref.removeprefix("#/$defs/"), schema)
    return schema


def drop_null_optionals(
    arguments: Mapping[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Remove ``null`` values the strict wire forced onto optional, non-nullable fields.

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
        if isinstance(value, dict):
            nested = _resolve(prop, root)
            if "properties" in nested:
                value = drop_null_optionals(cast("dict[str, Any]", value), nested, root)
        cleaned[key] = value
    return cleaned
