"""Callable instances and ``functools.partial`` objects as tools, hooks and handlers.

A user names a tool by what they wrote: a class with ``__call__`` (its
instance is the tool), or a function with some arguments bound by
``functools.partial``. The tool's name, description and params come from
that class or function, arguments bound by the partial are not parameters
the model sees or sets, and every error names the class or function, never
an object address.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from tooltape import PromptValidationError, Tool, ToolContext, ToolResult
from tooltape.runtime.hooks import ToolHookContext, run_tool_with_hooks


class Weather:
    """Weather for a city."""

    def __init__(self, unit: str = "C") -> None:
        self.unit = unit

    def __call__(self, city: str) -> str:
        return f"20{self.unit} in {city}"


class CityWeatherLookup:
    def __call__(self, city: str) -> str:
        """Look up the weather of a city."""
        return city


def forecast(city: str, days: int, api_key: str) -> str:
    """Forecast for a city."""
    return f"{days} days for {city} ({len(api_key)})"


def call(tool: Tool[Any, Any], arguments: dict[str, Any], context: ToolContext) -> ToolResult[Any]:
    assert tool.handler is not None
    return tool.handler(tool.schema.validate(arguments), context=context)


def test_a_callable_instance_is_a_tool_named_after_its_class(tool_context: ToolContext) -> None:
    tool = Tool.from_function(Weather("F"))

    assert tool.name == "weather"
    assert tool.description == "Weather for a city."
    assert list(tool.parameters_schema()["properties"]) == ["city"]
    assert call(tool, {"city": "Oslo"}, tool_context).value == "20F in Oslo"


def test_a_camel_case_class_becomes_a_snake_case_name_and_call_documents_it() -> None:
    tool = Tool.from_function(CityWeatherLookup())

    assert tool.name == "city_weather_lookup"
    assert tool.description == "Look up the weather of a city."


def test_a_partial_is_named_and_described_by_its_function(tool_context: ToolContext) -> None:
    tool = Tool.from_function(functools.partial(forecast, days=3, api_key="k" * 20))

    assert tool.name == "forecast"
    assert tool.description == "Forecast for a city."
    assert call(tool, {"city": "Oslo"}, tool_context).value == "3 days for Oslo (20)"


@pytest.mark.parametrize("strict", [True, False])
def test_arguments_a_partial_binds_are_neither_shown_to_nor_set_by_the_model(
    strict: bool, tool_context: ToolContext
) -> None:
    secret = "sk-bound-" + "x" * 30
    tool = Tool.from_function(functools.partial(forecast, api_key=secret), strict=strict)

    schema = tool.parameters_schema()
    assert list(schema["properties"]) == ["city", "days"]
    assert secret not in json.dumps(schema)
    with pytest.raises(Exception, match="api_key"):
        tool.schema.validate({"city": "Oslo", "days": 1, "api_key": "mine"})


def test_a_partial_of_a_callable_instance_is_named_after_the_class() -> None:
    tool = Tool.from_function(functools.partial(Weather(), city="Oslo"))

    assert tool.name == "weather"
    assert tool.parameters_schema()["properties"] == {}


class NoDocs:
    def __call__(self, city: str) -> str:
        return city


class Unannotated:
    """Has no annotation."""

    def __call__(self, city):
        return city


class Asynchronous:
    """Async."""

    async def __call__(self, city: str) -> str:
        return city


class BadHandler:
    def __call__(self, params: object) -> ToolResult[Any]:
        return ToolResult.ok(params)


def undocumented(city: str) -> str:
    return city


@pytest.mark.parametrize(
    ("build", "named", "fragment"),
    [
        (lambda: Tool.from_function(NoDocs()), "NoDocs", "no description"),
        (lambda: Tool.from_function(Unannotated()), "Unannotated", "no type annotation"),
        (lambda: Tool.from_function(Asynchronous()), "Asynchronous.__call__", "is async"),
        (
            lambda: Tool.from_function(functools.partial(undocumented)),
            "test_callable_tools.undocumented)",
            "no description",
        ),
        (
            lambda: Tool[dict, Any](name="bad", description="Bad.", handler=BadHandler()),
            "BadHandler.__call__",
            "keyword-only parameter named 'context'",
        ),
    ],
    ids=["no-docs", "no-annotation", "async", "partial", "handler"],
)
def test_errors_name_the_class_or_function_not_an_object_address(
    build: Any, named: str, fragment: str
) -> None:
    with pytest.raises(PromptValidationError) as caught:
        build()

    message = str(caught.value)
    assert named in message
    assert fragment in message
    assert " at 0x" not in message


def test_a_name_taken_from_a_function_that_is_not_a_tool_name_says_to_pass_name() -> None:
    def Lookup(city: str) -> str:
        """Look up."""
        return city

    with pytest.raises(PromptValidationError, match=r"pass name="):
        Tool.from_function(Lookup)
    assert Tool.from_function(Lookup, name="lookup").name == "lookup"


class WrongHook:
    def __call__(self, ctx: Any, args: Any, call_next: Any) -> object:
        return "not a result"


def test_a_callable_instance_hook_returning_the_wrong_type_is_named_by_its_class() -> None:
    context = ToolHookContext(
        tool_name="t", tool_source="function", original_tool_func=lambda args: ToolResult.ok(1)
    )
    with pytest.raises(TypeError) as caught:
        run_tool_with_hooks([WrongHook()], context, {})

    assert "WrongHook" in str(caught.value)
    assert " at 0x" not in str(caught.value)
