"""``mcp_sections``: every MCP server a prompt needs, including its agent children's."""

from __future__ import annotations

import sys

from tooltape import MarkdownSection, Prompt, Section
from tooltape.agents import prompt_tool
from tooltape.mcp import McpServerSection, mcp_sections


def server(name: str) -> McpServerSection:
    return McpServerSection(name, sys.executable, ["-c", "pass"])


def test_sections_are_found_in_children_and_in_agent_children_once() -> None:
    clock, files, search = server("clock"), server("files"), server("search")
    child = Prompt(
        ns="tests",
        key="child",
        sections=[MarkdownSection(title="R", key="r", template="$message"), search],
    )
    ask = prompt_tool(child, name="ask", description="Ask.")
    ask_again = prompt_tool(child, name="ask_again", description="Ask again.")
    parent = Prompt(
        ns="tests",
        key="parent",
        sections=[
            clock,
            Section(
                title="Nested",
                key="nested",
                children=[files],
                tools=[ask, ask_again],
            ),
        ],
    )

    assert mcp_sections(parent) == (clock, search, files)
    assert mcp_sections(child) == (search,)


def test_a_prompt_without_servers_has_none() -> None:
    prompt = Prompt(ns="tests", key="plain", sections=[Section(title="A", key="a")])

    assert mcp_sections(prompt) == ()
