"""Hosted tool configs refuse what can never work, naming the field and the fix."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from tooltape.prompt import PromptValidationError
from tooltape.tools.code_interpreter import CodeInterpreterConfig
from tooltape.tools.file_search import (
    AttributeFilter,
    FileSearchConfig,
    FileSearchRanking,
    FilterGroup,
)
from tooltape.tools.image_generation import ImageGenerationConfig, ImageMask
from tooltape.tools.mcp import HostedMcpConfig, McpApprovalPolicy, McpToolFilter, hosted_mcp_tool
from tooltape.tools.network import DomainSecret, NetworkAllowlist, NetworkDisabled
from tooltape.tools.shell import ContainerAuto, ContainerReference, LocalShellConfig, ShellConfig
from tooltape.tools.skills import InlineSkill, LocalSkill, SkillReference
from tooltape.tools.web_search import DomainFilter, GeoHint, WebSearchConfig

URL = "https://mcp.example.com/mcp"
TUNNEL = "tunnel_" + "a1" * 16

BAD: list[tuple[str, Callable[[], object], tuple[str, ...]]] = [
    ("scheme", lambda: DomainFilter(allowed=("https://cdc.gov",)), ("allowed", "'cdc.gov'")),
    ("path", lambda: DomainFilter(blocked=("cdc.gov/flu",)), ("blocked", "host name")),
    ("no dot", lambda: DomainFilter(allowed=("localhost",)), ("allowed", "host name")),
    ("bare string", lambda: DomainFilter(allowed="cdc.gov"), ("allowed", "('cdc.gov',)")),  # type: ignore[arg-type]
    ("both lists", lambda: DomainFilter(("a.com",), ("a.com",)), ("blocked", "only one")),
    ("lower country", lambda: GeoHint(country_code="gb"), ("country_code", "'GB'")),
    ("long country", lambda: GeoHint(country_code="GBR"), ("country_code", "two-letter")),
    ("timezone", lambda: GeoHint(timezone="Europe/Atlantis"), ("timezone", "IANA")),
    ("blank city", lambda: GeoHint(city=" "), ("city",)),
    ("context size", lambda: WebSearchConfig(context_size="huge"), ("context_size", "low")),  # type: ignore[arg-type]
    ("filter type", lambda: WebSearchConfig(domain_filter=("a.com",)), ("domain_filter",)),  # type: ignore[arg-type]
    ("no stores", lambda: FileSearchConfig(()), ("vector_store_ids", "at least one")),
    (
        "0 results",
        lambda: FileSearchConfig(("vs",), max_num_results=0),
        ("max_num_results", "1 to 50"),
    ),
    (
        "51 results",
        lambda: FileSearchConfig(("vs",), max_num_results=51),
        ("max_num_results", "1 to 50"),
    ),
    ("bool results", lambda: FileSearchConfig(("vs",), max_num_results=True), ("max_num_results",)),
    (
        "threshold",
        lambda: FileSearchRanking(score_threshold=1.5),
        ("score_threshold", "0.0 to 1.0"),
    ),
    ("one weight", lambda: FileSearchRanking(embedding_weight=0.5), ("text_weight", "both")),
    ("filter op", lambda: AttributeFilter("k", "like", "x"), ("op", "eq")),  # type: ignore[arg-type]
    ("in scalar", lambda: AttributeFilter("k", "in", "x"), ("value", "tuple")),
    ("empty group", lambda: FilterGroup("and", ()), ("filters", "at least one")),
    (
        "memory",
        lambda: CodeInterpreterConfig(memory_limit="2g"),
        ("memory_limit", "1g, 4g, 16g, 64g"),
    ),  # type: ignore[arg-type]
    (
        "container and files",
        lambda: CodeInterpreterConfig(container_id="cntr", file_ids=("f",)),
        ("container_id", "drop"),
    ),
    ("partial 4", lambda: ImageGenerationConfig(partial_images=4), ("partial_images", "0 to 3")),
    ("partial -1", lambda: ImageGenerationConfig(partial_images=-1), ("partial_images", "0 to 3")),
    ("size", lambda: ImageGenerationConfig(size="big"), ("size", "1024x1536")),
    ("quality", lambda: ImageGenerationConfig(quality="ultra"), ("quality",)),  # type: ignore[arg-type]
    (
        "transparent jpeg",
        lambda: ImageGenerationConfig(background="transparent", output_format="jpeg"),
        ("background", "'png' or 'webp'"),
    ),
    ("mcp neither", lambda: HostedMcpConfig("x"), ("server_url", "exactly one")),
    (
        "mcp both",
        lambda: HostedMcpConfig("x", server_url=URL, connector_id="connector_gmail"),
        ("server_url", "exactly one"),
    ),
    ("mcp label", lambda: HostedMcpConfig("my server", server_url=URL), ("server_label",)),
    ("mcp url", lambda: HostedMcpConfig("x", server_url="ftp://x"), ("server_url", "http(s)")),
    (
        "approval",
        lambda: HostedMcpConfig("x", server_url=URL, require_approval="sometimes"),
        ("require_approval",),
    ),  # type: ignore[arg-type]
    ("approval empty", lambda: McpApprovalPolicy(), ("always", "name some tools")),
    ("headers", lambda: HostedMcpConfig("x", server_url=URL, headers={"a": 1}), ("headers",)),  # type: ignore[dict-item]
    ("shell memory", lambda: ContainerAuto(memory_limit="8g"), ("memory_limit",)),  # type: ignore[arg-type]
    ("shell container", lambda: ContainerReference(""), ("container_id",)),
    ("shell env", lambda: ShellConfig(environment="local"), ("environment", "ContainerAuto")),  # type: ignore[arg-type]
    # values the OpenAPI specification refuses, named with the values it accepts
    (
        "quality xhigh",
        lambda: ImageGenerationConfig(quality="xhigh"),  # type: ignore[arg-type]
        ("ImageGenerationConfig.quality", "'xhigh'", "low, medium, high, auto"),
    ),
    (
        "format gif",
        lambda: ImageGenerationConfig(output_format="gif"),  # type: ignore[arg-type]
        ("output_format", "'gif'", "png, webp, jpeg"),
    ),
    (
        "format svg",
        lambda: ImageGenerationConfig(output_format="svg"),  # type: ignore[arg-type]
        ("output_format", "png, webp, jpeg"),
    ),
    (
        "action",
        lambda: ImageGenerationConfig(action="draw"),  # type: ignore[arg-type]
        ("action", "generate, edit, auto"),
    ),
    (
        "moderation",
        lambda: ImageGenerationConfig(moderation="high"),  # type: ignore[arg-type]
        ("moderation", "auto, low"),
    ),
    (
        "compression",
        lambda: ImageGenerationConfig(output_compression=101),
        ("output_compression", "0 to 100"),
    ),
    (
        "fidelity",
        lambda: ImageGenerationConfig(input_fidelity="medium"),  # type: ignore[arg-type]
        ("input_fidelity", "high, low"),
    ),
    ("empty mask", lambda: ImageMask(), ("image_url", "file_id")),
    (
        "mask type",
        lambda: ImageGenerationConfig(input_image_mask="file-1"),  # type: ignore[arg-type]
        ("input_image_mask", "ImageMask"),
    ),
    (
        "connector",
        lambda: HostedMcpConfig("x", connector_id="connector_slack"),  # type: ignore[arg-type]
        ("connector_id", "'connector_slack'", "connector_gmail", "connector_sharepoint"),
    ),
    ("tunnel", lambda: HostedMcpConfig("x", tunnel_id="tunnel_ABC"), ("tunnel_id", "32")),
    (
        "url and tunnel",
        lambda: HostedMcpConfig("x", server_url=URL, tunnel_id=TUNNEL),
        ("exactly one", "server_url, tunnel_id"),
    ),
    ("empty tool filter", lambda: McpToolFilter(), ("tool_names", "read_only")),
    ("read_only", lambda: McpToolFilter(read_only="yes"), ("read_only", "True/False")),  # type: ignore[arg-type]
    (
        "defer_loading",
        lambda: HostedMcpConfig("x", server_url=URL, defer_loading=1),  # type: ignore[arg-type]
        ("defer_loading",),
    ),
    ("allowlist empty", lambda: NetworkAllowlist(()), ("allowed_domains", "NetworkDisabled")),
    (
        "allowlist url",
        lambda: NetworkAllowlist(("https://pypi.org",)),
        ("allowed_domains", "'pypi.org'"),
    ),
    (
        "secret elsewhere",
        lambda: NetworkAllowlist(("pypi.org",), (DomainSecret("a.com", "TOKEN", "s3cret"),)),
        ("domain_secrets", "'a.com'"),
    ),
    ("secret empty", lambda: DomainSecret("a.com", "TOKEN", ""), ("value",)),
    (
        "policy type",
        lambda: ContainerAuto(network_policy="off"),  # type: ignore[arg-type]
        ("network_policy", "NetworkDisabled()"),
    ),
    (
        "container and policy",
        lambda: CodeInterpreterConfig(container_id="cntr", network_policy=NetworkDisabled()),
        ("container_id", "network_policy"),
    ),
    (
        "51 files",
        lambda: ContainerAuto(file_ids=tuple(f"file-{i}" for i in range(51))),
        ("file_ids", "at most 50"),
    ),
    (
        "51 interpreter files",
        lambda: CodeInterpreterConfig(file_ids=tuple(f"file-{i}" for i in range(51))),
        ("file_ids", "at most 50"),
    ),
    ("skill version", lambda: SkillReference("skill_1", version="v2"), ("version", "latest")),
    ("skill bundle", lambda: InlineSkill("lint", "Lints code", b""), ("bundle",)),
    (
        "local skill in a container",
        lambda: ContainerAuto(skills=(LocalSkill("lint", "Lints", "./skills/lint"),)),  # type: ignore[arg-type]
        ("skills", "SkillReference, InlineSkill"),
    ),
    (
        "container skill on a local shell",
        lambda: LocalShellConfig(skills=(SkillReference("skill_1"),)),  # type: ignore[arg-type]
        ("skills", "LocalSkill"),
    ),
]


@pytest.mark.parametrize(("build", "expected"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_configs_are_refused(build: Callable[[], object], expected: tuple[str, ...]) -> None:
    with pytest.raises(PromptValidationError) as raised:
        build()
    for fragment in expected:
        assert fragment in str(raised.value)


def test_good_configs_are_kept_and_normalised() -> None:
    domains = DomainFilter(allowed=["cdc.gov", "who.int"])  # type: ignore[arg-type]
    assert domains.allowed == ("cdc.gov", "who.int")
    geo = GeoHint("US", "San Francisco", "California", "America/Los_Angeles")
    assert geo.timezone == "America/Los_Angeles"
    assert FileSearchConfig(["vs_1"], max_num_results=50).vector_store_ids == ("vs_1",)  # type: ignore[arg-type]
    assert AttributeFilter("lang", "nin", ["en", 2]).value == ("en", 2)  # type: ignore[arg-type]
    assert ImageGenerationConfig(size="auto", partial_images=0).partial_images == 0
    mcp = HostedMcpConfig("deepwiki", server_url=URL, allowed_tools=["ask"], headers={"A": "b"})  # type: ignore[arg-type]
    assert mcp.allowed_tools == ("ask",) and mcp.headers == {"A": "b"}
    assert ShellConfig().environment == ContainerAuto()
    assert HostedMcpConfig("t", tunnel_id=TUNNEL).tunnel_id == TUNNEL
    assert HostedMcpConfig("g", connector_id="connector_googledrive").connector_id


def test_domain_secret_values_stay_out_of_reprs() -> None:
    policy = NetworkAllowlist(("pypi.org",), (DomainSecret("pypi.org", "TOKEN", "s3cret-value"),))
    assert "s3cret-value" not in repr(policy)
    assert "s3cret-value" not in repr(ContainerAuto(network_policy=policy))


@pytest.mark.parametrize(
    "config",
    [
        WebSearchConfig(),
        DomainFilter(),
        GeoHint(),
        FileSearchConfig(("vs",)),
        CodeInterpreterConfig(),
        ImageGenerationConfig(),
        HostedMcpConfig("x", server_url=URL),
        ShellConfig(),
        McpToolFilter(read_only=True),
        ImageMask(file_id="file-1"),
        NetworkAllowlist(("pypi.org",)),
        SkillReference("skill_1"),
        LocalShellConfig(),
    ],
)
def test_configs_are_frozen_slotted_dataclasses(config: Any) -> None:
    assert dataclasses.is_dataclass(config)
    assert not hasattr(config, "__dict__")
    field = dataclasses.fields(config)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(config, field, None)


def test_hosted_mcp_reprs_and_errors_never_show_header_or_authorization_values() -> None:
    config = HostedMcpConfig(
        "docs",
        server_url=URL,
        headers={"X-Api-Key": "hdr-secret-value-77"},
        authorization="auth-secret-value-88",
    )
    texts = [repr(config), repr(hosted_mcp_tool(config)), str(config)]
    assert "headers=['X-Api-Key']" in texts[0] and "authorization='***'" in texts[0]
    assert [t for t in texts if "secret-value" in t] == []
    with pytest.raises(PromptValidationError, match="authorization") as caught:
        HostedMcpConfig("docs", server_url=URL, authorization=b"auth-secret-value-88")  # type: ignore[arg-type]
    assert "secret-value" not in str(caught.value)
