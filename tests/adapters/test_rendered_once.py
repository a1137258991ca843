"""A result is put into words once per call: the model reads what the ``ToolInvoked`` recorded.

A value (or a result subclass) whose rendering works the first time and
raises the second must not raise out of ``evaluate`` when the tool loop
answers the call. The responses served by a real HTTP server on loopback are
synthetic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai

from tooltape import (
    InProcessEventBus,
    MarkdownSection,
    Prompt,
    Tool,
    ToolContext,
    ToolInvoked,
    ToolResult,
)
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_json

FINAL = response_json("Done.", id="resp_final")
CALL = {
    "id": "resp_1",
    "object": "response",
    "output": [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "report",
            "arguments": "{}",
        }
    ],
}


@dataclass
class Once:
    """A value that renders once: the second rendering raises."""

    renders: list[int] = field(default_factory=lambda: [])

    def render(self) -> str:
        self.renders.append(1)
        if len(self.renders) > 1:
            raise RuntimeError("rendered twice")
        return "the report"


@dataclass(frozen=True)
class NoParams:
    pass


@dataclass(frozen=True)
class SpokenOnce(ToolResult[str]):
    """A result subclass whose model output works once."""

    spoken: list[int] = field(default_factory=lambda: [])

    def model_output(self) -> str:
        self.spoken.append(1)
        if len(self.spoken) > 1:
            raise RuntimeError("spoken twice")
        return "said once"


def _evaluate(provider: LoopbackProvider, result: ToolResult[Any]) -> tuple[list[ToolInvoked], Any]:
    def report(params: NoParams, *, context: ToolContext) -> ToolResult[Any]:
        return result

    tool = Tool[NoParams, Any](name="report", description="Report.", handler=report)
    prompt = Prompt(
        ns="tests", key="once", sections=[MarkdownSection(title="T", template="go", tools=[tool])]
    )
    provider.queue(LoopbackReply.json(CALL), LoopbackReply.json(FINAL))
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)
    bus = InProcessEventBus()
    seen: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, seen.append)
    response = OpenAIAdapter("gpt-5", client=client).evaluate(prompt, bus=bus)
    (answer,) = provider.requests[1].json()["input"][-1:]
    return seen, (response, answer)


def test_a_plain_result_is_rendered_once_and_the_model_reads_that(
    provider: LoopbackProvider,
) -> None:
    value = Once()
    seen, (response, answer) = _evaluate(provider, ToolResult.ok(value, message="Ready."))

    assert response.text == "Done."
    assert len(value.renders) == 1
    (event,) = seen
    assert event.result.success and event.rendered_output == "the report"
    assert answer == {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": "Ready.\n\nthe report",
    }


def test_a_subclass_output_that_fails_the_second_time_answers_with_the_failure(
    provider: LoopbackProvider,
) -> None:
    seen, (response, answer) = _evaluate(provider, SpokenOnce("fine", value="v"))

    assert response.text == "Done."
    assert len(seen) == 1 and seen[0].result.success
    assert answer["call_id"] == "call_1"
    assert "RuntimeError" in answer["output"] and "spoken twice" in answer["output"]
    assert "report" in answer["output"]
