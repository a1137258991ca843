"""MCP tool arguments: a plain JSON object checked against the server's own input schema.

An MCP tool publishes a JSON Schema, not a Python type, and its property
names need not be Python identifiers, so no params dataclass is generated:
``Tool.parameters_schema()`` is the server's schema (normalised only so it
always has ``type: object`` and ``properties``), and the params a handler,
a hook and ``ToolInvoked`` see are that JSON object as a ``dict``.
"""

from __future__ import annotations

import copy
import importlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from pydantic_core import SchemaValidator, ValidationError, core_schema

from tooltape.prompt.schema import ArgumentsError, ParamsSchema

__all__ = ["JsonSchemaArguments", "json_schema_arguments"]

logger = logging.getLogger("tooltape.mcp")

_OBJECT_VALIDATOR = SchemaValidator(
    core_schema.dict_schema(
        keys_schema=core_schema.str_schema(), values_schema=core_schema.any_schema()
    )
)


def _schema_problems(schema: Mapping[str, Any], arguments: dict[str, Any]) -> list[str]:
    """What ``arguments`` violate in ``schema`` (JSON Schema, via ``jsonschema``)."""
    try:
        # jsonschema ships with the mcp SDK but has no type information.
        validators: Any = importlib.import_module("jsonschema.validators")
    except ImportError:
        return []
    try:
        validator_type: Any = validators.validator_for(
            schema, default=validators.Draft202012Validator
        )
        validator: Any = validator_type(schema)
        errors: list[Any] = list(validator.iter_errors(arguments))
    except Exception:
        # A schema jsonschema cannot use is the server's to enforce.
        logger.debug("Cannot check arguments against %r", schema, exc_info=True)
        return []
    problems: list[str] = []
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        where = ".".join(str(p) for p in error.absolute_path) or "<root>"
        problems.append(f"{where}: {error.message}")
    return problems


@dataclass(frozen=True, slots=True)
class JsonSchemaArguments(ParamsSchema[dict[str, Any]]):
    """``ParamsSchema`` over a JSON Schema: ``validate`` returns the arguments as a dict."""

    tool_name: str = ""

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        try:
            data = cast("dict[str, Any]", self.validator.validate_python(dict(arguments)))
        except ValidationError:
            raise ArgumentsError(
                f"Arguments of {self.tool_name} must be a JSON object with string keys."
            ) from None
        problems = _schema_problems(self.schema, data)
        if problems:
            raise ArgumentsError(
                f"Arguments do not match the input schema of {self.tool_name}: "
                + "; ".join(problems)
                + "."
            )
        return data


def json_schema_arguments(tool_name: str, input_schema: Mapping[str, Any]) -> JsonSchemaArguments:
    """The argument schema of an MCP tool: its input schema, always an object with properties."""
    schema = copy.deepcopy(dict(input_schema))
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    return JsonSchemaArguments(
        params_type=dict, validator=_OBJECT_VALIDATOR, schema=schema, tool_name=tool_name
    )
