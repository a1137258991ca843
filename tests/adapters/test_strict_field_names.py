"""Fields whose names are also JSON Schema keywords (``title``, ``default``) stay on the wire.

Strict mode drops the ``title`` and ``default`` keywords of a schema; a
property *named* ``title`` is a field, not a keyword. The responses served
here by a real HTTP server on loopback are synthetic.
"""

from __future__ import annotations

from dataclasses import dataclass

import openai

from tooltape import MarkdownSection, Prompt, Tool, ToolContext, ToolResult
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_json


@dataclass(frozen=True)
class NewIssue:
    title: str
    default: int = 3
    body: str = ""


@dataclass(frozen=True)
class Article:
    title: str
    summary: str


def file_issue(params: NewIssue, *, context: ToolContext) -> ToolResult[str]:
    return ToolResult.ok(f"{params.title} (priority {params.default})")


def _client(provider: LoopbackProvider) -> openai.OpenAI:
    return openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)


def test_a_strict_tool_sends_and_takes_fields_named_title_and_default(
    provider: LoopbackProvider,
) -> None:
    tool = Tool[NewIssue, str](name="file_issue", description="File an issue.", handler=file_issue)
    section = MarkdownSection(title="T", template="go", tools=[tool])
    prompt = Prompt(ns="tests", key="issues", sections=[section])
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "file_issue",
        "arguments": '{"title": "Crash on start", "default": null, "body": "boom"}',
    }
    provider.queue(
        LoopbackReply.json({"id": "resp_1", "object": "response", "output": [call]}),
        LoopbackReply.json(response_json("Filed.")),
    )

    response = OpenAIAdapter("gpt-5", client=_client(provider)).evaluate(prompt)

    parameters = provider.requests[0].json()["tools"][0]["parameters"]
    assert set(parameters["properties"]) == {"title", "default", "body"}
    assert sorted(parameters["required"]) == ["body", "default", "title"]
    assert parameters["properties"]["default"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    (invoked,) = response.tool_invocations
    assert invoked.result.success, invoked.result.message
    assert invoked.result.value == "Crash on start (priority 3)"


def test_a_structured_output_field_named_title_is_in_the_schema(
    provider: LoopbackProvider,
) -> None:
    section = MarkdownSection(title="T", template="summarise")
    prompt = Prompt[Article](ns="tests", key="article", sections=[section])
    provider.queue(LoopbackReply.json(response_json('{"title": "Tides", "summary": "Moon."}')))

    response = OpenAIAdapter("gpt-5", client=_client(provider)).evaluate(prompt)

    schema = provider.requests[0].json()["text"]["format"]["schema"]
    assert set(schema["properties"]) == {"title", "summary"}
    assert sorted(schema["required"]) == ["summary", "title"]
    assert response.output == Article(title="Tides", summary="Moon.")
