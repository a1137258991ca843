"""Namespaces and function options end to end: grouping, deferral and caller rules on the wire,
namespaced calls through the executor, and what the API would refuse refused before sending."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from kind_helpers import evaluate, final_answer, synthetic
from openai.types.responses import ResponseInputItemParam, ToolParam
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Prompt, Section, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import NamespaceCodec, default_client_tool_codecs
from tooltape.prompt import PromptEvaluationError, PromptValidationError, ToolResult
from tooltape.tools.apply_patch import apply_patch_tool
from tooltape.tools.custom import custom_tool
from tooltape.tools.function_options import (
    FunctionOptions,
    Namespace,
    ToolWithOptions,
    options_of,
    with_options,
)
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.namespace import NamespaceSection, namespace_tools
from tooltape.tools.tool_search import client_tool_search_tool

STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
SDK_INPUT: TypeAdapter[Any] = TypeAdapter(ResponseInputItemParam)
ORDERS = Namespace("orders", "Find and inspect customer orders.")
MODEL = "gpt-5.4"  # tool search, which deferred tools need, starts with gpt-5.4


def find_order(order_id: str) -> str:
    """Find an order by its id."""
    return f"order {order_id}: 2 items"


def cancel_order(order_id: str) -> str:
    """Cancel an order."""
    return f"cancelled {order_id}"


def weather(city: str) -> str:
    """Weather in a city."""
    return "sunny"


def request_tools(*sections: Section[Any]) -> list[dict[str, Any]]:
    prompt = Prompt(ns="t", key="ns", sections=list(sections))
    return OpenAIAdapter(MODEL).build_request(prompt)["tools"]


def render_error(*sections: Section[Any]) -> str:
    with pytest.raises(PromptEvaluationError) as raised:
        request_tools(*sections)
    assert raised.value.phase == "render"
    return raised.value.message


@pytest.mark.parametrize(
    ("build", "fragment"),
    [
        (lambda: Namespace("crm tools", "x"), "1-64 letters"),
        (lambda: Namespace("crm", ""), "description"),
        (lambda: FunctionOptions(allowed_callers=()), "direct and/or programmatic"),
        (lambda: FunctionOptions(allowed_callers=("model",)), "direct, programmatic"),
        (lambda: FunctionOptions(allowed_callers="direct"), "('direct',)"),
        (lambda: FunctionOptions(namespace="crm"), "Namespace(name, description)"),
        (lambda: namespace_tools(ORDERS, []), "at least one tool"),
    ],
)
def test_bad_options_name_the_field_and_the_fix(build: Any, fragment: str) -> None:
    with pytest.raises(PromptValidationError) as raised:
        build()
    assert fragment in str(raised.value)


def test_with_options_keeps_the_tool_and_refuses_other_tool_kinds(tmp_path: Path) -> None:
    plain = Tool.from_function(find_order)
    offered = with_options(plain, allowed_callers=("direct",), namespace=ORDERS)
    assert isinstance(offered, ToolWithOptions)
    assert (offered.name, offered.handler, offered.params_type) == (
        plain.name,
        plain.handler,
        plain.params_type,
    )
    assert options_of(offered) == FunctionOptions(allowed_callers=("direct",), namespace=ORDERS)
    deferred = with_options(offered, defer_loading=True)
    assert options_of(deferred).namespace == ORDERS and options_of(deferred).defer_loading
    custom = with_options(custom_tool(weather), defer_loading=True)
    assert getattr(custom, "kind", None) == "custom" and options_of(custom).defer_loading
    with pytest.raises(PromptValidationError, match="only function tools and custom tools"):
        with_options(apply_patch_tool(tmp_path), defer_loading=True)


def test_members_of_a_namespace_become_one_entry_in_place() -> None:
    tools = request_tools(
        Section(title="Weather", tools=(Tool.from_function(weather),)),
        NamespaceSection(ORDERS, tools=[Tool.from_function(find_order)]),
        Section(
            title="More",
            tools=(
                *namespace_tools(ORDERS, [Tool.from_function(cancel_order)]),
                with_options(custom_tool(weather, name="forecast"), namespace=ORDERS),
            ),
        ),
    )
    assert [t["type"] for t in tools] == ["function", "namespace"]
    (namespace,) = [t for t in tools if t["type"] == "namespace"]
    assert (namespace["name"], namespace["description"]) == ("orders", ORDERS.description)
    assert [m["name"] for m in namespace["tools"]] == ["find_order", "cancel_order", "forecast"]
    assert namespace["tools"][2]["type"] == "custom"
    for spec in tools:
        assert_wire_valid("Tool", spec)
        STRICT_TOOL.validate_python(spec)


def test_deferral_and_callers_reach_the_function_entries() -> None:
    from tooltape.tools.tool_search import tool_search_tool

    offered = with_options(Tool.from_function(find_order), allowed_callers=("direct",))
    section = NamespaceSection(ORDERS, tools=[offered], defer_loading=True)
    tools = request_tools(section, Section(title="Search", hosted_tools=(tool_search_tool(),)))
    (member,) = tools[0]["tools"]
    assert (member["defer_loading"], member["allowed_callers"]) == (True, ["direct"])
    assert_wire_valid("Tool", tools[0])


def test_what_the_api_refuses_is_refused_before_sending() -> None:
    deferred = with_options(Tool.from_function(find_order), defer_loading=True)
    message = render_error(Section(title="S", tools=(deferred,)))
    assert "find_order" in message and "tool search" in message
    scripted = with_options(Tool.from_function(find_order), allowed_callers=("programmatic",))
    message = render_error(Section(title="S", tools=(scripted,)))
    assert "find_order" in message and "programmatic_tool_calling" in message
    other = Namespace("orders", "Something else entirely.")
    message = render_error(
        NamespaceSection(ORDERS, tools=[Tool.from_function(find_order)]),
        NamespaceSection(other, tools=[Tool.from_function(cancel_order)], key="other"),
    )
    assert "described two ways" in message
    clash = Namespace("weather", "Weather tools.")
    message = render_error(
        Section(title="S", tools=(Tool.from_function(weather),)),
        NamespaceSection(clash, tools=[Tool.from_function(find_order)]),
    )
    assert "has the name of a tool" in message


def test_a_namespaced_call_runs_as_a_function_and_names_its_namespace() -> None:
    section = NamespaceSection(ORDERS, tools=[Tool.from_function(find_order)])
    prompt_tools = section.tools()
    done = evaluate(synthetic("namespace_function_call.json"), final_answer(), tools=prompt_tools)
    (answer,) = done.inputs_of_type(1, "function_call_output")
    assert answer == {
        "type": "function_call_output",
        "call_id": "call_fc_namespace",
        "output": "order A-17: 2 items",
        "namespace": "orders",
    }
    assert_wire_valid("FunctionCallOutputItemParam", answer)
    SDK_INPUT.validate_python(answer)
    (event,) = done.session.tool_invocations
    assert (event.name, event.source, event.result.success) == ("find_order", "function", True)


def test_namespace_codec_spec_arguments_and_answer() -> None:
    codec = NamespaceCodec()
    member = with_options(Tool.from_function(find_order), namespace=ORDERS, defer_loading=True)
    spec = codec.serialize(member)
    assert spec["type"] == "namespace" and spec["tools"][0]["defer_loading"] is True
    assert_wire_valid("Tool", spec)
    with pytest.raises(PromptEvaluationError, match="in no namespace"):
        codec.serialize(Tool.from_function(find_order))
    item = synthetic("namespace_function_call.json")["output"][0]
    assert codec.call_arguments(item) == {"order_id": "A-17"}
    assert codec.call_arguments({**item, "arguments": "not json"}) == {}
    answer = codec.output_item(item, ToolResult.ok("x"))
    assert answer["namespace"] == "orders" and json.dumps(answer)
    assert_wire_valid("FunctionCallOutputItemParam", answer)
    assert default_client_tool_codecs()["namespace"].kind == "namespace"


def test_namespace_section_clones_with_its_arguments() -> None:
    section = NamespaceSection(ORDERS, tools=[Tool.from_function(find_order)])
    copy = section.clone(key="copy")
    assert copy.key == "copy" and copy.namespace == ORDERS
    assert [t.name for t in copy.tools()] == ["find_order"]
    assert section.render(None).endswith(ORDERS.description)


def refund(order_id: str) -> str:
    """Refund an order."""
    return f"refunded {order_id}"


def search_call(**arguments: Any) -> dict[str, Any]:
    body = synthetic("tool_search_client_call.json")
    body["output"][0]["arguments"] = arguments
    return body


def test_a_client_search_loads_namespaces_members_and_mcp_servers() -> None:
    crm = Namespace("crm", "Customer and order tools.")
    members = namespace_tools(crm, [Tool.from_function(find_order), Tool.from_function(refund)])
    docs = hosted_mcp_tool(
        HostedMcpConfig("docs", server_url="https://mcp.example.com/mcp", defer_loading=True)
    )
    done = evaluate(
        search_call(paths=["crm", "docs"]),
        final_answer(),
        tools=(client_tool_search_tool(), *(with_options(m, defer_loading=True) for m in members)),
        hosted=(docs,),
        model=MODEL,
    )
    (answer,) = done.inputs_of_type(1, "tool_search_output")
    namespace, server = answer["tools"]
    assert namespace["type"] == "namespace" and len(namespace["tools"]) == 2
    assert server["type"] == "mcp" and server["server_label"] == "docs"
    one = evaluate(
        search_call(paths=["refund"]),
        final_answer(),
        tools=(client_tool_search_tool(), *(with_options(m, defer_loading=True) for m in members)),
        model=MODEL,
    )
    (single,) = one.inputs_of_type(1, "tool_search_output")
    assert [m["name"] for m in single["tools"][0]["tools"]] == ["refund"]


def namespaced_prompt() -> Prompt[Any]:
    return Prompt(
        ns="t",
        key="ns",
        sections=[NamespaceSection(ORDERS, tools=[Tool.from_function(find_order)])],
    )


def test_a_tool_choice_naming_a_namespace_forces_one_of_its_tools() -> None:
    from tooltape.adapters.openai import AllowedTools

    adapter = OpenAIAdapter(MODEL)
    body = adapter.build_request(namespaced_prompt(), tool_choice="orders")
    assert body["tool_choice"] == {
        "type": "allowed_tools",
        "mode": "required",
        "tools": [{"type": "namespace", "name": "orders"}],
    }
    # the same wire as the AllowedTools form of it
    allowed = AllowedTools(("orders",), mode="required")
    assert (
        adapter.build_request(namespaced_prompt(), tool_choice=allowed)["tool_choice"]
        == (body["tool_choice"])
    )
    assert_wire_valid("ToolChoiceParam", body["tool_choice"])


@pytest.mark.parametrize("form", ["name", "allowed"])
def test_a_tool_choice_naming_a_namespace_member_says_to_name_the_namespace(form: str) -> None:
    from tooltape.adapters.openai import AllowedTools

    choice: Any = "find_order" if form == "name" else AllowedTools(("find_order",))
    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter(MODEL).build_request(namespaced_prompt(), tool_choice=choice)
    assert raised.value.phase == "render"
    message = raised.value.message
    assert "'find_order' is in the namespace 'orders'" in message
    assert "names no tool of this prompt" not in message
