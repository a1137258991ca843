"""Strict function calling makes optional fields required-but-nullable; a ``null`` the model
sends for one is dropped again before validation, at any depth: inside list items, and
behind a ``$ref`` wherever it points (``#/$defs/...`` from pydantic, ``#/definitions/...``
as servers built on zod-to-json-schema write). The provider is scripted (synthetic
responses); the MCP server is a real process."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tooltape import MarkdownSection, Prompt, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.mcp import McpServerSection
from tooltape.testing.provider.faults import ProviderFaults

SCHEMA_SERVER = Path(__file__).parents[1] / "mcp" / "servers" / "schema_server.py"


def function_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }


def tool_output(faults: ProviderFaults) -> str:
    """The output the second request sent back for the one call."""
    body = faults.calls[-1].json()
    (output,) = [item for item in body["input"] if item.get("type") == "function_call_output"]
    return str(output["output"])


@dataclass(frozen=True)
class Line:
    sku: str
    quantity: int = 1


def test_a_null_inside_a_list_item_falls_back_to_the_items_default() -> None:
    received: list[list[Line]] = []

    def order(lines: list[Line]) -> str:
        """Order the lines."""
        received.append(lines)
        return "ordered"

    faults = ProviderFaults()
    prompt = Prompt(
        ns="t",
        key="o",
        sections=[MarkdownSection(title="T", template="go", tools=[Tool.from_function(order)])],
    )
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    spec = adapter.build_request(prompt)["tools"][0]
    assert spec["strict"] is True
    call = function_call(
        "order", {"lines": [{"sku": "a", "quantity": None}, {"sku": "b", "quantity": 3}]}
    )
    faults.script(faults.ok(faults.response_json(output=[call])), faults.ok())

    adapter.evaluate(prompt)

    assert received == [[Line("a"), Line("b", 3)]], tool_output(faults)


@pytest.mark.parametrize("where", ["$defs", "definitions"])
def test_a_null_behind_a_ref_is_dropped_wherever_the_ref_points(where: str) -> None:
    place = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
        "required": ["city"],
    }
    schema = {
        "type": "object",
        "properties": {"where": {"$ref": f"#/{where}/Place"}},
        "required": ["where"],
        where: {"Place": place},
    }
    section = McpServerSection(
        "places", sys.executable, [str(SCHEMA_SERVER), "--tool", "lookup", json.dumps(schema)]
    )
    faults = ProviderFaults()
    with section:
        prompt = Prompt(ns="t", key="p", sections=[section])
        adapter = OpenAIAdapter("gpt-5", client=faults.client())
        spec = adapter.build_request(prompt)["tools"][0]
        assert spec["strict"] is True
        call = function_call(spec["name"], {"where": {"city": "Oslo", "country": None}})
        faults.script(faults.ok(faults.response_json(output=[call])), faults.ok())

        adapter.evaluate(prompt)

    echoed = json.loads(tool_output(faults))
    assert echoed == {"tool": "lookup", "arguments": {"where": {"city": "Oslo"}}}


@dataclass(frozen=True)
class Tree:
    name: str
    children: list[Tree] = field(default_factory=list)


def test_arguments_nested_past_what_the_cleaning_follows_still_get_an_answer() -> None:
    planted: list[Tree] = []

    def plant(tree: Tree) -> str:
        """Plant a tree."""
        planted.append(tree)
        return "planted"

    node: dict[str, Any] = {"name": "leaf", "children": None}
    for _ in range(450):
        node = {"name": "branch", "children": [node]}
    faults = ProviderFaults()
    prompt = Prompt(
        ns="t",
        key="t",
        sections=[MarkdownSection(title="T", template="go", tools=[Tool.from_function(plant)])],
    )
    faults.script(
        faults.ok(faults.response_json(output=[function_call("plant", {"tree": node})])),
        faults.ok(),
    )

    OpenAIAdapter("gpt-5", client=faults.client()).evaluate(prompt)

    output = tool_output(faults)
    assert planted or output.startswith("Tool 'plant': Arguments"), output
