"""What the codecs put on the wire: exact specs, and every spec accepted by the SDK's own types."""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.responses import ResponseIncludable, ToolParam
from openai.types.responses.response_create_params import ToolChoice
from pydantic import ConfigDict, TypeAdapter, ValidationError

from tooltape.adapters.openai.codecs import default_hosted_tool_codecs
from tooltape.prompt import HostedTool, PromptEvaluationError
from tooltape.tools.code_interpreter import CodeInterpreterConfig, code_interpreter_tool
from tooltape.tools.file_search import (
    AttributeFilter,
    FileSearchConfig,
    FileSearchRanking,
    FilterGroup,
    file_search_tool,
)
from tooltape.tools.image_generation import ImageGenerationConfig, image_generation_tool
from tooltape.tools.mcp import HostedMcpConfig, McpApprovalPolicy, hosted_mcp_tool
from tooltape.tools.shell import ContainerAuto, ContainerReference, ShellConfig, shell_tool
from tooltape.tools.web_search import DomainFilter, GeoHint, WebSearchConfig, web_search_tool

CODECS = default_hosted_tool_codecs()
# extra="forbid" reaches every nested TypedDict: a key the SDK does not know fails.
STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_CHOICE: TypeAdapter[Any] = TypeAdapter(ToolChoice, config=ConfigDict(extra="forbid"))
INCLUDABLE: TypeAdapter[Any] = TypeAdapter(ResponseIncludable)

MCP_URL = "https://mcp.deepwiki.com/mcp"

REPRESENTATIVE: list[HostedTool[Any]] = [
    web_search_tool(),
    web_search_tool(
        WebSearchConfig(
            domain_filter=DomainFilter(allowed=("cdc.gov", "who.int")),
            geo_hint=GeoHint("GB", "London", "England", "Europe/London"),
            allow_live_access=False,
            context_size="high",
        )
    ),
    web_search_tool(WebSearchConfig(geo_hint=GeoHint())),
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
    code_interpreter_tool(CodeInterpreterConfig(file_ids=("file-1",), memory_limit="4g")),
    code_interpreter_tool(CodeInterpreterConfig(container_id="cntr_1")),
    image_generation_tool(),
    image_generation_tool(
        ImageGenerationConfig(
            model="gpt-image-1",
            size="1536x1024",
            quality="high",
            output_format="webp",
            background="transparent",
            partial_images=2,
        )
    ),
    hosted_mcp_tool(HostedMcpConfig("deepwiki", server_url=MCP_URL)),
    hosted_mcp_tool(
        HostedMcpConfig(
            "deepwiki",
            server_url=MCP_URL,
            allowed_tools=("ask_question",),
            require_approval=McpApprovalPolicy(always=("ask_question",), never=("list",)),
            headers={"X-Team": "a"},
            authorization="token-placeholder",
            server_description="DeepWiki MCP server",
        )
    ),
    hosted_mcp_tool(
        HostedMcpConfig("gmail", connector_id="connector_gmail", require_approval="never")
    ),
    shell_tool(),
    shell_tool(ShellConfig(ContainerAuto(file_ids=("file-1",), memory_limit="16g"))),
    shell_tool(ShellConfig(ContainerReference("cntr_9"))),
]


@pytest.mark.parametrize("tool", REPRESENTATIVE, ids=lambda t: t.kind)
def test_every_spec_is_a_valid_sdk_tool_param(tool: HostedTool[Any]) -> None:
    codec = CODECS[tool.kind]
    spec = codec.serialize(tool)
    assert spec["type"] == tool.kind
    validated = STRICT_TOOL.validate_python(spec)
    assert STRICT_TOOL.dump_python(validated, mode="json") == spec
    STRICT_CHOICE.validate_python(codec.tool_choice(tool))
    for entry in codec.includes(tool):
        INCLUDABLE.validate_python(entry)


def test_blocked_domains_follow_the_design_not_the_sdk() -> None:
    # DESIGN.md lists filters.blocked_domains; the SDK's TypedDict does not know it yet,
    # so only the strict check refuses it. Everything else in the spec is SDK-valid.
    tool = web_search_tool(WebSearchConfig(domain_filter=DomainFilter(blocked=("example.com",))))
    spec = CODECS["web_search"].serialize(tool)
    assert spec == {"type": "web_search", "filters": {"blocked_domains": ["example.com"]}}
    with pytest.raises(ValidationError):
        STRICT_TOOL.validate_python(spec)
    STRICT_TOOL.validate_python({"type": "web_search", "filters": {}})


