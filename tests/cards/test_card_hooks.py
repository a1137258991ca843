"""One card's hooks govern function, MCP, agent and client-executed tools alike.

The PMO card declares an audit hook (logs every call) and a guard (refuses
listed ``(source, name)`` pairs). The calls run through the real executor,
the MCP tool against a real server process, the agent tool through a
scripted adapter, the client-executed tools as the OpenAI adapter runs them
(``source="native"``).
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tooltape import InProcessEventBus, Prompt, PromptResponse, Session, ToolResult
from tooltape.cards import LoadedCard, read_card
from tooltape.runtime import ToolCall, ToolExecutor

HERE = Path(__file__).parent
AUDIT_LOGGER = "tooltape.tests.card_audit"


@dataclass(frozen=True)
class Report:
    count: int


class ChildAdapter:
    """Evaluates child cards by rendering them; records what it was asked."""

    name = "scripted"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def evaluate(self, prompt: Prompt[Any], /, *params: object, **options: Any) -> Any:
        self.asked.append(prompt.name)
        rendered = prompt.render(*params)
        request = rendered.text.splitlines()[-1]
        return PromptResponse(prompt_name=prompt.name, text=f"{prompt.name} on {request!r}: green")


@pytest.fixture
def pmo(tmp_path: Path) -> Iterator[LoadedCard]:
    # A copy, so apply_patch writes into a scratch workspace; the layout keeps
    # the card's relative path to the demo MCP server valid.
    cards = tmp_path / "cards" / "pmo_cards"
    shutil.copytree(HERE / "pmo_cards", cards)
    shutil.copytree(HERE.parent / "mcp" / "servers", tmp_path / "mcp" / "servers")
    with read_card(cards / "pmo.md") as card:
        yield card


def run(card: LoadedCard, adapter: ChildAdapter) -> tuple[ToolExecutor, Session]:
    bus = InProcessEventBus()
    session = Session(bus)
    executor = ToolExecutor(
        prompt=card.prompt,
        rendered=card.prompt.render(Report(count=41)),
        adapter=adapter,
        session=session,
        bus=bus,
        hooks=card.prompt.tool_hooks,
        provider="openai",
    )
    return executor, session


def audited(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == AUDIT_LOGGER]


def test_one_audit_and_one_guard_cover_every_tool_source(
    pmo: LoadedCard, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=AUDIT_LOGGER)
    adapter = ChildAdapter()
    executor, session = run(pmo, adapter)
    create = {"operation": {"type": "create_file", "path": "notes.md", "diff": "+hello"}}

    results = {
        "add_one": executor.execute(ToolCall("add_one", {"x": 41}, "c1")),
        "time__get_time": executor.execute(ToolCall("time__get_time", {}, "c2")),
        "ny_manager": executor.execute(ToolCall("ny_manager", {"message": "Status?"}, "c3")),
        "apply_patch": executor.execute(
            ToolCall("apply_patch", create, "c4"), source="native", kind="apply_patch"
        ),
    }

    assert {name: r.success for name, r in results.items()} == dict.fromkeys(results, True)
    assert results["add_one"].value == 42
    assert results["time__get_time"].render() == "2024-05-01T12:00:00Z"
    assert results["ny_manager"].value == "ny_manager on 'Status?': green"
    assert (pmo.path.parent / "workspace" / "notes.md").read_text() == "hello\n"
    assert audited(caplog) == [
        "function add_one None True",
        "mcp time__get_time time True",
        "agent ny_manager None True",
        "native apply_patch None True",
    ]
    assert [(e.name, e.source) for e in session.tool_invocations] == [
        ("add_one", "function"),
        ("time__get_time", "mcp"),
        ("ny_manager", "agent"),
        ("apply_patch", "native"),
    ]


def test_the_guard_blocks_by_source_and_name_before_anything_runs(
    pmo: LoadedCard, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=AUDIT_LOGGER)
    adapter = ChildAdapter()
    executor, session = run(pmo, adapter)

    started = time.monotonic()
    blocked: dict[str, ToolResult[Any]] = {
        "wipe": executor.execute(ToolCall("wipe", {"path": "/"})),
        "time__nap": executor.execute(ToolCall("time__nap", {"seconds": 5})),
        "london": executor.execute(ToolCall("london", {"message": "Economics?"})),
        "shell": executor.execute(
            ToolCall("shell", {"commands": ["touch pwned"]}), source="native", kind="shell"
        ),
    }

    assert time.monotonic() - started < 4, "time__nap must not have reached the server"
    assert {name: r.message for name, r in blocked.items()} == {
        "wipe": "blocked by policy: function wipe",
        "time__nap": "blocked by policy: mcp time__nap",
        "london": "blocked by policy: agent london",
        "shell": "blocked by policy: native shell",
    }
    assert adapter.asked == []
    assert not (pmo.path.parent / "pwned").exists()
    assert audited(caplog) == [
        "function wipe None False",
        "mcp time__nap time False",
        "agent london None False",
        "native shell None False",
    ]
    assert all(not e.result.success for e in session.tool_invocations)
