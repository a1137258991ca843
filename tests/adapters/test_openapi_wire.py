"""Every tool spec the codecs can emit is a valid member of the official OpenAPI ``Tool`` union.

The components come from ``tests/data/openapi/responses-tools.json`` (see
``tests/data/openapi/extract.py`` for where and how they were taken); the
specs cover each kind, hosted and client-executed, and each config variant
tooltape supports, alone and in one request with options and namespaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openapi_tools import assert_wire_valid, document, wire_errors

from tooltape import Prompt, Section, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import default_client_tool_codecs, default_hosted_tool_codecs
from tooltape.prompt import HostedTool, PromptValidationError
from tooltape.testing.computer import RecordingComputer
from tooltape.tools.apply_patch import apply_patch_tool
from tooltape.tools.code_interpreter import CodeInterpreterConfig, code_interpreter_tool
from tooltape.tools.computer import (
    ComputerUsePreviewConfig,
    computer_tool,
    computer_use_preview_tool,
)
from tooltape.tools.custom import CustomToolConfig, Grammar, custom_tool
from tooltape.tools.file_search import (
    AttributeFilter,
    FileSearchConfig,
    FileSearchRanking,
    FilterGroup,
    file_search_tool,
)
from tooltape.tools.function_options import FunctionOptions, Namespace, with_options
from tooltape.tools.image_generation import ImageGenerationConfig, ImageMask, image_generation_tool
from tooltape.tools.local_shell import local_shell_exec_tool
from tooltape.tools.mcp import HostedMcpConfig, McpApprovalPolicy, McpToolFilter, hosted_mcp_tool
from tooltape.tools.network import DomainSecret, NetworkAllowlist, NetworkDisabled
from tooltape.tools.programmatic_tool_calling import (
    ProgrammaticToolCallingConfig,
    programmatic_tool_calling_tool,
)
from tooltape.tools.shell import (
    ContainerAuto,
    ContainerReference,
    ShellConfig,
    local_shell_tool,
    shell_tool,
)
from tooltape.tools.skills import InlineSkill, LocalSkill, SkillReference
from tooltape.tools.tool_search import ToolSearchConfig, client_tool_search_tool, tool_search_tool
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
    web_search_tool(WebSearchConfig(context_size="high", alias="web_search_2025_08_26")),
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
    code_interpreter_tool(CodeInterpreterConfig(allowed_callers=("direct", "programmatic"))),
    code_interpreter_tool(CodeInterpreterConfig("cntr_1", allowed_callers=("programmatic",))),
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
    hosted_mcp_tool(HostedMcpConfig("callers", MCP_URL, allowed_callers=("programmatic",))),
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
    shell_tool(ShellConfig(ContainerReference("cntr_9"), allowed_callers=("programmatic",))),
    web_search_preview_tool(),
    web_search_preview_tool(
        WebSearchPreviewConfig(
            geo_hint=GeoHint("US", "Austin", "Texas", "America/Chicago"),
            context_size="medium",
            content_types=("text", "image"),
            alias="web_search_preview_2025_03_11",
        )
    ),
    tool_search_tool(ToolSearchConfig()),
    programmatic_tool_calling_tool(ProgrammaticToolCallingConfig()),
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


def _client_variants(root: Path) -> list[Tool[Any, Any]]:
    orders = Namespace("orders", "Find and inspect customer orders.")
    skill = LocalSkill("lint", "Lints the repository", "./skills/lint")

    def sql(text: str) -> str:
        """Run a SQL query."""
        return text

    @dataclass(frozen=True)
    class Topic:
        topic: str

    return [
        apply_patch_tool(root),
        local_shell_tool(),
        local_shell_tool(skills=[skill]),
        local_shell_exec_tool(),
        computer_tool(RecordingComputer()),
        computer_use_preview_tool(RecordingComputer(), ComputerUsePreviewConfig("mac", 1440, 900)),
        custom_tool(sql),
        custom_tool(sql, CustomToolConfig(Grammar("regex", r"^SELECT .+$")), name="regex_sql"),
        custom_tool(
            sql,
            CustomToolConfig(
                Grammar("lark", 'start: "SELECT " NAME\nNAME: /[a-z]+/'),
                FunctionOptions(defer_loading=True, allowed_callers=("programmatic",)),
            ),
            name="lark_sql",
        ),
        client_tool_search_tool(),
        client_tool_search_tool(lambda p, names: names, params_type=Topic, description="By topic."),
        with_options(Tool.from_function(_find), namespace=orders),
        with_options(Tool.from_function(_find), namespace=orders, defer_loading=True),
        apply_patch_tool(root, allowed_callers=("direct", "programmatic")),
        local_shell_tool(skills=[skill], allowed_callers=("programmatic",)),
    ]


def _find(order_id: str, verbose: bool = False) -> str:
    """Find an order by its id."""
    return order_id


def _kind(tool: Tool[Any, Any]) -> str:
    return str(getattr(tool, "kind", "namespace"))


@pytest.mark.parametrize("index", range(15))
def test_every_client_spec_is_a_valid_openapi_tool(index: int, tmp_path: Path) -> None:
    tool = _client_variants(tmp_path)[index]
    assert_wire_valid("Tool", default_client_tool_codecs()[_kind(tool)].serialize(tool))


def test_every_request_tools_array_is_valid_with_options_and_namespaces(tmp_path: Path) -> None:
    variants = _client_variants(tmp_path)
    # one tool of each kind and name, as a prompt would carry them
    tools = (variants[3], variants[4], variants[7], variants[8], variants[9], variants[12])
    first_of_kind: dict[str, HostedTool[Any]] = {}
    for hosted in HOSTED_VARIANTS:
        if hosted.kind not in ("tool_search", "web_search_preview"):
            first_of_kind.setdefault(hosted.kind, hosted)
    prompt = Prompt(
        ns="tests",
        key="everything",
        sections=[Section(title="Tools", tools=tools, hosted_tools=tuple(first_of_kind.values()))],
    )
    # capabilities={}: the wire is checked here, not which model may take which kind
    body = OpenAIAdapter("gpt-5", capabilities={}).build_request(prompt)
    types = [spec["type"] for spec in body["tools"]]
    assert {"namespace", "tool_search", "custom", "programmatic_tool_calling"} <= set(types)
    for spec in body["tools"]:
        assert_wire_valid("Tool", spec)


def test_a_dated_web_search_alias_is_the_type_sent_and_the_type_forced() -> None:
    from openai.types.responses import ToolParam
    from pydantic import ConfigDict, TypeAdapter

    dated = web_search_tool(WebSearchConfig(alias="web_search_2025_08_26"))
    spec = HOSTED["web_search"].serialize(dated)
    assert spec == {"type": "web_search_2025_08_26"}
    TypeAdapter(ToolParam, config=ConfigDict(extra="forbid")).validate_python(spec)
    choice = HOSTED["web_search"].tool_choice(dated)
    assert choice["tools"] == [{"type": "web_search_2025_08_26"}]
    assert_wire_valid("ToolChoiceParam", choice)
    assert HOSTED["web_search"].serialize(web_search_tool())["type"] == "web_search"
    with pytest.raises(PromptValidationError, match="alias"):
        WebSearchConfig(alias="web_search_2026")  # type: ignore[arg-type]
