"""The official OpenAPI components of the Responses tool surface, as JSON Schema validators.

The components live in ``tests/data/openapi/responses-tools.json`` (extracted by
``tests/data/openapi/extract.py``, which says where from); tests never read the
full document at run time.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

DOCUMENT = Path(__file__).resolve().parent / "data" / "openapi" / "responses-tools.json"


@functools.cache
def document() -> dict[str, Any]:
    """The extracted components document."""
    return json.loads(DOCUMENT.read_text(encoding="utf-8"))


@functools.cache
def validator(component: str) -> Draft202012Validator:
    """A validator for ``#/components/schemas/<component>``."""
    schemas = document()["components"]["schemas"]
    if component not in schemas:
        raise KeyError(f"{component} is not among the extracted components; extend ROOTS")
    return Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": document()["components"]}
    )


def wire_errors(component: str, value: object) -> list[str]:
    """Why ``value`` is not a valid ``component`` (empty when it is)."""
    errors = sorted(validator(component).iter_errors(value), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in errors]


def assert_wire_valid(component: str, value: object) -> None:
    """Fail with every schema violation of ``value`` as ``component``."""
    problems = wire_errors(component, value)
    assert not problems, f"not a valid {component}:\n" + "\n".join(problems)


@functools.cache
def output_item_components() -> dict[str, str]:
    """``{item type: component}`` for every member of the response ``OutputItem`` union."""
    schemas = document()["components"]["schemas"]
    found: dict[str, str] = {}
    for branch in schemas["OutputItem"]["oneOf"]:
        name = branch["$ref"].rsplit("/", 1)[-1]
        schema = schemas[name]
        parts = [
            schema,
            *(
                schemas[p["$ref"].rsplit("/", 1)[-1]]
                for p in schema.get("allOf", [])
                if "$ref" in p
            ),
        ]
        for part in parts:
            enum = part.get("properties", {}).get("type", {}).get("enum")
            if enum:
                found[enum[0]] = name
                break
    return found


def assert_output_items_valid(items: list[Any]) -> None:
    """Every item is a valid member of ``OutputItem`` for its ``type``."""
    for index, item in enumerate(items):
        component = output_item_components().get(item.get("type"))
        assert component is not None, f"item {index}: {item.get('type')!r} is no output item type"
        problems = wire_errors(component, item)
        assert not problems, f"item {index} is not a valid {component}:\n" + "\n".join(problems)
