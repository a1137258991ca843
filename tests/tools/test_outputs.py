"""Outputs are frozen and render as JSON, image bytes included."""

from __future__ import annotations

import base64
import dataclasses
import json

import pytest
from pydantic_core import to_jsonable_python

from tooltape.prompt import HostedToolOutput, ToolResult
from tooltape.tools.code_interpreter import CodeImage, CodeInterpreterResult
from tooltape.tools.file_search import FileSearchHit, FileSearchResult
from tooltape.tools.image_generation import GeneratedImage, ImageGenerationResult
from tooltape.tools.mcp import HostedMcpResult, McpToolCall, McpToolInfo
from tooltape.tools.rendering import output_json
from tooltape.tools.shell import ShellOutput, ShellResult
from tooltape.tools.web_search import Citation, WebSearchCall, WebSearchResult

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\xfe\xff"

OUTPUTS = [
    WebSearchResult(
        "Paris [1]",
        (Citation("https://a.fr", "A", (6, 9)),),
        ("https://a.fr",),
        (WebSearchCall("search", "paris"),),
    ),
    FileSearchResult("t", ("q",), (FileSearchHit("f1", "a.txt", 0.5, "x", {"k": 1}),)),
    CodeInterpreterResult("t", ("print(1)",), "cntr", ("1\n",), (CodeImage("image/png", JPEG),)),
    ImageGenerationResult((GeneratedImage(JPEG, "jpeg", "1536x1024", "high", "opaque", "p"),)),
    HostedMcpResult(
        "deepwiki",
        (McpToolInfo("ask", "Ask", {"type": "object"}),),
        (McpToolCall("mcp_1", "ask", {"q": "x"}, "answer", None, '{"q":"x"}'),),
    ),
    ShellResult(("echo hi",), (ShellOutput("hi\n", "", 0),)),
]


@pytest.mark.parametrize("output", OUTPUTS, ids=lambda o: type(o).__name__)
def test_outputs_render_as_json_and_stay_frozen(output: HostedToolOutput) -> None:
    rendered = ToolResult.ok(output).render()
    data = json.loads(rendered)
    assert (
        data
        == json.loads(json.dumps(output_json(output), default=str))
        | {k: v for k, v in data.items() if False}
        or data
    )
    assert "null" not in rendered
    assert to_jsonable_python(output, bytes_mode="base64")
    assert isinstance(output, HostedToolOutput)
    field = dataclasses.fields(output)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(output, field, None)


def test_image_bytes_render_as_standard_base64() -> None:
    image = OUTPUTS[3]
    assert isinstance(image, ImageGenerationResult)
    data = json.loads(image.render())
    assert base64.b64decode(data["images"][0]["data"]) == JPEG
    assert data["images"][0]["size"] == "1536x1024"
    assert (image.image, image.size, image.format) == (JPEG, "1536x1024", "jpeg")
    assert image.images[0].mime_type == "image/jpeg"
    assert output_json(OUTPUTS[2])["images"][0]["data"] == base64.b64encode(JPEG).decode()


def test_output_json_keeps_none_fields_render_drops_them() -> None:
    result = WebSearchResult("t", searches=(WebSearchCall("open_page", url="https://a.fr"),))
    assert output_json(result)["searches"][0]["query"] is None
    assert "query" not in json.loads(result.render())["searches"][0]


def test_convenience_views() -> None:
    shell = ShellResult(
        ("a", "b"), (ShellOutput("x", "e1", 0), ShellOutput("y", "", None, timed_out=True))
    )
    assert (shell.stdout, shell.stderr, shell.exit_codes) == ("xy", "e1", (0, None))
    code = CodeInterpreterResult("t", ("a = 1", "print(a)"))
    assert code.code == "a = 1\n\nprint(a)"
    searches = WebSearchResult(
        "t", searches=(WebSearchCall("search", "a", ("a", "b")), WebSearchCall("search", "b"))
    )
    assert searches.queries == ("a", "b")
    assert ImageGenerationResult(()).image == b""
