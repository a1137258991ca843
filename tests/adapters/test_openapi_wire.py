"""Every tool spec the codecs can emit is a valid member of the official OpenAPI ``Tool`` union.

The components come from ``tests/data/openapi/responses-tools.json`` (see
``tests/data/openapi/extract.py`` for where and how they were taken); the
specs cover each kind and each config variant tooltape supports.
"""

from __future__ import annotations

from typing import Any

import pytest
from openapi_tools import assert_wire_valid, document, wire_errors

from tooltape.adapters.openai.codecs import default_hosted_tool_codecs
from tooltape.prompt import HostedTool
from tooltape.tools.code_interpreter import CodeInterpreterConfig, code_interpreter_tool
from tooltape.tools.file_search import (
    AttributeFilter,
    FileSearchConfig,
    FileSearchRanking,
    FilterGroup,
    file_search_tool,
)
from tooltape.tools.image_generation import ImageGenerationConfig, ImageMask, image_generation_tool
from tooltape.tools.mcp import HostedMcpConfig, McpApprovalPolicy, McpToolFilter, hosted_mcp_tool
from tooltape.tools.network import DomainSecret, NetworkAllowlist, NetworkDisabled
from tooltape.tools.shell import ContainerAuto, ContainerReference, ShellConfig, shell_tool
from tooltape.tools.skills import InlineSkill, SkillReference
from tooltape.tools.web_search import DomainFilter, GeoHint, WebSearchConfig, web_search_tool
from tooltape.tools.web_search_preview import WebSearchPreviewConfig, web_search_preview_tool

HOSTED = default_hosted_tool_codecs()
MCP_URL = "https://mcp.deepwiki.com/mcp"
ALLOWLIST = NetworkAllowlist(
    ("pypi.org", "files.pythonhosted.org"),
    (DomainSecret("pypi.org", "PIP_TOKEN", "placeholder"),),
)

HOSTED_VARIANTS: list[HostedTool[Any]] = [
    web_search_tool(),
    web_search_tool(
        WebSearchConfig(
            domain_filter=DomainFilter(allowed=("cdc.gov",), blocked=("example.com",)),
            geo_hint=GeoHint("GB", "London", "England", "Europe/London"),
            allow_live_access=False,
            context_size="low",
        )
    ),
    file_search_tool(FileSearchConfig(("vs_1",))),
    file_search_tool(
        FileSearchConfig(
            ("vs_1", "vs_2"),
            max_num_results=50,
            ranking=FileSearchRanking("auto", 0.5, embedding_weight=0.7, text_weight=0.3),
            filters=FilterGroup(
                "and",
                (
                    AttributeFilter("year", "gte", 2020),
                    FilterGroup("or", (AttributeFilter("lang", "in", ("en", "fr")),)),
                ),
            ),
            include_results=True,
        )
    ),
    code_interpreter_tool(),
    code_interpreter_tool(CodeInterpreterConfig(container_id="cntr_1")),
    code_interpreter_tool(
        CodeInterpreterConfig(file_ids=("file-1",), memory_limit="4g", network_policy=ALLOWLIST)
    ),
    code_interpreter_tool(CodeInterpreterConfig(network_policy=NetworkDisabled())),
    image_generation_tool(),
    image_generation_tool(
        ImageGenerationConfig(
            model="gpt-image-1",
            size="1536x1024",
            quality="high",
            output_format="webp",
            background="transparent",
            partial_images=2,
            action="edit",
            moderation="low",
            output_compression=80,
            input_fidelity="high",
            input_image_mask=ImageMask(image_url="data:image/png;base64,iVBORw0KGgo=", file_id="f"),
        )
    ),
    image_generation_tool(ImageGenerationConfig(input_image_mask=ImageMask(file_id="file-m"))),
    hosted_mcp_tool(HostedMcpConfig("deepwiki", server_url=MCP_URL)),
    hosted_mcp_tool(
        HostedMcpConfig(
            "deepwiki",
            server_url=MCP_URL,
            allowed_tools=McpToolFilter(tool_names=("ask_question",), read_only=True),
            require_approval=McpApprovalPolicy(always=("ask_question",), never=("list",)),
            headers={"X-Team": "a"},
            authorization="token-placeholder",
            server_description="DeepWiki MCP server",
            defer_loading=True,
        )
    ),
    hosted_mcp_tool(HostedMcpConfig("readers", server_url=MCP_URL, allowed_tools=("a", "b"))),
    hosted_mcp_tool(HostedMcpConfig("gmail", connector_id="connector_gmail")),
    hosted_mcp_tool(HostedMcpConfig("tunnelled", tunnel_id="tunnel_" + "0a" * 16)),
    shell_tool(),
    shell_tool(ShellConfig(ContainerReference("cntr_9"))),
    shell_tool(
        ShellConfig(
            ContainerAuto(
                file_ids=("file-1",),
                memory_limit="16g",
                network_policy=ALLOWLIST,
                skills=(
                    SkillReference("skill_abc", version="latest"),
                    InlineSkill("lint", "Lints the repository", b"PK\x03\x04zip"),
                ),
            )
        )
    ),
    shell_tool(ShellConfig(ContainerAuto(network_policy=NetworkDisabled()))),
    web_search_preview_tool(),
    web_search_preview_tool(
        WebSearchPreviewConfig(
            geo_hint=GeoHint("US", "Austin", "Texas", "America/Chicago"),
            context_size="medium",
            content_types=("text", "image"),
            alias="web_search_preview_2025_03_11",
        )
    ),
]


def test_the_extracted_components_say_where_they_came_from_and_are_closed() -> None:
    data = document()
    assert "openai/openai-openapi" in data["$comment"] and "extract.py" in data["$comment"]
    schemas = data["components"]["schemas"]
    assert "Tool" in schemas and len(schemas["Tool"]["oneOf"]) == 16
    assert "$recursiveRef" not in str(schemas)
    refs: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():  # pyright: ignore[reportUnknownVariableType]
                if key == "$ref":
                    refs.append(str(value))  # pyright: ignore[reportUnknownArgumentType]
                walk(value)
        elif isinstance(node, list):
            for value in node:  # pyright: ignore[reportUnknownVariableType]
                walk(value)

    walk(schemas)
    missing = {r for r in refs if r.rsplit("/", 1)[-1] not in schemas}
    assert not missing


def test_the_validator_refuses_what_the_specification_refuses() -> None:
    assert wire_errors("Tool", {"type": "image_generation", "quality": "xhigh"})
    assert wire_errors("Tool", {"type": "mcp", "server_label": "x", "connector_id": "nope"})
    assert wire_errors("Tool", {"type": "no_such_tool"})
    assert not wire_errors("Tool", {"type": "image_generation", "quality": "high"})


@pytest.mark.parametrize(
    "tool", HOSTED_VARIANTS, ids=lambda t: f"{t.kind}-{HOSTED_VARIANTS.index(t)}"
)
def test_every_hosted_spec_is_a_valid_openapi_tool(tool: HostedTool[Any]) -> None:
    assert_wire_valid("Tool", HOSTED[tool.kind].serialize(tool))
