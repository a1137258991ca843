"""``McpTool`` pieces that need no server: naming, descriptions, schemas, result mapping."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from mcp.types import (
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    TextContent,
    TextResourceContents,
)
from mcp.types import Tool as RemoteTool

from tooltape.mcp import McpCallResult, namespaced_tool_name
from tooltape.mcp.tool import call_result, mcp_tool, model_description
from tooltape.prompt.naming import TOOL_NAME_PATTERN


class RecordingCaller:
    def __init__(self, result: CallToolResult | Exception) -> None:
        self.result = result
        self.calls: list[tuple[str, Mapping[str, Any]]] = []

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> CallToolResult:
        self.calls.append((name, arguments))
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def remote(name: str, schema: dict[str, Any], description: str | None = "Does it.") -> RemoteTool:
    return RemoteTool(name=name, description=description, input_schema=schema)


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        ("time", "get_time", "time__get_time"),
        ("fs", "Read.File", "fs__read_file"),
        ("git", "log/show", "git__log_show"),
    ],
)
def test_names_are_namespaced_and_sanitised(server: str, tool: str, expected: str) -> None:
    assert namespaced_tool_name(server, tool) == expected


def test_long_names_are_shortened_with_a_stable_distinct_suffix() -> None:
    first = namespaced_tool_name("server", "x" * 80)
    second = namespaced_tool_name("server", "x" * 81)

    assert len(first) == 64
    assert TOOL_NAME_PATTERN.fullmatch(first)
    assert first != second
    assert first == namespaced_tool_name("server", "x" * 80)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Reads a file.\n\nLong details here.", "Reads a file."),
        ("Caf\u00e9   lookup\nacross lines", "Cafe lookup across lines"),
        (None, "fallback"),
        ("   ", "fallback"),
        ("\u2603", "fallback"),
    ],
)
def test_descriptions_fit_the_ascii_rule(text: str | None, expected: str) -> None:
    assert model_description(text, fallback="fallback") == expected


def test_overlong_descriptions_are_cut() -> None:
    cut = model_description("word " * 100, fallback="x")

    assert len(cut) == 200
    assert cut.endswith("...")


def test_a_schema_without_properties_is_normalised_to_an_object_with_properties() -> None:
    tool = mcp_tool("srv", remote("ping", {"type": "object"}), RecordingCaller(Exception()))

    assert tool.parameters_schema() == {"type": "object", "properties": {}}


def test_properties_that_are_not_identifiers_pass_through_unchanged() -> None:
    schema = {
        "type": "object",
        "properties": {"from": {"type": "string"}, "max-count": {"type": "integer"}},
        "required": ["from"],
    }
    caller = RecordingCaller(CallToolResult(content=[TextContent(type="text", text="ok")]))
    tool = mcp_tool("git", remote("log", schema), caller)

    params = tool.schema.validate({"from": "HEAD~3", "max-count": 2})
    result = tool.handler(params, context=None)  # type: ignore[arg-type, misc]

    assert tool.parameters_schema() == schema
    assert caller.calls == [("log", {"from": "HEAD~3", "max-count": 2})]
    assert result.value == McpCallResult("ok", None, ({"type": "text", "text": "ok"},))


def test_is_error_becomes_a_failed_result_carrying_the_text() -> None:
    result = call_result(
        "srv",
        "write",
        CallToolResult(content=[TextContent(type="text", text="disk full")], is_error=True),
    )

    assert not result.success
    assert result.message == "MCP tool 'write' on server 'srv' failed: disk full"


def test_non_text_blocks_are_summarised_and_kept() -> None:
    result = call_result(
        "srv",
        "snap",
        CallToolResult(
            content=[
                TextContent(type="text", text="here it is"),
                ImageContent(type="image", data="aGk=", mime_type="image/png"),
                EmbeddedResource(
                    type="resource",
                    resource=TextResourceContents(uri="file:///a.txt", text="file body"),
                ),
            ]
        ),
    )

    assert result.value is not None
    assert result.value.text == "here it is\n[image content image/png]\nfile body"
    assert result.value.content[1]["mimeType"] == "image/png"


def test_structured_content_renders_when_there_is_no_text() -> None:
    value = McpCallResult("", {"b": 1, "a": [1, 2]})

    assert value.render() == '{"b":1,"a":[1,2]}'


def test_a_transport_exception_becomes_a_failed_result() -> None:
    tool = mcp_tool("srv", remote("ping", {"type": "object"}), RecordingCaller(OSError("EPIPE")))

    result = tool.handler({}, context=None)  # type: ignore[arg-type, misc]

    assert not result.success
    assert "MCP server 'srv' could not run tool 'ping': OSError: EPIPE" in result.message


def test_a_transport_exception_reaches_the_model_without_the_environments_credentials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    token = "mcp-token-0123456789abcdefghij"
    monkeypatch.setenv("NOTES_TOKEN", token)
    failure = ConnectionError(f"refused https://notes.example/mcp?access_token={token}")
    tool = mcp_tool("notes", remote("ping", {"type": "object"}), RecordingCaller(failure))

    result = tool.handler({}, context=None)  # type: ignore[arg-type, misc]

    assert token not in result.message
    assert "ConnectionError: refused https://notes.example/mcp?access_token=" in result.message


def test_a_server_name_too_long_for_a_description_still_gets_a_valid_tool() -> None:
    tool = mcp_tool(
        "srv", remote("ping", {"type": "object"}, description=None), RecordingCaller(Exception())
    )

    assert tool.description == "Tool ping of MCP server srv."
    assert tool.source == "mcp"
    assert tool.server_name == "srv"
