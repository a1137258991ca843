"""Hostile response bodies served by a real HTTP server on loopback.

Every body here is synthetic: JSON a broken or hostile provider could send
that the standard parsers refuse with something other than a JSON error
(nesting past Python's recursion limit, an integer with more digits than
Python converts). ``OpenAIAdapter.evaluate`` may raise nothing but
``PromptEvaluationError`` for them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import openai
import pytest

from tooltape import (
    MarkdownSection,
    Prompt,
    PromptEvaluationError,
    PromptResponse,
    Tool,
    ToolContext,
    ToolResult,
)
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_json
from tooltape.tools.image_generation import image_generation_tool
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool

FINAL = response_json("Done.", id="resp_final")


@dataclass(frozen=True)
class Count:
    x: int


def count(params: Count, *, context: ToolContext) -> ToolResult[int]:
    return ToolResult.ok(params.x)


def counting_prompt() -> Prompt[Any]:
    tool = Tool[Count, int](name="count", description="Count.", handler=count)
    docs = hosted_mcp_tool(
        HostedMcpConfig(
            server_label="docs", server_url="https://mcp.example/mcp", require_approval="never"
        )
    )
    section = MarkdownSection(title="T", template="go", tools=[tool], hosted_tools=(docs,))
    return Prompt(ns="tests", key="hostile", sections=[section])


def evaluate(provider: LoopbackProvider, *replies: LoopbackReply) -> PromptResponse[Any]:
    provider.queue(*replies, LoopbackReply.json(FINAL))
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)
    return OpenAIAdapter("gpt-5", client=client).evaluate(counting_prompt())


def raw(body: bytes) -> LoopbackReply:
    return LoopbackReply(200, body, "application/json")


# Past pydantic-core's limit (it refuses the body, the standard parser gets a try), and
# either past the standard parser's too or deep enough that walking it would be.
DEEP_BODIES = {
    "list-past-recursion-limit": b'{"id": "r1", "output": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "object-past-recursion-limit": (
        b'{"id": "r1", "output": [], "usage": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"}"
    ),
    # Deep enough for the standard parser, too deep for the readers after it.
    "mcp-error-600-deep": (
        b'{"id": "r1", "output": [{"type": "mcp_call", "id": "mcp_1", "server_label": "docs", '
        b'"name": "search", "arguments": "{}", "status": "failed", "error": '
        + b'{"a": ' * 600
        + b"1"
        + b"}" * 600
        + b"}]}"
    ),
}


@pytest.mark.parametrize("body", DEEP_BODIES.values(), ids=DEEP_BODIES.keys())
def test_a_body_nested_past_the_parsers_depth_is_a_parse_error(
    provider: LoopbackProvider, body: bytes
) -> None:
    with pytest.raises(PromptEvaluationError) as raised:
        evaluate(provider, raw(body))
    assert raised.value.phase == "parse"
    assert "nested deeper than 200 levels" in str(raised.value)


@pytest.mark.parametrize("where", ["id", "usage", "status"])
def test_a_body_with_an_integer_too_long_to_convert_is_a_parse_error(
    provider: LoopbackProvider, where: str
) -> None:
    body = b'{"output": [], "%s": %s}' % (where.encode(), b"9" * 5000)
    with pytest.raises(PromptEvaluationError) as raised:
        evaluate(provider, raw(body))
    assert raised.value.phase == "parse"
    assert "more digits than" in str(raised.value)
    assert isinstance(raised.value.provider_payload, str)
    assert raised.value.provider_payload.startswith('{"output": [], ')


def test_a_body_a_little_deep_is_still_read(provider: LoopbackProvider) -> None:
    body = json.dumps({**FINAL, "usage": {"detail": [[[[[[[[[[1]]]]]]]]]]}}).encode()
    assert evaluate(provider, raw(body)).text == "Done."


def function_call(arguments: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "count",
        "arguments": arguments,
        "status": "completed",
    }


ARGUMENTS = {
    "nested-past-recursion-limit": '{"x": ' + "[" * 5000 + "]" * 5000 + "}",
    "integer-too-long": '{"x": ' + "9" * 5000 + "}",
}


@pytest.mark.parametrize("arguments", ARGUMENTS.values(), ids=ARGUMENTS.keys())
def test_function_arguments_no_parser_can_read_fail_the_call_not_the_evaluation(
    provider: LoopbackProvider, arguments: str
) -> None:
    reply = {"id": "r1", "status": "completed", "output": [function_call(arguments)]}
    response = evaluate(provider, LoopbackReply.json(reply))

    assert response.text == "Done."
    (invoked,) = response.tool_invocations
    assert not invoked.result.success
    assert "Arguments are not valid JSON" in invoked.result.message
    answer = provider.requests[1].json()["input"][-1]
    assert answer["call_id"] == "call_1"
    assert answer["output"] == invoked.result.message


def test_hosted_call_arguments_no_parser_can_read_are_recorded_as_empty(
    provider: LoopbackProvider,
) -> None:
    arguments = "[" * 5000 + "]" * 5000
    item = {
        "type": "mcp_call",
        "id": "mcp_1",
        "server_label": "docs",
        "name": "search",
        "arguments": arguments,
        "output": "found",
        "status": "completed",
    }
    reply = {**FINAL, "output": [item, *FINAL["output"]]}
    response = evaluate(provider, LoopbackReply.json(reply))

    (invoked,) = response.tool_invocations
    assert invoked.result.success
    assert invoked.params.name == "search"
    assert invoked.params.arguments == {}


def test_an_item_a_codec_cannot_read_is_reported_under_the_prompts_name(
    provider: LoopbackProvider,
) -> None:
    image = {
        "type": "image_generation_call",
        "id": "ig_1",
        "status": "completed",
        "result": "!!not base64",
    }
    provider.queue(LoopbackReply.json({"id": "resp_1", "status": "completed", "output": [image]}))
    section = MarkdownSection(title="T", template="go", hosted_tools=(image_generation_tool(),))
    prompt: Prompt[Any] = Prompt(ns="tests", key="drawing", sections=[section])
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)

    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=client).evaluate(prompt)

    assert raised.value.phase == "parse"
    assert raised.value.prompt_name == "drawing"
    assert str(raised.value).startswith("[drawing:parse] output[0].result (image_generation_call")


STREAM = (
    'event: response.created\ndata: {"type": "response.created", "sequence_number": 0}\n\n'
    'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", '
    '"sequence_number": 1, "delta": "Do"}\n\n'
)


@pytest.mark.parametrize("body", [STREAM, ": keep-alive\n\n" + STREAM, "\n" + STREAM])
def test_an_event_stream_where_a_response_was_asked_for_says_so_and_what_to_check(
    provider: LoopbackProvider, body: str
) -> None:
    with pytest.raises(PromptEvaluationError) as raised:
        evaluate(provider, LoopbackReply.sse(body))
    assert raised.value.phase == "parse"
    message = str(raised.value)
    assert "an event stream (server-sent events)" in message
    assert "'stream'" in message and "http_client" in message
    assert isinstance(raised.value.provider_payload, str)
    assert raised.value.provider_payload.startswith(body[:20])
