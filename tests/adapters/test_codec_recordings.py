"""The codecs against real Responses API recordings (../shared/real-cassettes, see PROVENANCE.md).

Each recording is read as JSON dicts and again as openai SDK objects; the
codecs must give the same values from both.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from openai.types.responses import Response, ResponseOutputItem
from pydantic import TypeAdapter, ValidationError

from tooltape.adapters.openai.codecs import default_hosted_tool_codecs
from tooltape.tools.code_interpreter import CodeInterpreterResult, code_interpreter_tool
from tooltape.tools.file_search import FileSearchConfig, FileSearchResult, file_search_tool
from tooltape.tools.image_generation import ImageGenerationResult, image_generation_tool
from tooltape.tools.mcp import HostedMcpConfig, HostedMcpResult, hosted_mcp_tool
from tooltape.tools.web_search import WebSearchResult, web_search_tool

RECORDINGS = Path(__file__).resolve().parents[1] / "data" / "real-cassettes" / "openai-responses"
PNG = b"\x89PNG\r\n\x1a\n"
JPEG = b"\xff\xd8\xff"

CODECS = default_hosted_tool_codecs()
TOOLS: dict[str, Any] = {
    "web_search": web_search_tool(),
    "file_search": file_search_tool(FileSearchConfig(("vs_6931d72a43048191bbe7518b93c1d8ed",))),
    "code_interpreter": code_interpreter_tool(),
    "image_generation": image_generation_tool(),
    "mcp": hosted_mcp_tool(HostedMcpConfig("deepwiki", server_url="https://mcp.deepwiki.com/mcp")),
}
KINDS = {
    "model_web_search_tool.yaml": "web_search",
    "model_web_search_tool_stream.yaml": "web_search",
    "model_file_search_tool.yaml": "file_search",
    "code_execution_return_image.yaml": "code_interpreter",
    "image_generation_jpeg.yaml": "image_generation",
    "model_mcp_server_tool.yaml": "mcp",
}


def _completed_from_sse(stream: str) -> dict[str, Any]:
    for block in stream.split("\n\n"):
        lines = block.strip().splitlines()
        if lines and lines[0] == "event: response.completed":
            data = "".join(line[len("data: ") :] for line in lines if line.startswith("data: "))
            return json.loads(data)["response"]
    raise AssertionError("stream has no response.completed event")


def responses(name: str) -> list[dict[str, Any]]:
    """Every Responses API body in a recording (SSE bodies: the completed response)."""
    path = RECORDINGS / name
    with path.open() as stream:
        cassette = yaml.load(stream, Loader=yaml.CSafeLoader)
    bodies: list[dict[str, Any]] = []
    for interaction in cassette["interactions"]:
        if not interaction["request"]["uri"].endswith("/v1/responses"):
            continue
        response = interaction["response"]
        parsed = response.get("parsed_body")
        if isinstance(parsed, dict) and "output" in parsed:
            bodies.append(parsed)
        elif "response.completed" in response.get("body", {}).get("string", ""):
            bodies.append(_completed_from_sse(response["body"]["string"]))
    return bodies


def sdk_output(body: dict[str, Any]) -> list[Any]:
    """The output items as the SDK client hands them out (lenient construction)."""
    return list(Response.construct(**body).output)


def test_web_search_recording_reads_queries_and_text() -> None:
    first, second = responses("model_web_search_tool.yaml")
    calls = CODECS["web_search"].parse_calls(first["output"], None)
    assert [(c.item_type, c.status, c.success) for c in calls] == [
        ("web_search_call", "completed", True)
    ]
    assert calls[0].id == "ws_028829e50fbcad090068c9c8306aec8195ae9451d32175ed69"
    assert calls[0].params.action == "search"
    assert calls[0].params.query == "weather: San Francisco, CA"
    result = CODECS["web_search"].parse_output(first["output"], TOOLS["web_search"])
    assert isinstance(result, WebSearchResult)
    assert result.queries == ("weather: San Francisco, CA",)
    assert result.text.startswith("Today (Tuesday, September 16, 2025) in San Francisco")
    assert result.citations == ()
    second_result = CODECS["web_search"].parse_output(second["output"], TOOLS["web_search"])
    assert second_result is not None
    assert second_result.queries == ("weather: Mexico City, Mexico",)


def test_streamed_web_search_recording_reads_the_api_source() -> None:
    bodies = responses("model_web_search_tool_stream.yaml")
    result = CODECS["web_search"].parse_output(bodies[0]["output"], TOOLS["web_search"])
    assert result is not None
    assert result.queries == ("weather: San Francisco, CA",)
    (search,) = result.searches
    assert [(s.type, s.name, s.url) for s in search.sources] == [("api", "oai-weather", None)]
    assert result.source_urls == ()
    assert "San Francisco weather today" in result.text


def test_file_search_recording_reads_queries_and_file_citation() -> None:
    first, second = responses("model_file_search_tool.yaml")
    codec, tool = CODECS["file_search"], TOOLS["file_search"]
    assert codec.parse_output(first["output"], tool).queries == ("What is the capital of France?",)
    result = codec.parse_output(second["output"], tool)
    assert isinstance(result, FileSearchResult)
    assert result.queries == ("Eiffel Tower",)
    assert result.results == ()
    (citation,) = result.citations
    assert (citation.file_id, citation.filename, citation.index) == (
        "file-U6Ke78qu8nkANsrCrjoYBr",
        "tmp2zuepgia.txt",
        137,
    )


def test_code_interpreter_recording_reads_code_logs_image_and_files() -> None:
    first, _ = responses("code_execution_return_image.yaml")
    result = CODECS["code_interpreter"].parse_output(first["output"], TOOLS["code_interpreter"])
    assert isinstance(result, CodeInterpreterResult)
    assert result.code.startswith("import numpy as np\r\nimport matplotlib.pyplot as plt")
    assert "plt.savefig('/mnt/data/y_equals_x_squared.png', dpi=200)" in result.code
    assert result.container_id == "cntr_68cdc387531c81938b4bee78c36acb820dbd09bdba403548"
    assert result.logs == ("'/mnt/data/y_equals_x_squared.png'",)
    (image,) = result.images
    assert image.mime_type == "image/png"
    assert image.data.startswith(PNG)
    assert len(image.data) > 10_000
    assert [(f.file_id, f.filename, f.span) for f in result.files] == [
        (
            "cfile_68cdc395fb4c8191b644bc65a5529a72",
            "cfile_68cdc395fb4c8191b644bc65a5529a72.png",
            (0, 0),
        ),
        ("cfile_68cdc39bba888191b47ed8bda6111395", "y_equals_x_squared.png", (94, 134)),
    ]
    assert result.text[94:134] == "sandbox:/mnt/data/y_equals_x_squared.png"


def test_image_generation_recording_decodes_the_jpeg() -> None:
    (body,) = responses("image_generation_jpeg.yaml")
    result = CODECS["image_generation"].parse_output(body["output"], TOOLS["image_generation"])
    assert isinstance(result, ImageGenerationResult)
    assert result.image.startswith(JPEG)
    assert (result.format, result.size, result.quality, result.background) == (
        "jpeg",
        "1536x1024",
        "high",
        "opaque",
    )
    assert result.revised_prompt is not None
    assert result.revised_prompt.startswith("Photorealistic close-up of a pink leucistic axolotl")
    (call,) = CODECS["image_generation"].parse_calls(body["output"], None)
    assert call.success and call.output == result


def test_mcp_recording_reads_listed_tool_and_call_output() -> None:
    first, second = responses("model_mcp_server_tool.yaml")
    result = CODECS["mcp"].parse_output(first["output"], TOOLS["mcp"])
    assert isinstance(result, HostedMcpResult)
    (listed,) = result.listed_tools
    assert listed.name == "ask_question"
    assert listed.description == "Ask any question about a GitHub repository"
    assert listed.input_schema["required"] == ["repoName", "question"]
    assert listed.input_schema["properties"] == {
        "question": {"description": "The question to ask about the repository", "type": "string"},
        "repoName": {
            "description": 'GitHub repository: owner/repo (e.g. "facebook/react")',
            "type": "string",
        },
    }
    (call,) = result.calls
    assert call.name == "ask_question"
    assert call.arguments["repoName"] == "pydantic/pydantic-ai"
    assert call.error is None
    assert call.output is not None
    assert call.output.startswith("Pydantic AI is a Python agent framework")
    calls = CODECS["mcp"].parse_calls(first["output"], TOOLS["mcp"])
    assert [(c.item_type, c.success) for c in calls] == [
        ("mcp_list_tools", True),
        ("mcp_call", True),
    ]
    assert CODECS["mcp"].parse_output(second["output"], TOOLS["mcp"]) is None


def test_kinds_a_recording_does_not_use_are_not_invoked() -> None:
    (body,) = responses("image_generation_jpeg.yaml")
    for kind in ("web_search", "file_search", "code_interpreter", "mcp"):
        assert CODECS[kind].parse_output(body["output"], TOOLS[kind]) is None
        assert CODECS[kind].parse_calls(body["output"], None) == ()


@pytest.mark.parametrize("name", sorted(KINDS))
def test_sdk_objects_parse_like_dicts(name: str) -> None:
    kind = KINDS[name]
    codec, tool = CODECS[kind], TOOLS[kind]
    for body in responses(name):
        objects = sdk_output(body)
        assert not isinstance(objects[0], dict)
        assert codec.parse_calls(objects, tool) == codec.parse_calls(body["output"], tool)
        assert codec.parse_output(objects, tool) == codec.parse_output(body["output"], tool)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_sdk_models_validate_the_recorded_items(name: str) -> None:
    # Strict SDK validation of each item: only the 'api' web search source is
    # newer than the SDK's ActionSearchSource (which knows type 'url' only).
    adapter: TypeAdapter[Any] = TypeAdapter(ResponseOutputItem)
    for body in responses(name):
        for item in body["output"]:
            has_api_source = any(
                s.get("type") == "api" for s in (item.get("action") or {}).get("sources") or []
            )
            if has_api_source:
                with pytest.raises(ValidationError):
                    adapter.validate_python(item)
            else:
                adapter.validate_python(item)
        # The whole body validates once the usage block (newer fields) is set aside.
        if name != "model_web_search_tool_stream.yaml":
            Response.model_validate({**body, "usage": None})
