"""A client-executed call the prompt offers no tool for is answered with a failure, as an
unknown function is: the model reads why, the loop goes on, and nothing runs.

Every call item here is synthetic (made up for the test, shaped by the official
OpenAPI components): a ``custom_tool_call`` naming no custom tool of the
prompt, or an ``apply_patch_call`` / local ``shell_call`` / ``local_shell_call``
/ client ``tool_search_call`` / ``computer_call`` in a prompt without that tool,
and a ``function_call`` naming a provider tool (apply_patch, a custom tool, the
local shell) that the prompt offers in that tool's own form, not as a function.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from openapi_tools import wire_errors

from tooltape import InProcessEventBus, Prompt, PromptEvaluationError, Section, Tool, ToolInvoked
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.kinds import canonical_client_tools, canonical_tools
from tooltape.testing.provider.faults import ProviderFaults

RAN: list[str] = []


def add_one(x: int) -> int:
    """Add one to x."""
    RAN.append("add_one")
    return x + 1


def prompt() -> Prompt[Any]:
    tools = [Tool.from_function(add_one), canonical_client_tools()["custom"]]
    return Prompt(ns="tests", key="unoffered", sections=[Section(title="T", tools=tools)])


UNOFFERED: dict[str, tuple[dict[str, Any], str, str]] = {
    # label: (call item, answer item type, name the ToolInvoked carries)
    "custom-unknown-name": (
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_c", "name": "nope"},
        "custom_tool_call_output",
        "nope",
    ),
    "custom-naming-a-function": (
        {"type": "custom_tool_call", "id": "ctc_2", "call_id": "call_f", "name": "add_one"},
        "custom_tool_call_output",
        "add_one",
    ),
    "apply_patch": (
        {
            "type": "apply_patch_call",
            "id": "apc_1",
            "call_id": "call_p",
            "status": "completed",
            "operation": {"type": "delete_file", "path": "README.md"},
        },
        "apply_patch_call_output",
        "apply_patch",
    ),
    "shell-local": (
        {
            "type": "shell_call",
            "id": "sh_1",
            "call_id": "call_s",
            "status": "completed",
            "action": {"commands": ["ls"]},
            "environment": {"type": "local"},
        },
        "shell_call_output",
        "shell",
    ),
    "local_shell": (
        {
            "type": "local_shell_call",
            "id": "ls_1",
            "call_id": "call_l",
            "status": "completed",
            "action": {"type": "exec", "command": ["ls"], "env": {}},
        },
        "local_shell_call_output",
        "local_shell",
    ),
    "tool_search-client": (
        {
            "type": "tool_search_call",
            "id": "tsc_1",
            "call_id": "call_t",
            "status": "completed",
            "execution": "client",
            "arguments": {"paths": ["lookup_order"]},
        },
        "tool_search_output",
        "tool_search",
    ),
}


def evaluate(item: dict[str, Any], bus: InProcessEventBus | None = None) -> ProviderFaults:
    faults = ProviderFaults()
    first = faults.response_json(output=[{**item, "input": "SELECT 1"}], id="resp_1")
    faults.script(faults.ok(first), faults.ok(faults.response_json("Done.", id="resp_2")))
    adapter = OpenAIAdapter("gpt-5", client=faults.client(max_retries=0), capabilities={})
    assert adapter.evaluate(prompt(), bus=bus).text == "Done."
    return faults


@pytest.mark.parametrize("label", UNOFFERED)
def test_a_call_no_tool_of_the_prompt_answers_gets_a_failure_and_the_loop_goes_on(
    label: str,
) -> None:
    item, answer_type, name = UNOFFERED[label]
    if item["type"] != "custom_tool_call":
        item = {k: v for k, v in item.items() if k != "input"}
    bus = InProcessEventBus()
    seen: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, seen.append)
    RAN.clear()

    faults = evaluate(item, bus)

    assert RAN == []  # nothing ran, not even a function tool of the same name
    second = faults.calls[1].json()["input"]
    (answer,) = [i for i in second if i.get("type") == answer_type]
    assert answer["call_id"] == item["call_id"]
    assert not wire_errors("InputItem", answer), wire_errors("InputItem", answer)
    (event,) = seen
    assert (event.name, event.source, event.call_id) == (name, "native", item["call_id"])
    assert not event.result.success
    assert "this prompt offers no" in event.result.message
    assert "add_one" in event.result.message and "sql_query" in event.result.message
    if answer_type in ("custom_tool_call_output", "apply_patch_call_output"):
        assert answer["output"] == event.result.message


def test_a_computer_call_no_tool_answers_ends_the_evaluation_saying_why() -> None:
    item = {
        "type": "computer_call",
        "id": "cu_1",
        "call_id": "call_cu",
        "status": "completed",
        "pending_safety_checks": [],
        "action": {"type": "screenshot"},
    }
    faults = ProviderFaults(assert_all_played=False)
    faults.responses.ok(faults.response_json(output=[item], id="resp_1"))
    adapter = OpenAIAdapter("gpt-5", client=faults.client(max_retries=0), capabilities={})
    with pytest.raises(PromptEvaluationError) as raised:
        adapter.evaluate(prompt())
    assert raised.value.phase == "tool" and raised.value.prompt_name == "unoffered"
    assert "computer_call call_cu could not be answered" in raised.value.message
    assert "this prompt offers no computer tool" in raised.value.message


@pytest.mark.parametrize(
    "item",
    [
        {
            "type": "shell_call",
            "id": "sh_2",
            "call_id": "call_h",
            "status": "completed",
            "action": {"commands": ["ls"]},
            "environment": {"type": "container_reference", "container_id": "cntr_1"},
        },
        {
            "type": "tool_search_call",
            "id": "tsc_2",
            "call_id": None,
            "status": "completed",
            "execution": "server",
            "arguments": {},
        },
    ],
    ids=["hosted-shell", "server-tool-search"],
)
def test_a_call_the_provider_runs_is_left_to_it(item: dict[str, Any]) -> None:
    faults = ProviderFaults(assert_all_played=False)
    faults.responses.ok(faults.response_json("Done.", id="resp_1") | {"output": [item]})
    adapter = OpenAIAdapter("gpt-5", client=faults.client(max_retries=0), capabilities={})
    hosted = [canonical_tools()[item["type"].removesuffix("_call")]]
    section = Section(title="T", tools=[Tool.from_function(add_one)], hosted_tools=hosted)
    adapter.evaluate(Prompt(ns="tests", key="hosted", sections=[section]))
    assert len(faults.calls) == 1  # nothing to answer: the provider ran it


def test_the_answer_is_json_the_next_request_can_carry() -> None:
    item, _, _ = UNOFFERED["apply_patch"]
    faults = evaluate(item)
    assert json.dumps(faults.calls[1].json())


@pytest.mark.parametrize(
    ("name", "arguments", "kind"),
    [
        ("apply_patch", {"operation": {"type": "delete_file", "path": "README.md"}}, "apply_patch"),
        ("sql_query", {"input": "SELECT 1; DROP TABLE orders"}, "custom"),
        ("local_shell", {"command": ["echo", "ran"]}, "local_shell"),
    ],
)
def test_a_function_call_naming_a_provider_tool_runs_nothing_and_says_how_to_call_it(
    name: str, arguments: dict[str, Any], kind: str
) -> None:
    client = canonical_client_tools()
    tools = [Tool.from_function(add_one), client["apply_patch"], client["custom"]]
    tools.append(client["local_shell"])
    section = Section(title="T", tools=tools)
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }
    faults = ProviderFaults()
    first = faults.response_json(output=[call], id="resp_1")
    faults.script(faults.ok(first), faults.ok(faults.response_json("Done.", id="resp_2")))
    adapter = OpenAIAdapter("gpt-5", client=faults.client(max_retries=0), capabilities={})
    done = adapter.evaluate(Prompt(ns="tests", key="as-function", sections=[section]))

    (event,) = done.tool_invocations
    assert (event.name, event.source, event.result.success) == (name, "function", False)
    assert f"{name!r} is not a function tool of this prompt" in event.result.message
    assert f"its {kind} tool" in event.result.message
    (answer,) = [
        i for i in faults.calls[1].json()["input"] if i.get("type", "").endswith("_output")
    ]
    assert answer == {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": answer["output"],
    }
    assert event.result.message in answer["output"]
