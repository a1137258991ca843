"""Request options and ``tool_choice`` forms: where a user sets them, what reaches the wire,
and how bad values are refused before anything is sent."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_wire import assert_valid_request_body

from tooltape import MarkdownSection, Prompt, PromptEvaluationError, Tool
from tooltape.adapters.openai import AllowedTools, McpToolChoice, OpenAIAdapter
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.web_search import web_search_tool


def add_one(x: int) -> int:
    """Add one to x."""
    return x + 1


def lookup(term: str) -> str:
    """Look a term up."""
    return term


def prompt() -> Prompt[Any]:
    wiki = hosted_mcp_tool(
        HostedMcpConfig("deepwiki", server_url="https://mcp.deepwiki.com/mcp"), name="wiki"
    )
    section = MarkdownSection(
        title="T",
        template="go",
        tools=[Tool.from_function(add_one), Tool.from_function(lookup)],
        hosted_tools=[web_search_tool(), wiki],
    )
    return Prompt(ns="t", key="options", sections=[section])


def test_options_reach_the_body_from_the_adapter_and_from_the_call() -> None:
    adapter = OpenAIAdapter(
        "gpt-5", parallel_tool_calls=False, max_tool_calls=3, reasoning_effort="low"
    )
    body = adapter.build_request(prompt(), reasoning_summary="auto", max_tool_calls=5)
    assert body["parallel_tool_calls"] is False
    assert body["max_tool_calls"] == 5
    assert body["reasoning"] == {"effort": "low", "summary": "auto"}
    assert_valid_request_body(body)
    plain = OpenAIAdapter("gpt-5").build_request(prompt())
    assert not {"parallel_tool_calls", "max_tool_calls", "reasoning", "background"} & set(plain)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_tool_calls": 0}, "max_tool_calls=0"),
        ({"max_tool_calls": True}, "max_tool_calls=True"),
        ({"reasoning_effort": "extreme"}, "reasoning_effort='extreme'; use one of none, minimal"),
        ({"reasoning_summary": "short"}, "reasoning_summary='short'"),
        ({"parallel_tool_calls": 1}, "parallel_tool_calls=1"),
        ({"background": None}, "background=None"),
    ],
)
def test_bad_option_values_are_refused_where_they_are_given(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        OpenAIAdapter("gpt-5", **options)
    with pytest.raises(ValueError, match=message):
        OpenAIAdapter("gpt-5").build_request(prompt(), **options)


def test_an_unknown_option_is_named_with_the_known_ones() -> None:
    with pytest.raises(TypeError, match="unexpected option 'stor'; options are background"):
        OpenAIAdapter("gpt-5").evaluate(prompt(), stor=False)  # type: ignore[call-arg]


def test_allowed_tools_lists_several_tools_as_the_api_names_them() -> None:
    adapter = OpenAIAdapter("gpt-5")
    choice = AllowedTools(("add_one", "web_search", "wiki"), mode="required")
    body = adapter.build_request(prompt(), tool_choice=choice)
    assert body["tool_choice"] == {
        "type": "allowed_tools",
        "mode": "required",
        "tools": [
            {"type": "function", "name": "add_one"},
            {"type": "web_search"},
            {"type": "mcp", "server_label": "deepwiki"},
        ],
    }
    assert_valid_request_body(body)
    with pytest.raises(PromptEvaluationError, match="'nope' names no tool"):
        adapter.build_request(prompt(), tool_choice=AllowedTools(("add_one", "nope")))
    with pytest.raises(ValueError, match="at least one tool"):
        AllowedTools(())
    with pytest.raises(ValueError, match="tuple of tool names"):
        AllowedTools("add_one")  # type: ignore[arg-type]


def test_the_mcp_choice_names_one_tool_of_a_server() -> None:
    adapter = OpenAIAdapter("gpt-5")
    body = adapter.build_request(prompt(), tool_choice=McpToolChoice("wiki", "ask_question"))
    assert body["tool_choice"] == {
        "type": "mcp",
        "server_label": "deepwiki",
        "name": "ask_question",
    }
    assert_valid_request_body(body)
    with pytest.raises(PromptEvaluationError, match="its hosted MCP tools: wiki"):
        adapter.build_request(prompt(), tool_choice=McpToolChoice("web_search", "x"))


def test_after_the_first_round_an_allowed_set_stays_but_stops_forcing_a_call() -> None:
    faults = ProviderFaults()
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": "add_one",
        "arguments": '{"x": 1}',
        "status": "completed",
    }
    faults.script(faults.ok(faults.response_json(output=[call])), faults.ok())
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    adapter.evaluate(prompt(), tool_choice=AllowedTools(("add_one", "lookup"), mode="required"))
    first, second = (c.json()["tool_choice"] for c in faults.calls)
    assert first["mode"] == "required"
    assert second == {**first, "mode": "auto"}
    for sent in faults.calls:
        assert_valid_request_body(sent.json())
