"""Local JSON Schema references: what ``#`` or ``#/$defs/Name`` points at in a schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast
from urllib.parse import unquote

__all__ = ["MISSING", "pointed", "referenced_schema"]

MISSING = object()
"""What ``pointed`` returns for a reference that leads nowhere in the schema."""


def pointed(root: Mapping[str, Any], ref: str) -> object:
    """What the local reference ``ref`` (``#`` or a JSON pointer after ``#``) points at in
    ``root``; ``MISSING`` for a pointer that leads nowhere and for any other reference
    (another document, an anchor)."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return MISSING
    node: object = root
    for token in ref[2:].split("/"):
        step = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and step in node:
            node = cast("Mapping[str, object]", node)[step]
        elif isinstance(node, list) and step.isdigit():
            items = cast("list[object]", node)
            if int(step) >= len(items):
                return MISSING
            node = items[int(step)]
        else:
            return MISSING
    return node


def referenced_schema(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The schema ``node``'s ``$ref`` points at inside ``root``; ``None`` when ``node`` has
    no ``$ref``, or one that leads nowhere or to something that is not a schema object."""
    ref = node.get("$ref")
    target = pointed(root, ref) if isinstance(ref, str) else None
    return cast("Mapping[str, Any]", target) if isinstance(target, Mapping) else None
