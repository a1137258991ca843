"""Every request body the adapter can emit is a valid ``CreateResponse`` of the official
OpenAPI document (the components live in ``tests/data/openapi``; see ``tests/openapi_wire.py``).

First requests: every option and every ``tool_choice`` form over a prompt with
every kind of tool. Follow-up rounds: the adapter's own answers
(``function_call_output``, ``apply_patch_call_output``, ``mcp_approval_response``)
after resending, chaining and storage-free rounds, with output items taken
from the real recordings in ``cassettes/imported`` (see their provenance)
and labelled synthetic fixtures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openapi_wire import assert_valid_request_body, problems

from tooltape import MarkdownSection, Prompt, Tool, ToolContext, ToolResult
from tooltape.adapters.openai import AllowedTools, McpToolChoice, OpenAIAdapter
from tooltape.testing.cassette import JsonBody, load_cassette
from tooltape.testing.kinds import shareable_tools
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.apply_patch import apply_patch_tool
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Answer:
    city: str


@dataclass(frozen=True)
class Loose:
    data: dict[str, int]


def add_one(x: int) -> int:
    """Add one to x."""
    return x + 1


def loose(params: Loose, *, context: ToolContext) -> ToolResult[int]:
    return ToolResult.ok(len(params.data))


def everything(root: Path, *, approver: Any = None) -> Prompt[Answer]:
    hosted: list[Any] = [t for k, t in shareable_tools("gpt-5.1").items() if k != "mcp"]
    hosted.append(
        hosted_mcp_tool(
            HostedMcpConfig("deepwiki", server_url="https://mcp.deepwiki.com/mcp"),
            name="wiki",
            approver=approver,
        )
    )
    tools = [
        Tool.from_function(add_one),
        Tool(name="loose", description="Takes a map.", handler=loose, strict=False),
        apply_patch_tool(root),
    ]
    section = MarkdownSection(title="T", template="go", tools=tools, hosted_tools=hosted)
    return Prompt[Answer](ns="t", key="everything", sections=[section])


OPTIONS: list[dict[str, Any]] = [
    {},
    {"store": True},
    {"store": False},
    {"chain": True},
    {"conversation": "conv_synthetic"},
    {"previous_response_id": "resp_synthetic"},
    {"background": True},
    {"parallel_tool_calls": False, "max_tool_calls": 4},
    {"reasoning_effort": "minimal", "reasoning_summary": "detailed"},
]
CHOICES: list[Any] = [
    None,
    "auto",
    "required",
    "none",
    "add_one",
    "loose",
    "apply_patch",
    *shareable_tools("gpt-5.1"),
    AllowedTools(("add_one", "apply_patch", "web_search", "wiki", "shell")),
    AllowedTools(("loose", "file_search"), mode="required"),
    McpToolChoice("wiki", "ask_question"),
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_every_first_request_is_a_valid_create_response(
    options: dict[str, Any], tmp_path: Path
) -> None:
    adapter = OpenAIAdapter("gpt-5.1")
    prompt = everything(tmp_path)
    for choice in CHOICES:
        if choice == "mcp":
            choice = "wiki"
        body = adapter.build_request(prompt, tool_choice=choice, **options)
        found = problems("CreateResponse", body)
        assert not found, f"tool_choice={choice!r}: {found[:3]}"


def recorded_items(name: str, index: int) -> list[dict[str, Any]]:
    body = load_cassette(REPO / "cassettes" / "imported" / name).interactions[index].response.body
    assert isinstance(body, JsonBody)
    return list(body.data["output"])  # type: ignore[index, call-overload]


def fixture_items(name: str) -> list[dict[str, Any]]:
    return json.loads((REPO / "fixtures" / "responses" / name).read_text())["output"]


def first_round_output() -> list[dict[str, Any]]:
    """Output items of many kinds, and calls the adapter must answer."""
    return [
        *recorded_items("code_execution_return_image.json", 0)[:2],
        *recorded_items("image_generation_jpeg.json", 0)[:2],
        *recorded_items("model_file_search_tool.json", 3)[:1],
        *recorded_items("model_mcp_server_tool.json", 0)[:3],
        *recorded_items("model_web_search_tool.json", 0)[:2],
        *recorded_items("compact_stateful_mode.json", 2),
        *fixture_items("apply_patch_calls.json")[:1],
        {
            "type": "function_call",
            "id": "fc_synthetic",
            "call_id": "call_synthetic",
            "name": "add_one",
            "arguments": '{"x": 1}',
            "status": "completed",
        },
        {
            "type": "mcp_approval_request",
            "id": "mcpr_synthetic",
            "server_label": "deepwiki",
            "name": "ask_question",
            "arguments": '{"question": "What is tooltape?"}',
        },
    ]


@pytest.mark.parametrize(
    "options",
    [{}, {"chain": True}, {"store": False}, {"conversation": "conv_synthetic", "background": True}],
    ids=lambda o: ",".join(o) or "resend",
)
def test_follow_up_rounds_are_valid_create_responses(
    options: dict[str, Any], tmp_path: Path
) -> None:
    faults = ProviderFaults()
    first = faults.response_json(output=first_round_output(), id="resp_first")
    final = faults.response_json('{"city": "Paris"}', id="resp_final")
    faults.script(faults.ok(first), faults.ok(final))
    adapter = OpenAIAdapter("gpt-5.1", client=faults.client(), poll_interval_s=0)
    response = adapter.evaluate(everything(tmp_path, approver=lambda request: True), **options)

    assert response.output == Answer("Paris")
    second = faults.calls[1].json()
    answers = {
        item["type"]
        for item in second["input"]
        if item.get("type", "").endswith(("_output", "_response"))
    }
    assert answers == {
        "function_call_output",
        "apply_patch_call_output",
        "mcp_approval_response",
    }
    for call in faults.calls:
        assert_valid_request_body(call.json())
