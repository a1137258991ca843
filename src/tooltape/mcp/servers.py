"""Find and run every MCP server a prompt needs, including those of its agent tools' children."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

from tooltape.agents import AgentTool
from tooltape.mcp.section import McpServerSection
from tooltape.prompt import Prompt, Section

__all__ = ["mcp_sections", "running_servers"]


def mcp_sections(prompt: Prompt[Any]) -> tuple[McpServerSection, ...]:
    """Every ``McpServerSection`` in ``prompt`` and in the child prompts of its agent tools.

    Depth-first, each section once (a child shared by two agent tools is
    visited once).
    """
    found: list[McpServerSection] = []
    seen_prompts: set[int] = set()

    def visit_sections(sections: Sequence[Section[Any]]) -> None:
        for section in sections:
            if isinstance(section, McpServerSection):
                if not any(s is section for s in found):
                    found.append(section)
                continue
            for tool in section.tools():
                if isinstance(tool, AgentTool) and tool.child is not None:
                    visit_prompt(tool.child)
            visit_sections(section.children)

    def visit_prompt(current: Prompt[Any]) -> None:
        if id(current) in seen_prompts:
            return
        seen_prompts.add(id(current))
        visit_sections(current.sections)

    visit_prompt(prompt)
    return tuple(found)


@contextmanager
def running_servers(prompt: Prompt[Any]) -> Generator[tuple[McpServerSection, ...]]:
    """Start every MCP server ``prompt`` needs (see ``mcp_sections``) and stop them all after.

    If one fails to start, those already started are stopped before the
    error propagates.
    """
    sections = mcp_sections(prompt)
    with ExitStack() as stack:
        for section in sections:
            stack.enter_context(section)
        yield sections
