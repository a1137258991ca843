"""``strict`` per function tool: refused when built if strict mode cannot take the schema,
sent as is with ``"strict": false`` when the tool opts out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from openapi_wire import assert_valid_request_body

from tooltape import MarkdownSection, Prompt, PromptValidationError, Tool, ToolContext, ToolResult
from tooltape.adapters.openai import OpenAIAdapter


@dataclass(frozen=True)
class Inventory:
    counts: dict[str, int]


@dataclass(frozen=True)
class Wrapper:
    label: str
    inner: Inventory


@dataclass(frozen=True)
class Anything:
    payload: Any


@dataclass(frozen=True)
class Plain:
    name: str
    tags: list[str] = field(default_factory=lambda: [])
    note: str | None = None


def count(params: Any, *, context: ToolContext) -> ToolResult[int]:
    return ToolResult.ok(len(getattr(params, "counts", {})))


def test_a_mapping_field_is_refused_when_the_tool_is_built_saying_why_and_how() -> None:
    with pytest.raises(PromptValidationError) as raised:
        Tool[Inventory, int](name="count", description="Count things.", handler=count)
    message = str(raised.value)
    assert "field `counts`" in message and "free-form keys" in message
    assert "strict=False" in message

    with pytest.raises(PromptValidationError, match=r"field `inner\.counts`"):
        Tool[Wrapper, int](name="wrapped", description="Count things.", handler=count)
    with pytest.raises(PromptValidationError, match="field `payload` accepts any JSON value"):
        Tool[Anything, int](name="anything", description="Take anything.", handler=count)


def test_from_function_takes_strict_too() -> None:
    def tally(counts: dict[str, int]) -> int:
        """Add the counts up."""
        return sum(counts.values())

    with pytest.raises(PromptValidationError, match="strict=False"):
        Tool.from_function(tally)
    assert Tool.from_function(tally, strict=False).strict is False


def test_an_opted_out_tool_sends_its_schema_as_is_with_strict_false() -> None:
    loose = Tool[Inventory, int](
        name="count", description="Count things.", handler=count, strict=False
    )
    strict = Tool[Plain, int](name="plain", description="Plain params.", handler=count)
    prompt = Prompt(
        ns="t", key="s", sections=[MarkdownSection(title="T", template="go", tools=[loose, strict])]
    )
    body = OpenAIAdapter("gpt-5").build_request(prompt)
    loose_spec, strict_spec = body["tools"]
    assert loose_spec["strict"] is False
    assert loose_spec["parameters"] == loose.parameters_schema()
    assert loose_spec["parameters"]["properties"]["counts"]["additionalProperties"] == {
        "type": "integer"
    }
    assert strict_spec["strict"] is True
    assert sorted(strict_spec["parameters"]["required"]) == ["name", "note", "tags"]
    assert_valid_request_body(body)


def test_strict_must_be_a_bool() -> None:
    with pytest.raises(PromptValidationError, match="strict='yes'"):
        Tool[Plain, int](name="plain", description="Plain.", handler=count, strict="yes")  # type: ignore[arg-type]
