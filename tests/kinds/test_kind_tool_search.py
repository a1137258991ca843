"""tool_search end to end: provider-run (hosted) and client-run searches over deferred tools."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from kind_helpers import evaluate, final_answer, synthetic
from openai.types.responses import Response, ResponseInputItemParam, ToolParam
from openai.types.responses.response_create_params import ToolChoice
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Tool
from tooltape.adapters.openai.codecs import (
    ClientToolSearchCodec,
    ToolSearchCodec,
    default_client_tool_codecs,
    default_hosted_tool_codecs,
)
from tooltape.cards import load_card
from tooltape.prompt import PromptValidationError
from tooltape.tools.function_options import with_options
from tooltape.tools.tool_search import (
    ClientToolSearchSection,
    LoadedTool,
    ToolSearchResult,
    ToolSearchSection,
    client_tool_search_tool,
    tool_search_tool,
)

STRICT_INPUT: TypeAdapter[Any] = TypeAdapter(
    ResponseInputItemParam, config=ConfigDict(extra="forbid")
)
STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_CHOICE: TypeAdapter[Any] = TypeAdapter(ToolChoice, config=ConfigDict(extra="forbid"))
HOSTED, CLIENT = ToolSearchCodec(), ClientToolSearchCodec()
MODEL = "gpt-5.4"  # the capability table: "Only gpt-5.4 and later models support tool_search"


def lookup_order(order_id: str) -> str:
    """Look an order up by its id."""
    return f"order {order_id}: shipped"


def refund(order_id: str) -> str:
    """Refund an order."""
    return f"refunded {order_id}"


def deferred(fn: Any) -> Tool[Any, Any]:
    return with_options(Tool.from_function(fn), defer_loading=True)


def client_call(**arguments: Any) -> dict[str, Any]:
    body = synthetic("tool_search_client_call.json")
    body["output"][0]["arguments"] = arguments
    return body


def function_call(name: str, arguments: str) -> dict[str, Any]:
    item = {
        "id": "fc_1",
        "type": "function_call",
        "call_id": "call_fn_1",
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }
    return {**synthetic("tool_search_client_call.json"), "output": [item]}


def test_hosted_spec_and_choice_are_spec_valid() -> None:
    tool = tool_search_tool()
    assert HOSTED.serialize(tool) == {"type": "tool_search"}
    assert_wire_valid("Tool", HOSTED.serialize(tool))
    STRICT_TOOL.validate_python(HOSTED.serialize(tool))
    assert_wire_valid("ToolChoiceParam", HOSTED.tool_choice(tool))
    STRICT_CHOICE.validate_python(HOSTED.tool_choice(tool))
    assert isinstance(default_hosted_tool_codecs()["tool_search"], ToolSearchCodec)


@pytest.mark.parametrize("form", ["dict", "sdk"])
def test_a_provider_run_search_reads_what_it_loaded(form: str) -> None:
    body = synthetic("tool_search_server.json")
    items: list[Any] = body["output"] if form == "dict" else list(Response.construct(**body).output)
    (call,) = HOSTED.parse_calls(items, tool_search_tool())
    assert call.success and call.params.arguments == {"paths": ["get_weather"]}
    assert call.params.execution == "server"
    output = HOSTED.parse_output(items, tool_search_tool())
    assert isinstance(output, ToolSearchResult)
    assert output.loaded == (LoadedTool("function", "get_weather"),)
    assert output.loaded_names == ("get_weather",)


def test_failed_and_unfinished_searches_are_failed_calls() -> None:
    item = synthetic("tool_search_server.json")["output"][0]
    failed = {**item, "status": "failed", "error": {"code": "no_match", "message": "none"}}
    (call,) = HOSTED.parse_calls([failed], None)
    assert not call.success and "no_match" in (call.error or "")
    (cut,) = HOSTED.parse_calls([{**item, "status": "incomplete"}], None)
    assert not cut.success and "incomplete" in (cut.error or "")


def test_additional_tools_items_are_reported() -> None:
    additional = {
        "id": "at_1",
        "type": "additional_tools",
        "role": "developer",
        "tools": [
            {
                "type": "namespace",
                "name": "crm",
                "description": "Customer records.",
                "tools": [{"type": "function", "name": "find_customer", "parameters": None}],
            },
            {"type": "mcp", "server_label": "docs", "server_url": "https://mcp.example.com"},
        ],
    }
    output = HOSTED.parse_output([additional], tool_search_tool())
    assert output is not None and output.searches == ()
    assert output.additional == (
        LoadedTool("function", "find_customer", "crm"),
        LoadedTool("mcp", "docs"),
    )


def test_evaluation_with_the_hosted_search_records_it_and_defers_the_function() -> None:
    done = evaluate(
        synthetic("tool_search_server.json"),
        tools=(deferred(lookup_order),),
        hosted=(tool_search_tool(),),
        model=MODEL,
    )
    tools = done.sent[0]["tools"]
    assert tools[0]["name"] == "lookup_order" and tools[0]["defer_loading"] is True
    assert tools[1] == {"type": "tool_search"}
    (event,) = done.invocations("tool_search")
    assert event.source == "hosted" and event.result.success
    result = done.response.hosted_outputs["tool_search"]
    assert isinstance(result, ToolSearchResult) and result.loaded_names == ("get_weather",)


def test_client_specs_are_spec_valid() -> None:
    plain = CLIENT.serialize(client_tool_search_tool())
    assert plain == {"type": "tool_search", "execution": "client"}

    @dataclass(frozen=True)
    class Query:
        topic: str

    custom = client_tool_search_tool(
        lambda params, searchable: [n for n in searchable if params.topic in n],
        params_type=Query,
        description="Find tools about a topic.",
    )
    spec = CLIENT.serialize(custom)
    assert spec["description"] == "Find tools about a topic."
    assert spec["parameters"]["properties"] == {"topic": {"type": "string"}}
    for each in (plain, spec):
        assert_wire_valid("Tool", each)
        STRICT_TOOL.validate_python(each)
    assert_wire_valid("ToolChoiceParam", CLIENT.tool_choice(custom))
    assert isinstance(default_client_tool_codecs()["tool_search"], ClientToolSearchCodec)
    with pytest.raises(PromptValidationError, match="search="):
        client_tool_search_tool(params_type=Query)


def test_a_client_search_param_named_title_stays_in_its_spec() -> None:
    @dataclass(frozen=True)
    class Titled:
        title: str

    tool = client_tool_search_tool(
        lambda params, searchable: [n for n in searchable if params.title in n],
        params_type=Titled,
        description="Find tools by title.",
    )
    spec = CLIENT.serialize(tool)
    assert spec["parameters"]["properties"] == {"title": {"type": "string"}}
    assert spec["parameters"]["required"] == ["title"]


def test_a_client_search_loads_the_request_definition_then_the_tool_runs() -> None:
    done = evaluate(
        client_call(paths=["lookup_order"]),
        function_call("lookup_order", '{"order_id": "A-1"}'),
        final_answer(),
        tools=(client_tool_search_tool(), deferred(lookup_order), deferred(refund)),
        model=MODEL,
    )
    (answer,) = done.inputs_of_type(1, "tool_search_output")
    assert answer["status"] == "completed" and answer["execution"] == "client"
    assert answer["tools"] == [done.sent[0]["tools"][1]]
    assert_wire_valid("ToolSearchOutputItemParam", answer)
    STRICT_INPUT.validate_python(answer)
    (search,) = done.invocations("tool_search")
    assert search.source == "native" and search.result.success
    (output,) = done.inputs_of_type(2, "function_call_output")
    assert output["output"] == "order A-1: shipped"


def test_a_name_the_prompt_cannot_load_fails_the_search() -> None:
    done = evaluate(
        client_call(paths=["drop_tables"]),
        final_answer(),
        tools=(client_tool_search_tool(), deferred(lookup_order)),
        model=MODEL,
    )
    (event,) = done.invocations("tool_search")
    assert not event.result.success
    assert "drop_tables" in event.result.message and "lookup_order" in event.result.message
    (answer,) = done.inputs_of_type(1, "tool_search_output")
    assert (answer["status"], answer["tools"]) == ("incomplete", [])
    assert done.response.text == "Done."


def test_a_provider_run_search_is_not_answered_by_the_client_tool() -> None:
    done = evaluate(
        synthetic("tool_search_server.json"),
        tools=(client_tool_search_tool(), deferred(lookup_order)),
        model=MODEL,
    )
    assert len(done.sent) == 1 and done.invocations("tool_search") == []


def test_sections_and_cards(tmp_path: Any) -> None:
    assert ToolSearchSection().hosted_tools()[0].kind == "tool_search"
    tool = client_tool_search_tool()
    assert ClientToolSearchSection(tool).tools() == (tool,)
    card = tmp_path / "card.md"
    card.write_text("---\nname: a\nhosted_tools: [{kind: tool_search}]\n---\nGo.\n")
    (hosted,) = load_card(card).render().hosted_tools
    assert hosted.kind == "tool_search"
