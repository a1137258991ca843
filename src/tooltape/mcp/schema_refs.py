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
from urllib.parse import unquote

__all__ = ["unresolved_refs"]

_DATA = frozenset({"const", "default", "enum", "example", "examples"})
"""Keywords whose value is JSON data: a ``$ref`` inside it is a value, not a reference."""

_NAMED = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})
"""Keywords whose value maps names to schemas: a key there is a name, not a keyword."""

_MISSING = object()


def _pointed(root: Mapping[str, Any], ref: str) -> object:
    """What the local reference ``ref`` points at in ``root`` (``_MISSING`` if nothing)."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return _MISSING
    node: object = root
    for token in ref[2:].split("/"):
        step = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and step in node:
            node = cast("Mapping[str, object]", node)[step]
        elif (
            isinstance(node, list)
            and step.isdigit()
            and int(step) < len(cast("list[object]", node))
        ):
            node = cast("list[object]", node)[int(step)]
        else:
            return _MISSING
    return node


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
        dict.fromkeys(ref for ref in found if not isinstance(_pointed(schema, ref), Mapping | bool))
    )
