"""Cards declare the client-executed kinds built from Python objects: custom tools, computers
and client tool searches, with handlers given as ``file.py:name``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tooltape.cards import CardError, load_card
from tooltape.tools.computer import ComputerUsePreviewConfig
from tooltape.tools.custom import CustomToolConfig, Grammar

HANDLERS = '''
from tooltape.testing.computer import RecordingComputer


def run_sql(text: str) -> str:
    """Run a read-only SQL query."""
    return "1 row"


def open_browser():
    return RecordingComputer()


def allow_all(check):
    return True


def load_named(params, searchable):
    return params.paths
'''


def card(tmp_path: Path, client_tools: str) -> Path:
    (tmp_path / "handlers.py").write_text(HANDLERS)
    path = tmp_path / "card.md"
    path.write_text(f"---\nname: ops\nclient_tools:\n{client_tools}\n---\nWork.\n")
    return path


def tools_of(path: Path) -> dict[str, Any]:
    return {tool.name: tool for tool in load_card(path).render().tools}


def test_custom_computer_and_search_tools_are_built(tmp_path: Path) -> None:
    path = card(
        tmp_path,
        "  - {kind: custom, handler: handlers.py:run_sql,"
        " config: {grammar: {syntax: regex, definition: '^SELECT .+$'}}}\n"
        "  - {kind: computer, handler: handlers.py:open_browser,"
        " acknowledge: handlers.py:allow_all}\n"
        "  - {kind: computer_use_preview, name: preview, handler: handlers.py:open_browser,"
        " config: {environment: browser, display_width: 1280, display_height: 800}}\n"
        "  - {kind: tool_search, handler: handlers.py:load_named}",
    )
    tools = tools_of(path)
    assert {name: getattr(t, "kind", None) for name, t in tools.items()} == {
        "run_sql": "custom",
        "computer": "computer",
        "preview": "computer_use_preview",
        "tool_search": "tool_search",
    }
    assert tools["run_sql"].config == CustomToolConfig(Grammar("regex", "^SELECT .+$"))
    assert tools["preview"].config == ComputerUsePreviewConfig("browser", 1280, 800)


@pytest.mark.parametrize(
    ("entry", "field", "fragment"),
    [
        ("{kind: custom}", "client_tools[0].handler", "custom tool needs the function"),
        ("{kind: computer}", "client_tools[0].handler", "needs the computer"),
        (
            "{kind: custom, handler: handlers.py:run_sql, config: {grammar: {syntax: ebnf,"
            " definition: x}}}",
            "client_tools[0].config.grammar.syntax",
            "lark",
        ),
        (
            "{kind: computer_use_preview, handler: handlers.py:open_browser,"
            " config: {environment: android, display_width: 1, display_height: 1}}",
            "client_tools[0].config.environment",
            "windows",
        ),
        ("{kind: tool_search, root: x}", "client_tools[0].root", "does not apply"),
        (
            "{kind: apply_patch, root: ., handler: handlers.py:run_sql}",
            "client_tools[0].handler",
            "does not apply",
        ),
        ("{kind: custom, handler: handlers.py:missing}", "client_tools[0].handler", "missing"),
    ],
)
def test_bad_entries_name_the_field(tmp_path: Path, entry: str, field: str, fragment: str) -> None:
    with pytest.raises(CardError) as raised:
        load_card(card(tmp_path, f"  - {entry}"))
    assert raised.value.field == field
    assert fragment in str(raised.value)
