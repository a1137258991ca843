"""One ``ToolInvoked`` per provider-executed call item, whatever identity the item carries.

The bodies are synthetic (a broken provider or a hand-edited cassette),
served by a real HTTP server on loopback.
"""

from __future__ import annotations

from typing import Any

import openai

from tooltape import InProcessEventBus, MarkdownSection, Prompt, ToolInvoked
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.tools.code_interpreter import code_interpreter_tool
from tooltape.tools.web_search import web_search_tool


def _invoked(provider: LoopbackProvider, output: list[dict[str, Any]]) -> list[ToolInvoked]:
    section = MarkdownSection(
        title="T", template="go", hosted_tools=(web_search_tool(), code_interpreter_tool())
    )
    prompt = Prompt(ns="tests", key="hosted_events", sections=[section])
    provider.queue(LoopbackReply.json({"id": "resp_1", "object": "response", "output": output}))
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)
    bus = InProcessEventBus()
    seen: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, seen.append)
    OpenAIAdapter("gpt-5", client=client, capabilities={}).evaluate(prompt, bus=bus)
    return seen


def _search(query: str, **identity: Any) -> dict[str, Any]:
    action = {"type": "search", "query": query}
    return {"type": "web_search_call", "status": "completed", "action": action, **identity}


def _code(code: str, **identity: Any) -> dict[str, Any]:
    return {"type": "code_interpreter_call", "status": "completed", "code": code, **identity}


def test_calls_without_an_id_each_get_their_event(provider: LoopbackProvider) -> None:
    seen = _invoked(
        provider, [_search("tides"), _search("moon"), _code("1 + 1"), _code("2 + 2", id="")]
    )

    assert [(event.kind, event.call_id) for event in seen] == [
        ("web_search", ""),
        ("web_search", ""),
        ("code_interpreter", ""),
        ("code_interpreter", ""),
    ]
    assert [event.params.query for event in seen[:2]] == ["tides", "moon"]
    assert [event.params.code for event in seen[2:]] == ["1 + 1", "2 + 2"]


def test_calls_of_two_kinds_sharing_an_id_each_get_their_event(
    provider: LoopbackProvider,
) -> None:
    seen = _invoked(provider, [_search("tides", id="call_1"), _code("1 + 1", id="call_1")])

    assert [(event.kind, event.call_id) for event in seen] == [
        ("web_search", "call_1"),
        ("code_interpreter", "call_1"),
    ]


def test_an_item_repeated_with_its_id_is_one_call(provider: LoopbackProvider) -> None:
    seen = _invoked(provider, [_search("tides", id="ws_1"), _search("tides", id="ws_1")])

    assert [(event.kind, event.call_id) for event in seen] == [("web_search", "ws_1")]