def test_web_search_sets_only_configured_keys() -> None:
    codec = CODECS["web_search"]
    assert codec.serialize(web_search_tool()) == {"type": "web_search"}
    assert codec.serialize(REPRESENTATIVE[1]) == {
        "type": "web_search",
        "filters": {"allowed_domains": ["cdc.gov", "who.int"]},
        "user_location": {
            "type": "approximate",
            "country": "GB",
            "city": "London",
            "region": "England",
            "timezone": "Europe/London",
        },
        "search_context_size": "high",
        "external_web_access": False,
    }
    assert codec.serialize(web_search_tool(WebSearchConfig(geo_hint=GeoHint("US")))) == {
        "type": "web_search",
        "user_location": {"type": "approximate", "country": "US"},
    }
    assert codec.includes(web_search_tool()) == ("web_search_call.action.sources",)


def test_file_search_spec_and_includes() -> None:
    codec = CODECS["file_search"]
    assert codec.serialize(REPRESENTATIVE[3]) == {
        "type": "file_search",
        "vector_store_ids": ["vs_1"],
    }
    assert codec.includes(REPRESENTATIVE[3]) == ()
    assert codec.serialize(REPRESENTATIVE[4]) == {
        "type": "file_search",
        "vector_store_ids": ["vs_1", "vs_2"],
        "max_num_results": 50,
        "ranking_options": {
            "ranker": "auto",
            "score_threshold": 0.5,
            "hybrid_search": {"embedding_weight": 0.7, "text_weight": 0.3},
        },
        "filters": {
            "type": "and",
            "filters": [
                {"type": "gte", "key": "year", "value": 2020},
                {"type": "or", "filters": [{"type": "in", "key": "lang", "value": ["en", "fr"]}]},
            ],
        },
    }
    assert codec.includes(REPRESENTATIVE[4]) == ("file_search_call.results",)
    assert codec.tool_choice(REPRESENTATIVE[4]) == {"type": "file_search"}


def test_code_interpreter_container_forms() -> None:
    codec = CODECS["code_interpreter"]
    assert codec.serialize(code_interpreter_tool()) == {
        "type": "code_interpreter",
        "container": {"type": "auto"},
    }
    assert codec.serialize(REPRESENTATIVE[6])["container"] == {
        "type": "auto",
        "file_ids": ["file-1"],
        "memory_limit": "4g",
    }
    assert codec.serialize(REPRESENTATIVE[7]) == {"type": "code_interpreter", "container": "cntr_1"}
    assert codec.includes(code_interpreter_tool()) == ("code_interpreter_call.outputs",)
    quiet = code_interpreter_tool(CodeInterpreterConfig(include_outputs=False))
    assert codec.includes(quiet) == ()


def test_image_generation_and_mcp_and_shell_specs() -> None:
    assert CODECS["image_generation"].serialize(image_generation_tool()) == {
        "type": "image_generation"
    }
    assert CODECS["image_generation"].serialize(REPRESENTATIVE[9]) == {
        "type": "image_generation",
        "model": "gpt-image-1",
        "size": "1536x1024",
        "quality": "high",
        "output_format": "webp",
        "background": "transparent",
        "partial_images": 2,
    }
    mcp = CODECS["mcp"]
    # The API's default is "always": it is sent, so the wire says what will happen.
    assert mcp.serialize(REPRESENTATIVE[10]) == {
        "type": "mcp",
        "server_label": "deepwiki",
        "server_url": MCP_URL,
        "require_approval": "always",
    }
    full = mcp.serialize(REPRESENTATIVE[11])
    assert full["require_approval"] == {
        "always": {"tool_names": ["ask_question"]},
        "never": {"tool_names": ["list"]},
    }
    assert (full["allowed_tools"], full["headers"], full["authorization"]) == (
        ["ask_question"],
        {"X-Team": "a"},
        "token-placeholder",
    )
    assert mcp.tool_choice(REPRESENTATIVE[11]) == {"type": "mcp", "server_label": "deepwiki"}
    assert mcp.serialize(REPRESENTATIVE[12]) == {
        "type": "mcp",
        "server_label": "gmail",
        "connector_id": "connector_gmail",
        "require_approval": "never",
    }
    shell = CODECS["shell"]
    assert shell.serialize(shell_tool()) == {
        "type": "shell",
        "environment": {"type": "container_auto"},
    }
    assert shell.serialize(REPRESENTATIVE[14])["environment"] == {
        "type": "container_auto",
        "file_ids": ["file-1"],
        "memory_limit": "16g",
    }
    assert shell.serialize(REPRESENTATIVE[15])["environment"] == {
        "type": "container_reference",
        "container_id": "cntr_9",
    }


