"""Which params schemas strict function calling can take, said before anything is sent.

With ``"strict": true`` the provider constrains the model's arguments to the
schema, but only a subset of JSON Schema qualifies. Optional fields and
defaults are not a problem (the adapter makes them required-but-nullable on
the wire); two things cannot be rewritten away, and the provider refuses the
request with a 400 when it meets them:

- an object whose keys are free (a ``dict[str, int]`` field: ``additionalProperties``
  is a schema, or ``patternProperties``): strict mode needs every object to
  list its properties and set ``additionalProperties: false``;
- a value of no type (an ``Any`` field): strict mode needs a ``type``
  (or ``anyOf``/``enum``/``const``/``$ref``) on every schema.

These are the rules of OpenAI's Structured Outputs guide ("Supported
schemas", https://platform.openai.com/docs/guides/structured-outputs), which
strict function calling shares: objects set ``additionalProperties: false``
and list every field. Only what the adapter's rewrite cannot fix is checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from tooltape.prompt.json_pointer import referenced_schema

_TYPED_BY = ("type", "anyOf", "enum", "const", "$ref")


def _where(path: str) -> str:
    return f"field `{path}`" if path else "the params object"


def _walk(
    node: object, path: str, root: Mapping[str, Any], seen: set[str], problems: list[str]
) -> None:
    if not isinstance(node, Mapping):
        return
    schema = cast("Mapping[str, Any]", node)
    if not any(key in schema for key in _TYPED_BY):
        problems.append(f"{_where(path)} accepts any JSON value (its schema has no type)")
        return
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = referenced_schema(schema, root)
        if target is not None and ref not in seen:
            _walk(target, path, root, seen | {ref}, problems)
    for option in cast("list[object]", schema.get("anyOf", [])):
        _walk(option, path, root, seen, problems)
    if schema.get("type") == "object" or "properties" in schema:
        additional = schema.get("additionalProperties")
        if (
            "patternProperties" in schema
            or "properties" not in schema
            or additional
            not in (
                None,
                False,
            )
        ):
            problems.append(
                f"{_where(path)} is a mapping with free-form keys (a dict); strict mode needs "
                "every object to list its properties"
            )
        properties = cast("Mapping[str, object]", schema.get("properties", {}))
        for name, child in properties.items():
            _walk(child, f"{path}.{name}" if path else name, root, seen, problems)
    items = schema.get("items")
    if items is not None:
        _walk(items, f"{path}[]" if path else "[]", root, seen, problems)
    for index, item in enumerate(cast("list[object]", schema.get("prefixItems", []))):
        _walk(item, f"{path}[{index}]", root, seen, problems)


def strict_mode_problems(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Why strict function calling cannot take ``schema`` (empty when it can)."""
    problems: list[str] = []
    _walk(schema, "", schema, set(), problems)
    return tuple(dict.fromkeys(problems))
