"""Wire snapshots of what tooltape sends: every canonical hosted spec and a full request body.

A change to any codec or to request building shows up here as a reviewed
diff of small JSON files (``pytest --snapshot-update`` rewrites them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tooltape import MarkdownSection, Prompt, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.kinds import canonical_tools, shareable_tools
from tooltape.testing.snapshots import WireSnapshot
from tooltape.tools.apply_patch import apply_patch_tool
from tooltape.tools.shell import local_shell_tool


@pytest.mark.parametrize("kind", sorted(canonical_tools()))
def test_hosted_spec(kind: str, wire_snapshot: WireSnapshot) -> None:
    adapter = OpenAIAdapter("gpt-5")
    assert adapter.hosted_tool_codecs[kind].serialize(canonical_tools()[kind]) == wire_snapshot


@dataclass(frozen=True)
class Ticket:
    title: str


def lookup(ticket_id: int, include_history: bool = False) -> str:
    """Look a ticket up by id."""
    return f"ticket {ticket_id}"


@dataclass(frozen=True)
class Triage:
    priority: int
    summary: str


def test_request_body(wire_snapshot: WireSnapshot, tmp_path: Path) -> None:
    prompt = Prompt[Triage](
        ns="support",
        key="triage",
        sections=[
            MarkdownSection(
                title="Task",
                template="Triage: $title",
                tools=[
                    Tool.from_function(lookup),
                    apply_patch_tool(tmp_path),
                    local_shell_tool(name="local_shell"),
                ],
                # the local shell stands in for the hosted one: a request carries one shell
                hosted_tools=tuple(
                    t for k, t in shareable_tools("gpt-5.1").items() if k != "shell"
                ),
            )
        ],
    )
    # gpt-5.1: the first family documented to take apply_patch and shell
    body = OpenAIAdapter("gpt-5.1").build_request(
        prompt, Ticket("Login fails"), tool_choice="lookup"
    )
    assert body == wire_snapshot
