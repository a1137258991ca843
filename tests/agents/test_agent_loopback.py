"""Agent tools on the real OpenAI adapter and SDK, against a loopback provider.

Every response body here is synthetic: a minimal Responses API answer built
by ``answer`` below.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import openai

from tooltape import InProcessEventBus, MarkdownSection, Prompt, Tool, ToolInvoked
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.agents import prompt_tool
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest


def answer(*output: dict[str, Any]) -> LoopbackReply:
    return LoopbackReply.json(
        {"id": "resp_1", "object": "response", "status": "completed", "output": list(output)}
    )


def function_call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }


def text(words: str) -> dict[str, Any]:
    return {
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": words, "annotations": []}],
    }


def outputs(request: ReceivedRequest) -> list[str]:
    items = request.json()["input"]
    return [item["output"] for item in items if item.get("type") == "function_call_output"]


def test_an_abandoned_child_runs_no_tool_after_its_timeout() -> None:
    started: list[float] = []

    def slow_lookup(topic: str) -> str:
        """Look a topic up (slowly)."""
        started.append(time.monotonic())
        time.sleep(0.3)
        return topic

    child = Prompt(
        ns="tests",
        key="child",
        sections=[
            MarkdownSection(
                title="Request", template="$message", tools=[Tool.from_function(slow_lookup)]
            )
        ],
    )
    helper = prompt_tool(child, name="helper", description="Ask the helper.", child_timeout_sec=0.5)
    helper_called: list[float] = []

    def note_helper_call(ctx: Any, args: dict[str, Any], call_next: Any) -> Any:
        if ctx.tool_name == "helper":
            helper_called.append(time.monotonic())
        return call_next(args)

    parent = Prompt(
        ns="tests",
        key="parent",
        sections=[MarkdownSection(title="Task", template="Coordinate.", tools=[helper])],
        tool_hooks=[note_helper_call],
    )

    def respond(request: ReceivedRequest) -> LoopbackReply:
        first = request.json()["input"][0]["content"]
        answered = outputs(request)
        if "Coordinate." in first:  # the parent: ask the helper once, then finish
            if answered:
                return answer(text("done: " + answered[-1]))
            return answer(function_call("helper", {"message": "dig"}, "p1"))
        # the child: a model that keeps calling its tool
        return answer(function_call("slow_lookup", {"topic": "t"}, f"c{len(answered)}"))

    bus = InProcessEventBus()
    events: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, events.append)
    with LoopbackProvider(responder=respond) as provider:
        client = openai.OpenAI(base_url=provider.base_url, api_key="sk-test", max_retries=0)
        adapter = OpenAIAdapter("gpt-5", client=client, max_rounds=30)
        begun = time.monotonic()
        response = adapter.evaluate(parent, bus=bus)
        abandoned = time.monotonic()
        assert "did not finish within 0.5 seconds" in response.text
        assert abandoned - begun < 5, "abandoned near its timeout, not after the child's rounds"
        child_threads = [t for t in threading.enumerate() if t.name == "tooltape-agent-helper"]
        for thread in child_threads:
            thread.join(timeout=10)
        assert not any(thread.is_alive() for thread in child_threads)

    # the call running when the child was abandoned finishes; none starts after it
    (timeout_began,) = helper_called
    assert started and all(at < timeout_began + 0.5 for at in started)
    refused = [e for e in events if e.name == "slow_lookup" and not e.result.success]
    assert refused and all("deadline" in e.result.message for e in refused)