def test_web_search_tool_choice_forces_the_tool() -> None:
    choice = CODECS["web_search"].tool_choice(web_search_tool())
    assert choice == {
        "type": "allowed_tools",
        "mode": "required",
        "tools": [{"type": "web_search"}],
    }


def test_configs_openai_cannot_express_fail_at_render() -> None:
    many = tuple(f"site{i}.example.com" for i in range(101))
    wide = web_search_tool(WebSearchConfig(domain_filter=DomainFilter(allowed=many)))
    with pytest.raises(PromptEvaluationError) as raised:
        CODECS["web_search"].serialize(wide)
    assert raised.value.phase == "render" and "100" in raised.value.message
    ranked = file_search_tool(FileSearchConfig(("vs_1",), ranking=FileSearchRanking("bm25")))
    with pytest.raises(PromptEvaluationError) as raised:
        CODECS["file_search"].serialize(ranked)
    assert raised.value.phase == "render" and "bm25" in raised.value.message


def test_registry_covers_every_hosted_kind() -> None:
    assert sorted(CODECS) == [
        "code_interpreter",
        "file_search",
        "image_generation",
        "mcp",
        "programmatic_tool_calling",
        "shell",
        "tool_search",
        "web_search",
        "web_search_preview",
    ]
    for kind, codec in CODECS.items():
        assert codec.kind == kind
        # call items: *_call, mcp_list_tools, and the program of programmatic tool calling
        calls = [t for t in codec.item_types if t.endswith(("_call", "_tools")) or t == "program"]
        assert codec.item_types and calls == list(codec.item_types)
    assert default_hosted_tool_codecs() is not CODECS


def test_new_image_generation_settings_reach_the_wire() -> None:
    from tooltape.tools.image_generation import ImageMask

    config = ImageGenerationConfig(
        action="edit",
        moderation="low",
        output_compression=0,
        input_fidelity="low",
        input_image_mask=ImageMask(file_id="file-mask"),
    )
    assert CODECS["image_generation"].serialize(image_generation_tool(config)) == {
        "type": "image_generation",
        "action": "edit",
        "moderation": "low",
        "output_compression": 0,
        "input_fidelity": "low",
        "input_image_mask": {"file_id": "file-mask"},
    }


def test_mcp_filters_tunnels_and_deferral_reach_the_wire() -> None:
    from tooltape.tools.mcp import McpToolFilter

    tunnel = "tunnel_" + "9z" * 16
    read_only = HostedMcpConfig(
        "files",
        tunnel_id=tunnel,
        allowed_tools=McpToolFilter(read_only=True),
        defer_loading=True,
    )
    assert CODECS["mcp"].serialize(hosted_mcp_tool(read_only)) == {
        "type": "mcp",
        "server_label": "files",
        "tunnel_id": tunnel,
        "allowed_tools": {"read_only": True},
        "require_approval": "always",
        "defer_loading": True,
    }
    named = HostedMcpConfig("d", server_url=MCP_URL, allowed_tools=McpToolFilter(("ask",), False))
    wire = CODECS["mcp"].serialize(hosted_mcp_tool(named))
    assert wire["allowed_tools"] == {"tool_names": ["ask"], "read_only": False}
    assert "defer_loading" not in wire


def test_container_network_policies_and_skills_reach_the_wire() -> None:
    from tooltape.tools.network import DomainSecret, NetworkAllowlist, NetworkDisabled
    from tooltape.tools.skills import InlineSkill, SkillReference

    allow = NetworkAllowlist(("pypi.org",), (DomainSecret("pypi.org", "TOKEN", "v"),))
    interpreter = code_interpreter_tool(CodeInterpreterConfig(network_policy=NetworkDisabled()))
    assert CODECS["code_interpreter"].serialize(interpreter)["container"] == {
        "type": "auto",
        "network_policy": {"type": "disabled"},
    }
    environment = ContainerAuto(
        network_policy=allow,
        skills=(SkillReference("skill_1", "2"), InlineSkill("lint", "Lints", b"zip")),
    )
    assert CODECS["shell"].serialize(shell_tool(ShellConfig(environment)))["environment"] == {
        "type": "container_auto",
        "network_policy": {
            "type": "allowlist",
            "allowed_domains": ["pypi.org"],
            "domain_secrets": [{"domain": "pypi.org", "name": "TOKEN", "value": "v"}],
        },
        "skills": [
            {"type": "skill_reference", "skill_id": "skill_1", "version": "2"},
            {
                "type": "inline",
                "name": "lint",
                "description": "Lints",
                "source": {"type": "base64", "media_type": "application/zip", "data": "emlw"},
            },
        ],
    }
