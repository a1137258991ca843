"""Text UTF-8 cannot carry never ends an evaluation when it has to be sent back.

A lone UTF-16 surrogate is a valid Python string and valid JSON, but the SDK
encodes request bodies as strict UTF-8. It reaches a request two ways: a tool
returns it (a file name the OS gave with ``surrogateescape``), or the provider
sent it (half an emoji) in an item the next round resends. Either is sent as
the ``\\uXXXX`` escape it is written as, and the loop goes on. The bodies
here are synthetic.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from tooltape import MarkdownSection, Prompt, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_json

# The bytes of a file name that is not UTF-8, as os.listdir would give it.
FILE_NAME = b"report\xff.txt".decode("utf-8", "surrogateescape")


def name_of(path: str) -> str:
    """The name of the file at path."""
    return FILE_NAME


def listing_prompt() -> Prompt[Any]:
    tools = [Tool.from_function(name_of)]
    return Prompt(
        ns="tests", key="names", sections=[MarkdownSection(title="T", template="go", tools=tools)]
    )


def function_call(call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": "name_of",
        "arguments": json.dumps({"path": "."}),
        "status": "completed",
    }


def evaluate(provider: LoopbackProvider, first: LoopbackReply) -> str:
    provider.queue(first, LoopbackReply.json(response_json("Done.", id="resp_2")))
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)
    return OpenAIAdapter("gpt-4o", client=client).evaluate(listing_prompt()).text


def test_a_tool_output_holding_a_lone_surrogate_is_sent_escaped(
    provider: LoopbackProvider,
) -> None:
    first = LoopbackReply.json(
        {"id": "resp_1", "status": "completed", "output": [function_call("c1")]}
    )

    assert evaluate(provider, first) == "Done."

    answer = provider.requests[1].json()["input"][-1]
    assert answer == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": "report\\udcff.txt",
    }


def test_a_resent_item_holding_a_lone_surrogate_is_sent_escaped(
    provider: LoopbackProvider,
) -> None:
    said = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "half HALF an emoji", "annotations": []}],
    }
    output = json.dumps([said, function_call("c1")]).replace("HALF", "\\ud83d")
    body = '{"id": "resp_1", "status": "completed", "output": ' + output + "}"

    assert evaluate(provider, LoopbackReply(body=body.encode())) == "Done."

    resent = provider.requests[1].json()["input"][1]
    assert resent["content"][0]["text"] == "half \\ud83d an emoji"
