"""Factories build the hosted tools; sections carry them into prompts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tooltape.prompt import HostedTool, MarkdownSection, Prompt, PromptValidationError, Section
from tooltape.tools.code_interpreter import (
    CodeInterpreterConfig,
    CodeInterpreterSection,
    code_interpreter_tool,
)
from tooltape.tools.file_search import FileSearchConfig, FileSearchSection, file_search_tool
from tooltape.tools.image_generation import (
    ImageGenerationConfig,
    ImageGenerationSection,
    image_generation_tool,
)
from tooltape.tools.mcp import HostedMcpConfig, HostedMcpSection, hosted_mcp_tool
from tooltape.tools.shell import ShellConfig, ShellSection, shell_tool
from tooltape.tools.web_search import (
    DomainFilter,
    WebSearchConfig,
    WebSearchSection,
    web_search_tool,
)

MCP = HostedMcpConfig("deepwiki", server_url="https://mcp.deepwiki.com/mcp")
FILES = FileSearchConfig(("vs_1",))

FACTORIES: list[tuple[str, Callable[..., HostedTool[Any]], tuple[Any, ...], type]] = [
    ("web_search", web_search_tool, (), WebSearchConfig),
    ("file_search", file_search_tool, (FILES,), FileSearchConfig),
    ("code_interpreter", code_interpreter_tool, (), CodeInterpreterConfig),
    ("image_generation", image_generation_tool, (), ImageGenerationConfig),
    ("mcp", hosted_mcp_tool, (MCP,), HostedMcpConfig),
    ("shell", shell_tool, (), ShellConfig),
]

SECTIONS: list[tuple[str, Callable[..., Section[Any]], tuple[Any, ...]]] = [
    ("web_search", WebSearchSection, ()),
    ("file_search", FileSearchSection, (FILES,)),
    ("code_interpreter", CodeInterpreterSection, ()),
    ("image_generation", ImageGenerationSection, ()),
    ("mcp", HostedMcpSection, (MCP,)),
    ("shell", ShellSection, ()),
]


@pytest.mark.parametrize(("kind", "factory", "args", "config_type"), FACTORIES)
def test_factory_defaults_and_name(
    kind: str, factory: Callable[..., HostedTool[Any]], args: tuple[Any, ...], config_type: type
) -> None:
    tool = factory(*args)
    assert (tool.kind, tool.name) == (kind, kind)
    assert isinstance(tool.config, config_type)
    assert 0 < len(tool.description) <= 200 and tool.description.isascii()
    renamed = factory(*args, name=f"{kind}_two")
    assert (renamed.kind, renamed.name) == (kind, f"{kind}_two")
    with pytest.raises(PromptValidationError):
        factory(*args, name="Bad Name")


@pytest.mark.parametrize(("kind", "section_type", "args"), SECTIONS)
def test_sections_carry_their_tool_into_a_prompt(
    kind: str, section_type: Callable[..., Section[Any]], args: tuple[Any, ...]
) -> None:
    section = section_type(*args)
    assert isinstance(section, MarkdownSection)
    (tool,) = section.hosted_tools()
    assert (tool.kind, tool.name, section.key) == (kind, kind, kind)
    intro = MarkdownSection(title="Task", key="task", template="Answer the question.")
    rendered = Prompt(ns="tests", key=f"with-{kind}", sections=[intro, section]).render()
    assert rendered.hosted_tools == (tool,)
    body = rendered.text.split(section.title, 1)[1]
    assert len(body.strip()) > 40
    disabled = section.clone(enabled=False)
    assert Prompt(ns="tests", key="off", sections=[disabled]).render().hosted_tools == ()
    assert disabled.hosted_tools()[0] == tool


def test_two_web_searches_with_different_configs_in_one_prompt() -> None:
    narrow = WebSearchConfig(domain_filter=DomainFilter(allowed=("cdc.gov",)))
    prompt = Prompt(
        ns="tests",
        key="two-searches",
        sections=[
            WebSearchSection(),
            WebSearchSection(narrow, key="health", name="health_search"),
        ],
    )
    rendered = prompt.render()
    assert [(t.name, t.config) for t in rendered.hosted_tools] == [
        ("web_search", WebSearchConfig()),
        ("health_search", narrow),
    ]
    with pytest.raises(PromptValidationError, match="web_search"):
        Prompt(ns="tests", key="dupe", sections=[WebSearchSection(), WebSearchSection(key="b")])


def test_clone_keeps_config_and_name() -> None:
    section = ShellSection(name="box")
    clone = section.clone(key="other")
    assert clone.key == "other"
    assert clone.hosted_tools() == section.hosted_tools()
