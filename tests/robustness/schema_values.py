"""Hypothesis strategies for values shaped by the official OpenAPI components.

Synthetic: every value drawn here is made up by hypothesis from a schema of
``tests/data/openapi/responses-tools.json`` (see ``tests/data/openapi/extract.py``
for where the schemas came from); none is a provider's output.

``schema_values(component)`` draws JSON values that follow the component's
schema: the ``type`` of each node, its ``enum`` and ``const``, the required
properties and a random subset of the optional ones, one branch of each
``anyOf`` / ``oneOf``, the parts of an ``allOf`` merged. Bounds that do not
change how a value is read (string formats, patterns, lengths) are not
followed, so a value is shaped like the wire without always being valid: that
is the point, a provider's output is not always valid either.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st
from openapi_tools import document

_MAX_DEPTH = 7
_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("\ud83d"),
    max_size=12,
)
_SCALARS: Mapping[str, st.SearchStrategy[Any]] = {
    "string": _TEXT | st.sampled_from(["", "x", "call_1", "fc_1", "completed", "failed"]),
    "integer": st.integers(min_value=-(2**63), max_value=2**63),
    "number": st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10, 10),
    "boolean": st.booleans(),
    "null": st.none(),
}


def _schemas() -> Mapping[str, Any]:
    return document()["components"]["schemas"]


def _resolve(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in schema:
        schema = _schemas()[str(schema["$ref"]).rsplit("/", 1)[-1]]
    return schema


def _merged(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``allOf`` parts folded in (properties and required joined)."""
    schema = _resolve(schema)
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    for part in schema.get("allOf", ()):
        part = _merged(part)
        merged.setdefault("properties", {})
        merged["properties"] = {**part.get("properties", {}), **merged["properties"]}
        merged["required"] = [*part.get("required", ()), *merged.get("required", ())]
        for key, value in part.items():
            if key not in ("properties", "required"):
                merged.setdefault(key, value)
    return merged


def _value(schema: Mapping[str, Any], depth: int) -> st.SearchStrategy[Any]:
    schema = _merged(schema)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))
    branches = [*schema.get("anyOf", ()), *schema.get("oneOf", ())]
    if branches:
        return st.one_of([st.deferred(lambda b=b: _value(b, depth + 1)) for b in branches])
    kinds = schema.get("type")
    if isinstance(kinds, list):
        return st.one_of([_value({**schema, "type": kind}, depth) for kind in kinds])
    if schema.get("nullable") and depth > 1:
        return st.none() | _value({k: v for k, v in schema.items() if k != "nullable"}, depth)
    if kinds == "array" or "items" in schema:
        if depth >= _MAX_DEPTH:
            return st.just([])
        return st.lists(_value(schema.get("items", {}), depth + 1), max_size=3)
    if kinds == "object" or "properties" in schema:
        return _object(schema, depth)
    if isinstance(kinds, str) and kinds in _SCALARS:
        return _SCALARS[kinds]
    return st.sampled_from([None, "x", 1, True, {}, []])


def _object(schema: Mapping[str, Any], depth: int) -> st.SearchStrategy[dict[str, Any]]:
    properties: Mapping[str, Any] = schema.get("properties", {})
    if depth >= _MAX_DEPTH:
        properties = {k: v for k, v in properties.items() if k in schema.get("required", ())}
    required = [key for key in properties if key in schema.get("required", ())]
    optional = [key for key in properties if key not in required]
    fixed = {key: _value(properties[key], depth + 1) for key in required}
    extra = {key: _value(properties[key], depth + 1) for key in optional}
    return st.fixed_dictionaries(fixed, optional=extra)


@functools.cache
def schema_values(component: str) -> st.SearchStrategy[Any]:
    """JSON values shaped by ``#/components/schemas/<component>``."""
    return _value({"$ref": f"#/components/schemas/{component}"}, 0)
