"""The ``$ref``s of an MCP tool's input schema that lead nowhere.

A function tool's schema travels to the provider on its own: a ``$ref`` can
only point into it (``#``, or a JSON pointer such as ``#/$defs/Place``). A
reference to another document (``place.json``, a URL), an anchor, or a
pointer to something the schema does not hold makes the provider refuse the
whole request, every tool with it, so tooltape finds them when the server's
tools are listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from tooltape.prompt.json_pointer import pointed

__all__ = ["unresolved_refs"]

_DATA = frozenset({"const", "default", "enum", "example", "examples"})
"""Keywords whose value is JSON data: a ``$ref`` inside it is a value, not a reference."""

_NAMED = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})
"""Keywords whose value maps names to schemas: a key there is a name, not a keyword."""


def _refs(node: object, found: list[str]) -> None:
    if isinstance(node, Mapping):
        for key, value in cast("Mapping[str, object]", node).items():
            if key == "$ref" and isinstance(value, str):
                found.append(value)
            elif key in _NAMED and isinstance(value, Mapping):
                for schema in cast("Mapping[str, object]", value).values():
                    _refs(schema, found)
            elif key not in _DATA:
                _refs(value, found)
    elif isinstance(node, Sequence) and not isinstance(node, str):
        for item in cast("Sequence[object]", node):
            _refs(item, found)


def unresolved_refs(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """The ``$ref`` values in ``schema`` that do not point at a schema inside it, in order."""
    found: list[str] = []
    _refs(schema, found)
    return tuple(
        dict.fromkeys(ref for ref in found if not isinstance(pointed(schema, ref), Mapping | bool))
    )
