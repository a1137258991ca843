"""``McpServerSection`` lifecycle against a real stdio MCP server process."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest
from mcp_helpers import (
    FIXED_TIME,
    SERVER,
    child_pids,
    demo_section,
    process_state,
    wait_gone,
    wait_no_new_children,
)

from tooltape import MarkdownSection, Prompt, PromptRenderError, PromptValidationError
from tooltape.mcp import McpServerError, McpServerSection, McpTool


def server_pid(section: McpServerSection) -> int:
    tool = next(t for t in section.tools() if t.remote_name == "pid")
    result = tool.handler({}, context=None)  # type: ignore[arg-type, misc]
    assert result.success, result.message
    return int(result.value.text)


def test_start_lists_filters_and_namespaces_the_servers_tools() -> None:
    section = demo_section(tools=["get_time", "add", "pid"])

    assert section.tools() == ()
    with section:
        tools = section.tools()
        assert [t.name for t in tools] == ["demo__get_time", "demo__add", "demo__pid"]
        assert [t.remote_name for t in tools] == ["get_time", "add", "pid"]
        assert all(isinstance(t, McpTool) for t in tools)
        assert {t.source for t in tools} == {"mcp"}
        assert {t.server_name for t in tools} == {"demo"}
        add = tools[1]
        assert add.description == "Add two integers."
        assert add.param_descriptions() == {"a": "The first addend.", "b": "The second addend."}
    assert section.tools() == ()


def test_parameters_schema_is_the_servers_input_schema() -> None:
    with demo_section(tools=["add", "get_time"]) as section:
        get_time, add = section.tools()
        schema = add.parameters_schema()

    assert schema["type"] == "object"
    assert schema["required"] == ["a"]
    assert schema["properties"]["a"]["type"] == "integer"
    assert schema["properties"]["b"] == {
        "default": 2,
        "description": "The second addend.",
        "title": "B",
        "type": "integer",
    }
    assert get_time.parameters_schema()["properties"] == {}


def test_without_a_filter_every_tool_is_exposed() -> None:
    with demo_section() as section:
        names = {t.remote_name for t in section.tools()}

    assert names == {"get_time", "add", "fail", "pid", "nap", "spawn", "crash"}


def test_an_unknown_filter_name_names_the_server_and_its_tools_and_stops_it() -> None:
    before = child_pids()
    section = demo_section(tools=["get_time", "get_weather"])

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert "'demo'" in message
    assert "'get_weather'" in message
    assert "add, crash, fail, get_time, nap, pid, spawn" in message
    assert not section.started
    assert wait_no_new_children(before) == set()


def test_leaving_the_block_stops_the_process_and_reaps_it() -> None:
    with demo_section() as section:
        pid = server_pid(section)
        assert process_state(pid) not in (None, "Z")

    assert wait_gone(pid), f"server {pid} still exists in state {process_state(pid)}"
    assert not [t for t in threading.enumerate() if t.name == "tooltape-mcp-demo"]


def test_an_error_inside_the_block_still_stops_the_process() -> None:
    section = demo_section()
    pid = 0
    with pytest.raises(RuntimeError, match="caller failed"), section:
        pid = server_pid(section)
        raise RuntimeError("caller failed")

    assert pid
    assert wait_gone(pid)
    assert not section.started


def test_a_section_can_be_started_again_after_it_was_closed() -> None:
    section = demo_section(tools=["pid"])
    with section:
        first = server_pid(section)
    with section:
        second = server_pid(section)

    assert first != second
    assert wait_gone(second)


def test_starting_twice_is_refused() -> None:
    with demo_section(tools=["pid"]) as section, pytest.raises(McpServerError, match="already"):
        section.start()


def test_a_missing_command_is_a_clear_error() -> None:
    section = McpServerSection("ghost", "/nonexistent/mcp-server", ["--stdio"])

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert "'ghost'" in message
    assert "/nonexistent/mcp-server --stdio" in message
    assert "FileNotFoundError" in message


def test_a_server_that_exits_at_once_reports_its_stderr_tail() -> None:
    before = child_pids()
    script = "import sys; sys.stderr.write('config file missing: /etc/demo.toml\\n'); sys.exit(3)"
    section = McpServerSection("broken", sys.executable, ["-c", script])

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert "'broken'" in message
    assert sys.executable in message
    assert "config file missing: /etc/demo.toml" in message
    assert wait_no_new_children(before) == set()


def test_a_server_that_never_answers_times_out_and_is_killed() -> None:
    before = child_pids()
    script = "import sys, time; print('not json-rpc', flush=True); time.sleep(60)"
    section = McpServerSection("mute", sys.executable, ["-c", script], startup_timeout_sec=0.5)

    with pytest.raises(McpServerError, match=r"no handshake within 0\.5 seconds"), section:
        pass

    assert wait_no_new_children(before) == set()


def test_rendering_before_start_tells_to_use_with() -> None:
    section = demo_section()
    prompt = Prompt(
        ns="tests",
        key="timed",
        sections=[MarkdownSection(title="Task", key="task", template="Tell the time."), section],
    )

    with pytest.raises(PromptRenderError, match="with section:"):
        prompt.render()


def test_a_started_server_renders_nothing_without_instructions() -> None:
    section = demo_section(tools=["get_time"])
    prompt = Prompt(
        ns="tests",
        key="timed",
        sections=[MarkdownSection(title="Task", key="task", template="Tell the time."), section],
    )

    with section:
        rendered = prompt.render()

    assert rendered.text == "## 1. Task\n\nTell the time."
    assert [t.name for t in rendered.tools] == ["demo__get_time"]


def test_server_instructions_are_rendered() -> None:
    section = demo_section("demo", "--instructions", "Times are in UTC.", tools=["get_time"])
    prompt = Prompt(ns="tests", key="timed", sections=[section])

    with section:
        rendered = prompt.render()

    assert rendered.text == "## 1. MCP server demo\n\nTimes are in UTC."


def test_clone_gives_a_stopped_copy_with_the_same_configuration() -> None:
    section = demo_section(tools=["get_time"])
    with section:
        copy = section.clone(key="mcp-demo-2")
        assert not copy.started
        with copy:
            result: Any = copy.tools()[0].handler({}, context=None)  # type: ignore[arg-type]
    assert result.value.text == FIXED_TIME
    assert copy.key == "mcp-demo-2"


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"name": "Bad Name", "command": "x"}, "MCP server name"),
        ({"name": "ok", "command": ""}, "command must be"),
        ({"name": "ok", "command": "x", "args": "--one"}, "args must be a list"),
        ({"name": "ok", "command": "x", "tools": ["a", 1]}, "tools must hold strings"),
        ({"name": "ok", "command": "x", "env": {"A": 1}}, "env must map strings"),
        ({"name": "ok", "command": "x", "startup_timeout_sec": 0}, "startup_timeout_sec=0"),
    ],
)
def test_bad_declarations_are_refused_when_built(arguments: dict[str, Any], fragment: str) -> None:
    with pytest.raises(PromptValidationError, match=fragment):
        McpServerSection(**arguments)


def test_the_server_script_exists() -> None:
    assert SERVER.is_file()


def test_two_servers_under_one_name_are_told_apart_in_the_refusal() -> None:
    # Both take the key 'mcp-weather' from their name; the message must show which two.
    local = McpServerSection("weather", sys.executable, [str(SERVER)])
    remote = McpServerSection("weather", url="http://127.0.0.1:9/mcp")
    with pytest.raises(PromptValidationError) as refused:
        Prompt(ns="tests", key="two-weathers", sections=[local, remote])
    message = str(refused.value)
    assert "'mcp-weather'" in message
    assert "command=" in message and "url='http://127.0.0.1:9/mcp'" in message
    assert "key=" in message
