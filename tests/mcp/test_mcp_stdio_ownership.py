"""A stdio MCP server is owned whole: its own process group, killed with all it started,
and its ``env`` values shown nowhere."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from mcp_helpers import demo_section, process_state, wait_gone

from tooltape.cards.front_matter import McpServerEntry
from tooltape.mcp import McpServerError, McpServerSection, ServerCommand

TOKEN = "sk-env-secret-0042-token"


@contextmanager
def killed_afterwards(pids: list[int]) -> Iterator[list[int]]:
    """Kill whatever a server left behind, also when the test fails."""
    try:
        yield pids
    finally:
        for pid in pids:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def gone_or_zombie(pid: int, timeout: float = 10.0) -> bool:
    # A killed grandchild is adopted by init, which may leave it a zombie a while.
    return wait_gone(pid, timeout) or process_state(pid) == "Z"


def call_value(section: McpServerSection, remote_name: str, **arguments: object) -> int:
    tool = next(t for t in section.tools() if t.remote_name == remote_name)
    result = tool.handler(arguments, context=None)  # type: ignore[arg-type]
    assert result.success, result.message
    return int(result.value.text)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_closing_kills_everything_the_server_started() -> None:
    section = demo_section(tools=["pid", "spawn"])
    with killed_afterwards([]) as pids:
        with section:
            server = call_value(section, "pid")
            assert os.getpgid(server) == server != os.getpgrp()
            pids.append(call_value(section, "spawn"))
            pids.append(call_value(section, "spawn", detach=True))
            pids.append(call_value(section, "spawn", detach=True, keep_wire=True))
            # alive (a child just started may still be running, "R", on a busy machine)
            assert [process_state(pid) not in (None, "Z") for pid in pids] == [True] * 3
            assert os.getpgid(pids[0]) == server and os.getpgid(pids[1]) != server
        assert wait_gone(server)
        assert [pid for pid in pids if not gone_or_zombie(pid)] == []


def test_reprs_never_show_env_values() -> None:
    section = McpServerSection("keyed", sys.executable, ["server.py"], env={"API_KEY": TOKEN})
    entry = McpServerEntry(name="keyed", command="python", env={"API_KEY": TOKEN})
    remote = McpServerEntry(name="web", url="http://127.0.0.1:1/mcp", headers={"X-Key": TOKEN})
    command = section.command
    assert command is not None
    texts = [repr(section), repr(command), str(command), repr(entry), repr(section.clone())]
    texts.append(repr(remote))
    assert "env=['API_KEY']" in texts[1] and "env=['API_KEY']" in texts[3]
    assert "headers=['X-Key']" in texts[-1]
    assert [text for text in texts if TOKEN in text] == []
    assert command == ServerCommand(sys.executable, ("server.py",), {"API_KEY": TOKEN})


def test_a_server_that_prints_its_env_fails_without_showing_it() -> None:
    leak = "import os, sys; sys.stderr.write('key=' + os.environ['API_KEY'] + '\\n'); sys.exit(2)"
    section = McpServerSection("leaky", sys.executable, ["-c", leak], env={"API_KEY": TOKEN})

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert "MCP server 'leaky'" in message and "did not start" in message
    assert "key=***" in message
    assert TOKEN not in message


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_detached_child_of_a_crashed_server_is_found_by_the_pipe_it_holds() -> None:
    # The server is gone before close(), so no parent link leads to its child,
    # and the child left the group: only the server's pipe it still holds does.
    section = demo_section(tools=["spawn", "crash"], call_timeout_sec=3)
    with killed_afterwards([]) as pids:
        with section:
            pids.append(call_value(section, "spawn", detach=True, keep_wire=True))
            crash = next(t for t in section.tools() if t.remote_name == "crash")
            assert not crash.handler({}, context=None).success  # type: ignore[arg-type]
            assert process_state(pids[0]) not in (None, "Z")
        assert gone_or_zombie(pids[0])
