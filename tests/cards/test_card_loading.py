"""Loading a valid card: what the prompt, its tools, hooks, hosted tools and agents become."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tooltape import HostedTool, Prompt
from tooltape.agents import AgentTool
from tooltape.cards import LoadedCard, load_card, read_card
from tooltape.mcp import McpServerError, McpServerSection, running_servers
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.web_search import DomainFilter, WebSearchConfig

CARDS = Path(__file__).parent / "pmo_cards"
PMO = CARDS / "pmo.md"


@dataclass(frozen=True)
class Report:
    count: int


@pytest.fixture(scope="module")
def pmo() -> LoadedCard:
    return read_card(PMO)


def test_the_card_declares_name_model_and_hooks(pmo: LoadedCard) -> None:
    assert pmo.name == "pmo"
    assert pmo.model == "gpt-4.1-mini"
    assert pmo.prompt.name == "pmo"
    assert [h.__name__ for h in pmo.prompt.tool_hooks] == ["audit", "guard"]
    assert pmo.path == PMO


def test_tools_are_built_in_declaration_order(pmo: LoadedCard) -> None:
    names = [t.name for t in pmo.prompt.tools]

    assert names == ["add_one", "wipe", "apply_patch", "shell", "ny_manager", "london"]
    assert isinstance(pmo.prompt.tools[2], ClientExecutedTool)
    assert isinstance(pmo.prompt.tools[3], ClientExecutedTool)
    assert pmo.prompt.tools[0].parameters_schema()["properties"]["x"]["type"] == "integer"


def test_hosted_tool_config_is_built_into_the_kinds_dataclass(pmo: LoadedCard) -> None:
    (search,) = pmo.prompt.hosted_tools

    assert isinstance(search, HostedTool)
    assert (search.kind, search.name) == ("web_search", "search")
    assert search.config == WebSearchConfig(
        domain_filter=DomainFilter(allowed=("example.com",)), context_size="low"
    )


def test_agents_become_agent_tools_with_the_cards_limits(pmo: LoadedCard) -> None:
    ny, london = (t for t in pmo.prompt.tools if isinstance(t, AgentTool))

    assert ny.description == "The New York project manager; answers status questions."
    assert london.description == "Ask the london agent."
    assert (ny.max_parallel, ny.child_timeout_sec) == (2, 30.0)
    assert [a.name for a in pmo.agents] == ["ny_manager", "london_manager"]
    assert ny.child is pmo.agents[0].prompt


def test_an_agent_card_without_message_gets_a_request_section(pmo: LoadedCard) -> None:
    ny, london = pmo.agents

    from tooltape.agents import AgentRequest

    ny_text = ny.prompt.render(AgentRequest(message="Status of Atlas?")).text
    london_text = london.prompt.render(AgentRequest(message="Economics?")).text

    assert ny_text.endswith("## 2. Request\n\nStatus of Atlas?")
    assert london_text == (
        "## 1. Instructions\n\nYou manage the London projects. The question is: Economics?"
    )


def test_mcp_servers_are_sections_that_start_with_the_card(pmo: LoadedCard) -> None:
    (section,) = pmo.mcp_sections

    assert isinstance(section, McpServerSection)
    assert section.name == "time"
    assert section.tool_filter == ("get_time", "nap")
    assert section.command.cwd == CARDS
    assert section.tools() == ()
    with pmo:
        assert [t.name for t in section.tools()] == ["time__get_time", "time__nap"]
        rendered = pmo.prompt.render(Report(count=41))
    assert not section.started
    assert "Add one to 41 before reporting it." in rendered.text
    assert [t.name for t in rendered.tools][-2:] == ["time__get_time", "time__nap"]


def test_load_card_returns_the_prompt_and_running_servers_starts_its_servers() -> None:
    prompt = load_card(PMO)

    assert isinstance(prompt, Prompt)
    with running_servers(prompt) as sections:
        assert [s.name for s in sections] == ["time"]
        assert sections[0].started
    assert not sections[0].started


def test_a_child_card_used_twice_is_loaded_once(tmp_path: Path) -> None:
    write(tmp_path / "child.md", "name: child", "Help with $message.")
    write(
        tmp_path / "parent.md",
        "name: parent\nagents:\n  - child.md\n  - {card: ./child.md, name: child_again}",
        "Delegate.",
    )

    card = read_card(tmp_path / "parent.md")

    first, second = (t for t in card.prompt.tools if isinstance(t, AgentTool))
    assert first.child is second.child
    assert card.agents[0] is card.agents[1]


def test_mcp_servers_of_agent_cards_start_with_the_parent(tmp_path: Path) -> None:
    server = Path(__file__).parents[1] / "mcp" / "servers" / "demo_server.py"
    write(
        tmp_path / "timekeeper.md",
        f"name: timekeeper\nmcp_servers:\n  - {{name: clock, command: python, args: [{server}]}}",
        "Tell the time.",
    )
    write(tmp_path / "lead.md", "name: lead\nagents: [timekeeper.md]", "Ask the timekeeper.")

    card = read_card(tmp_path / "lead.md")

    (section,) = card.mcp_sections
    with card:
        assert section.started
        assert "clock__get_time" in [t.name for t in section.tools()]
    assert not section.started


def test_relative_paths_resolve_against_the_cards_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "deep" / "cards"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "tools.py").write_text(
        'def shout(text: str) -> str:\n    """Shout it."""\n    return text.upper()\n'
    )
    write(folder / "card.md", "name: shouter\nfunction_tools: [lib/tools.py:shout]", "Shout.")
    monkeypatch.chdir(tmp_path)

    prompt = load_card(Path("deep/cards/card.md"))

    assert [t.name for t in prompt.tools] == ["shout"]


def write(path: Path, front_matter: str, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front_matter}\n---\n{textwrap.dedent(body)}\n", encoding="utf-8")
    return path


def test_if_one_server_fails_to_start_the_others_are_stopped(tmp_path: Path) -> None:
    server = Path(__file__).parents[1] / "mcp" / "servers" / "demo_server.py"
    write(
        tmp_path / "card.md",
        "name: two\nmcp_servers:\n"
        f"  - {{name: good, command: python, args: [{server}]}}\n"
        "  - {name: bad, command: /nonexistent/server}",
        "Use both.",
    )
    card = read_card(tmp_path / "card.md")
    good, bad = card.mcp_sections

    with pytest.raises(McpServerError, match="'bad'"), card:
        pass

    assert not good.started
    assert not bad.started


TOOLS_WITHOUT_NAMES = '''
import functools


def add_one(x: int) -> int:
    """Add one to x."""
    return x + 1


class Weather:
    """Weather for a city."""

    def __call__(self, city: str) -> str:
        return city


def _search(query: str, api_key: str) -> str:
    """Search the index."""
    return query


local_weather = Weather()
search = functools.partial(_search, api_key="not-a-real-key")
plus = add_one
'''


def test_a_callable_instance_or_partial_tool_is_named_as_the_card_names_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "tools.py").write_text(TOOLS_WITHOUT_NAMES, encoding="utf-8")
    specs = "[tools.py:local_weather, tools.py:search, tools.py:plus]"
    card = read_card(write(tmp_path / "card.md", f"name: c\nfunction_tools: {specs}", "Go."))

    names = [tool.name for tool in card.prompt.render().tools]
    assert names == ["local_weather", "search", "add_one"], "a function keeps its own name"
