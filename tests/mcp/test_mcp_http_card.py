"""A prompt card whose ``mcp_servers`` entry gives a ``url``: loaded, started and run over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_helpers import FIXED_TIME, HttpServer, prompt_executor, serving_http, unused_port

from tooltape.cards import CardError, read_card
from tooltape.mcp import McpServerError, ServerUrl, running_servers
from tooltape.runtime import ToolCall

HOOKS = """
BLOCKED = {("mcp", "web__add")}


def guard(ctx, args, call_next):
    from tooltape import ToolResult

    if (ctx.tool_source, ctx.tool_name) in BLOCKED:
        return ToolResult.error(f"blocked by policy: {ctx.tool_source} {ctx.tool_name}")
    return call_next(args)
"""


@pytest.fixture(scope="module")
def server() -> Iterator[HttpServer]:
    with serving_http() as running:
        yield running


def write_card(folder: Path, url: str, headers: str = "{X-Project: atlas-project}") -> Path:
    (folder / "hooks.py").write_text(HOOKS, encoding="utf-8")
    path = folder / "web.md"
    path.write_text(
        "---\n"
        "name: web_card\n"
        "tool_hooks: [hooks.py:guard]\n"
        "mcp_servers:\n"
        "  - name: web\n"
        f"    url: {url}\n"
        f"    headers: {headers}\n"
        "    tools: [get_time, add, header]\n"
        "    startup_timeout_sec: 10\n"
        "---\n"
        "Tell the time.\n",
        encoding="utf-8",
    )
    return path


def test_a_card_with_a_url_loads_starts_and_runs_its_tools(
    server: HttpServer, tmp_path: Path
) -> None:
    card = read_card(write_card(tmp_path, server.url))
    (section,) = card.mcp_sections

    assert section.endpoint == ServerUrl(server.url, {"X-Project": "atlas-project"})
    assert section.startup_timeout_sec == 10
    assert section.tools() == ()
    with card:
        rendered = card.prompt.render()
        executor, session = prompt_executor(card.prompt)
        time = executor.execute(ToolCall("web__get_time", {}))
        header = executor.execute(ToolCall("web__header", {"name": "X-Project"}))
        added = executor.execute(ToolCall("web__add", {"a": 1}))

    assert [t.name for t in rendered.tools] == ["web__get_time", "web__add", "web__header"]
    assert time.render() == FIXED_TIME
    assert header.render() == "atlas-project"
    assert added.message == "blocked by policy: mcp web__add"
    assert [(e.name, e.source) for e in session.tool_invocations] == [
        ("web__get_time", "mcp"),
        ("web__header", "mcp"),
        ("web__add", "mcp"),
    ]
    assert not section.started


def test_a_card_whose_server_is_not_running_fails_to_start_clearly(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{unused_port()}/mcp"
    card = read_card(write_card(tmp_path, url))

    with pytest.raises(McpServerError) as caught, running_servers(card.prompt):
        pass

    message = str(caught.value)
    assert f"MCP server 'web' (url: {url}) could not be reached" in message
    assert "atlas-project" not in message
    assert not card.mcp_sections[0].started


def test_header_values_are_read_from_the_environment(
    server: HttpServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLTAPE_TEST_PROJECT", "from-env")
    card = read_card(write_card(tmp_path, server.url, '{X-Project: "p-${TOOLTAPE_TEST_PROJECT}"}'))
    assert card.mcp_sections[0].endpoint == ServerUrl(server.url, {"X-Project": "p-from-env"})
    with card:
        executor, _ = prompt_executor(card.prompt)
        header = executor.execute(ToolCall("web__header", {"name": "X-Project"}))
    assert header.render() == "p-from-env"


def test_a_header_naming_an_unset_variable_is_a_card_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLTAPE_TEST_UNSET", raising=False)
    path = write_card(
        tmp_path, "http://127.0.0.1:9/mcp", '{Authorization: "Bearer ${TOOLTAPE_TEST_UNSET}"}'
    )
    with pytest.raises(CardError) as raised:
        read_card(path)
    message = str(raised.value)
    assert "web.md" in message
    assert "mcp_servers[0].headers.Authorization" in message
    assert "TOOLTAPE_TEST_UNSET is not set" in message
