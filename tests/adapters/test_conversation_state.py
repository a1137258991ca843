"""Conversation state options: what each round of the tool loop sends.

Response bodies are synthetic and minimal (scripted with ``ProviderFaults``);
every request sent is checked against the official request schema.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from openapi_wire import assert_valid_request_body

from tooltape import MarkdownSection, Prompt, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.image_generation import image_generation_tool

# A PNG signature and zero padding, base64: synthetic, big enough to notice if resent.
IMAGE = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(600)).decode()


def add_one(x: int) -> int:
    """Add one to x."""
    return x + 1


def prompt() -> Prompt[Any]:
    section = MarkdownSection(
        title="T",
        template="Draw, then add one to 41.",
        tools=[Tool.from_function(add_one)],
        hosted_tools=[image_generation_tool()],
    )
    return Prompt(ns="t", key="state", sections=[section])


def first_response() -> dict[str, Any]:
    return {
        "id": "resp_first",
        "object": "response",
        "status": "completed",
        "output": [
            {
                "id": "rs_1",
                "type": "reasoning",
                "summary": [],
                "encrypted_content": "gAAAA-synthetic-encrypted-reasoning",
            },
            {"id": "ig_1", "type": "image_generation_call", "status": "completed", "result": IMAGE},
            {
                "id": "fc_1",
                "type": "function_call",
                "call_id": "call_1",
                "name": "add_one",
                "arguments": '{"x": 41}',
                "status": "completed",
            },
        ],
    }


ANSWER = {"type": "function_call_output", "call_id": "call_1", "output": "42"}


def run(**options: Any) -> list[dict[str, Any]]:
    faults = ProviderFaults()
    faults.script(faults.ok(first_response()), faults.ok(faults.response_json("42 it is")))
    response = OpenAIAdapter("gpt-5", client=faults.client()).evaluate(prompt(), **options)
    assert response.text == "42 it is"
    bodies = [call.json() for call in faults.calls]
    for body in bodies:
        assert_valid_request_body(body)
    return bodies


def test_by_default_every_round_resends_the_conversation() -> None:
    first, second = run()
    assert "store" not in first and "previous_response_id" not in second
    assert [item.get("type", "message") for item in second["input"]] == [
        "message",
        "reasoning",
        "image_generation_call",
        "function_call",
        "function_call_output",
    ]


def test_chaining_sends_only_the_new_items_after_the_first_round() -> None:
    first, second = run(chain=True)
    assert "previous_response_id" not in first
    assert second["previous_response_id"] == "resp_first"
    assert second["input"] == [ANSWER]
    assert IMAGE not in json.dumps(second)
    assert second["tools"] == first["tools"]


def test_a_previous_response_id_continues_an_earlier_response_and_chains_on() -> None:
    first, second = run(previous_response_id="resp_earlier")
    assert first["previous_response_id"] == "resp_earlier"
    assert first["input"][0]["content"] == "## 1. T\n\nDraw, then add one to 41."
    assert second["previous_response_id"] == "resp_first"
    assert second["input"] == [ANSWER]


def test_a_conversation_holds_the_history_so_rounds_send_only_new_items() -> None:
    first, second = run(conversation="conv_synthetic")
    assert first["conversation"] == second["conversation"] == "conv_synthetic"
    assert "previous_response_id" not in second
    assert second["input"] == [ANSWER]


def test_without_storage_reasoning_comes_back_with_its_encrypted_content() -> None:
    first, second = run(store=False)
    assert first["store"] is False and second["store"] is False
    assert "reasoning.encrypted_content" in first["include"]
    reasoning = next(item for item in second["input"] if item.get("type") == "reasoning")
    assert reasoning["encrypted_content"] == "gAAAA-synthetic-encrypted-reasoning"


def test_an_adapter_default_applies_to_every_call_and_a_call_can_reset_it() -> None:
    adapter = OpenAIAdapter("gpt-5", store=False)
    assert adapter.build_request(prompt())["store"] is False
    assert "store" not in adapter.build_request(prompt(), store=None)
    assert "include" not in adapter.build_request(prompt(), store=None)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"chain": True, "store": False}, "need stored responses"),
        ({"previous_response_id": "resp_1", "store": False}, "need stored responses"),
        ({"conversation": "conv_1", "chain": True}, "cannot be combined"),
        ({"conversation": ""}, "conversation=''"),
        ({"store": "no"}, "store='no'"),
    ],
)
def test_contradictory_or_malformed_state_options_are_refused_up_front(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        OpenAIAdapter("gpt-5").build_request(prompt(), **options)


def test_previous_response_id_belongs_to_a_call_not_to_the_adapter() -> None:
    with pytest.raises(TypeError, match="evaluate"):
        OpenAIAdapter("gpt-5", previous_response_id="resp_1")  # type: ignore[call-arg]
