"""Extract the Responses tool components of the official OpenAPI document.

Usage (from the repository root)::

    python tests/data/openapi/extract.py PATH/TO/openapi.json

writes ``tests/data/openapi/responses-tools.json``: the request ``Tool`` union,
the response ``OutputItem`` union, the input items a client sends back for
client-executed tools, ``ToolChoiceParam``, the streamed ``ResponseStreamEvent`` union, and
every component they reference, so tests validate wire output (and draw schema-shaped
responses and streams) without the full document. The source is the public
``openai/openai-openapi`` repository (MIT licence); the commit is recorded in
the file. ``CompoundFilter``'s ``$recursiveRef`` to itself is rewritten to a
plain ``$ref`` so a Draft 2020-12 validator resolves it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOTS = (
    "Tool",
    "OutputItem",
    "ComputerCallOutputItemParam",
    "CustomToolCallOutput",
    "FunctionCallOutputItemParam",
    "LocalShellToolCallOutput",
    "ToolSearchOutputItemParam",
    "ToolChoiceParam",
    "ResponseStreamEvent",
)
SOURCE = "openai/openai-openapi, commit f85dbe223d40e1a31cba812ab2d755c7e98a92a3 (2026-08-21)"
OUT = Path(__file__).with_name("responses-tools.json")


def _rewrite(node: Any, component: str) -> Any:
    # A $recursiveRef to "#" means the component itself (it carries $recursiveAnchor).
    if isinstance(node, dict):
        rewritten: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$recursiveAnchor":
                continue
            if key == "$recursiveRef" and value == "#":
                rewritten["$ref"] = f"#/components/schemas/{component}"
            else:
                rewritten[key] = _rewrite(value, component)
        return rewritten
    if isinstance(node, list):
        return [_rewrite(value, component) for value in node]
    return node


def _references(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = []
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.append(value.rsplit("/", 1)[-1])
            else:
                found.extend(_references(value))
        return found
    if isinstance(node, list):
        return [name for value in node for name in _references(value)]
    return []


def extract(document: dict[str, Any]) -> dict[str, Any]:
    """The components reachable from ``ROOTS``, keyed by name, in sorted order."""
    schemas = document["components"]["schemas"]
    wanted: set[str] = set()
    pending = list(ROOTS)
    while pending:
        name = pending.pop()
        if name in wanted:
            continue
        wanted.add(name)
        pending.extend(_references(schemas[name]))
    return {
        "$comment": (
            f"Extracted from the official OpenAI OpenAPI document ({SOURCE}) by "
            "tests/data/openapi/extract.py: the components reachable from "
            f"{', '.join(ROOTS)}. CompoundFilter's $recursiveRef is rewritten to $ref. "
            "Do not edit by hand."
        ),
        "roots": list(ROOTS),
        "components": {"schemas": {name: _rewrite(schemas[name], name) for name in sorted(wanted)}},
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    document = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    OUT.write_text(json.dumps(extract(document), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
