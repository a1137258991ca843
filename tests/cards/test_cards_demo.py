"""The cards demo (examples/cards_demo) replayed offline from its cassette, in a scratch copy.

One card, evaluated by the real ``OpenAIAdapter``: a function tool, an MCP
server (a real subprocess), a child agent card and a client-executed
``apply_patch`` tool, all under the card's audit and guard hooks.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from vcr.errors import CannotOverwriteExistingCassetteException

from tooltape import PromptEvaluationError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cards_demo"


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    copy = tmp_path / "cards_demo"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("status.md", "__pycache__"))
    spec = importlib.util.spec_from_file_location("cards_demo_under_test", copy / "demo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_demo_replays_offline_with_every_tool_source_under_the_hooks(
    demo: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="cards_demo.audit")
    card = demo.CARD  # inside the scratch copy

    with demo.replaying(demo.CASSETTE) as client:
        response, session = demo.evaluate(card, client)

    assert response.text.startswith("Wrote status.md: at 14:30 UTC Atlas (New York)")
    assert [(e.source, e.name, e.result.success) for e in session.tool_invocations] == [
        ("agent", "ny_manager", True),
        ("mcp", "clock__get_time", True),
        ("mcp", "clock__set_time", False),
        ("function", "add_one", True),
        ("native", "apply_patch", True),
    ]
    events = {e.name: e for e in session.tool_invocations}
    assert events["ny_manager"].rendered_output == (
        "Atlas is on track; the launch review is on Friday."
    )
    assert events["clock__get_time"].rendered_output == "2025-01-15T14:30:00Z"
    assert events["add_one"].rendered_output == "42"
    assert events["clock__set_time"].result.message == (
        "blocked by policy: clock__set_time may not be called"
    )
    assert [r.getMessage() for r in caplog.records if r.name == "cards_demo.audit"] == [
        "agent ny_manager -> ok",
        "mcp clock__get_time (clock) -> ok",
        "mcp clock__set_time (clock) -> failed: blocked by policy: "
        "clock__set_time may not be called",
        "function add_one -> ok",
        "native apply_patch -> ok",
    ]
    report = (card.parent / "workspace" / "status.md").read_text()
    assert "- Open issues: 42" in report


def test_a_changed_card_no_longer_matches_the_recording(demo: ModuleType) -> None:
    card: Path = demo.CARD
    card.write_text(card.read_text().replace("(41)", "(40)"))

    with (
        pytest.raises(PromptEvaluationError) as caught,
        demo.replaying(demo.CASSETTE) as client,
    ):
        demo.evaluate(card, client)

    assert caught.value.phase == "request"
    assert isinstance(caught.value.__cause__, CannotOverwriteExistingCassetteException)
    assert "tooltape_body" in str(caught.value.__cause__)


def test_the_committed_cassette_says_where_it_came_from() -> None:
    header = (EXAMPLE / "cassette.json").read_text()

    assert '"source": "loopback"' in header
    assert "scripted model answers" in header
