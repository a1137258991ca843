"""Two calls of one response under one ``call_id`` cannot both be answered.

Each answer names its call by ``call_id`` alone; the OpenAPI document calls
it "the unique ID of the function tool call". A response that repeats one is
unparsable: a parse error naming the item, before any tool runs. The bodies
are synthetic, served by a real HTTP server on loopback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import openai
import pytest

from tooltape import (
    InProcessEventBus,
    MarkdownSection,
    Prompt,
    PromptEvaluationError,
    Tool,
    ToolContext,
    ToolInvoked,
    ToolResult,
)
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply


@dataclass(frozen=True)
class Count:
    x: int


def count(params: Count, *, context: ToolContext) -> ToolResult[int]:
    return ToolResult.ok(params.x)


def _call(item_id: str, call_id: str, x: int) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": item_id,
        "call_id": call_id,
        "name": "count",
        "arguments": f'{{"x": {x}}}',
    }


def test_a_repeated_call_id_is_a_parse_error_naming_both_items_and_nothing_runs(
    provider: LoopbackProvider,
) -> None:
    tool = Tool[Count, int](name="count", description="Count.", handler=count)
    section = MarkdownSection(title="T", template="go", tools=[tool])
    prompt = Prompt(ns="tests", key="dupes", sections=[section])
    output = [_call("fc_1", "call_1", 1), _call("fc_2", "call_2", 2), _call("fc_3", "call_1", 3)]
    provider.queue(LoopbackReply.json({"id": "resp_1", "object": "response", "output": output}))
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)
    bus = InProcessEventBus()
    ran: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, ran.append)

    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=client).evaluate(prompt, bus=bus)

    assert raised.value.phase == "parse"
    assert "output[2].call_id: 'call_1' is also the call_id of output[0]" in raised.value.message
    assert ran == []
    assert len(provider.requests) == 1
