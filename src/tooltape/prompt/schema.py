"""JSON Schema and argument validation for params dataclasses, via pydantic.

Tool arguments come from a model, so unknown keys are refused
(``additionalProperties: false``) at every level, while defaults stay what
the dataclass says.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, Generic, TypeVar, cast

from pydantic import TypeAdapter
from pydantic.errors import PydanticSchemaGenerationError, PydanticUserError
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import PydanticSerializationError, SchemaValidator, ValidationError

from tooltape.prompt.errors import PromptValidationError
from tooltape.prompt.json_text import jsonable

T = TypeVar("T")


class ArgumentsError(ValueError):
    """Arguments did not match a params type; the message is written for a model to act on."""


def _forbid_extra_keys(node: object) -> None:
    if isinstance(node, dict):
        mapping = cast("dict[str, Any]", node)
        if mapping.get("type") == "dataclass-args":
            mapping["extra_behavior"] = "forbid"
        for child in mapping.values():
            _forbid_extra_keys(child)
    elif isinstance(node, list):
        for child in cast("list[Any]", node):
            _forbid_extra_keys(child)


def _close_objects(node: object) -> None:
    if isinstance(node, dict):
        mapping = cast("dict[str, Any]", node)
        if mapping.get("type") == "object" and "properties" in mapping:
            mapping["additionalProperties"] = False
        for child in mapping.values():
            _close_objects(child)
    elif isinstance(node, list):
        for child in cast("list[Any]", node):
            _close_objects(child)


@dataclasses.dataclass(frozen=True, slots=True)
class ParamsSchema(Generic[T]):
    """Validation and JSON Schema for one params dataclass."""

    params_type: type[T]
    validator: SchemaValidator
    schema: Mapping[str, Any]

    def json_schema(self) -> dict[str, Any]:
        """A fresh copy of the JSON Schema (safe to mutate)."""
        return copy.deepcopy(dict(self.schema))

    def validate(self, arguments: Mapping[str, Any]) -> T:
        """Build the params instance, or raise ``ArgumentsError`` naming each bad field."""
        try:
            # The executor's arguments are already a fresh dict: no copy of them.
            data = cast("dict[str, Any]", arguments) if type(arguments) is dict else dict(arguments)
            validated: T = self.validator.validate_python(data)
            return validated
        except ValidationError as exc:
            raise self.mismatch(exc) from None

    def mismatch(self, error: ValidationError) -> ArgumentsError:
        """The ``ArgumentsError`` for ``validator``'s ``error``: every bad field and why."""
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in error.errors(include_url=False)
        )
        return ArgumentsError(f"Arguments do not match {self.params_type.__name__}: {problems}.")


@functools.lru_cache(maxsize=512)
def params_schema(params_type: type[Any]) -> ParamsSchema[Any]:
    """The (cached) schema for ``params_type``; raises ``PromptValidationError`` if unusable."""
    if not (isinstance(params_type, type) and dataclasses.is_dataclass(params_type)):
        raise PromptValidationError(
            f"Params type {params_type!r} must be a dataclass; declare it with @dataclass."
        )
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(params_type)
        # pydantic defers the "not fully defined" error for an annotation it
        # cannot resolve until the schema is first used, so use it in here.
        core = copy.deepcopy(adapter.core_schema)
        _forbid_extra_keys(core)
        schema = GenerateJsonSchema().generate(core)
        validator = SchemaValidator(core)
    except (
        PydanticSchemaGenerationError,
        PydanticUserError,
        # an enum member or literal whose value is no JSON (it cannot be a schema's enum)
        PydanticSerializationError,
        NameError,
        SyntaxError,  # a string annotation that is not an expression
    ) as exc:
        raise PromptValidationError(
            f"Cannot build a schema for {params_type.__name__}: {exc}"
        ) from exc
    _close_objects(schema)
    return ParamsSchema(params_type, validator, schema)


NAMED_SCHEMAS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})
"""JSON Schema keywords whose value maps names (a field named ``title``...) to schemas:
those names are not keywords, so a walk that drops or checks keywords skips them."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def without_keywords(
    node: object,
    dropped: Collection[str],
    rewrite: Callable[[dict[str, object]], object] | None = None,
) -> object:
    """A copy of the JSON Schema ``node`` without the keywords ``dropped`` at any level.

    The keys of ``properties`` and the other :data:`NAMED_SCHEMAS` maps are names (a
    field named ``title``), never dropped. ``rewrite``, when given, gets each schema
    object once its children are done and returns what stands in its place.
    """
    if isinstance(node, list):
        return [without_keywords(child, dropped, rewrite) for child in cast("list[object]", node)]
    if not isinstance(node, dict):
        return node
    mapping: dict[str, object] = {}
    for key, value in cast("dict[str, object]", node).items():
        if key in dropped:
            continue
        if key in NAMED_SCHEMAS and isinstance(value, dict):
            named = cast("dict[str, object]", value)
            mapping[key] = {
                name: without_keywords(schema, dropped, rewrite) for name, schema in named.items()
            }
        else:
            mapping[key] = without_keywords(value, dropped, rewrite)
    return rewrite(mapping) if rewrite is not None else mapping


def _not_json(value: object) -> str | None:
    """Why a leaf of a schema cannot be JSON text on the wire, or ``None``."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value!r}, which JSON has no number for"
    if isinstance(value, int):
        try:
            str(value)
        except ValueError:
            return "an integer of more than 4300 digits, which Python will not write as text"
        return None
    if isinstance(value, str):
        if _SURROGATE.search(value):
            return "text holding a lone surrogate (half a UTF-16 pair), which UTF-8 cannot carry"
        return None
    return f"a {type(value).__name__}, not a JSON value"


def unsendable(schema: Mapping[str, Any], *, without_defaults: bool) -> str | None:
    """The first place where ``schema`` holds what JSON text cannot carry, said as
    "`properties.limit.default` is inf, ..."; ``None`` when it can all be sent.

    ``without_defaults``: ``default`` keywords are not sent (strict mode), so not checked.
    """
    stack: list[tuple[object, str, bool]] = [(schema, "", False)]
    while stack:
        node, path, names = stack.pop()
        if isinstance(node, Mapping):
            for key, child in cast("Mapping[object, object]", node).items():
                if not isinstance(key, str) or _not_json(key) is not None:
                    return f"`{path or '<root>'}` has the key {key!r}, which is not JSON text"
                if without_defaults and not names and key == "default":
                    continue
                where = f"{path}.{key}" if path else key
                stack.append((child, where, not names and key in NAMED_SCHEMAS))
        elif isinstance(node, list | tuple):
            items = cast("list[object]", node)
            stack.extend((child, f"{path}[{i}]", False) for i, child in enumerate(items))
        else:
            problem = _not_json(node)
            if problem is not None:
                return f"`{path}` is {problem}"
    return None


def to_jsonable(value: object) -> Any:
    """``value`` as plain JSON data (dataclasses, tuples, enums...) without a hand-written serde."""
    return jsonable(value, fallback=repr)
