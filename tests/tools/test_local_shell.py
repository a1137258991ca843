"""local_shell_tool runs commands through its executor and reports what they did."""

from __future__ import annotations

import functools
import os
import signal
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, cast

import pytest

from tooltape.prompt import PromptValidationError, ToolResult
from tooltape.tools import local_command
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.local_command import DEFAULT_MAX_OUTPUT_BYTES
from tooltape.tools.shell import (
    ShellCall,
    ShellOutput,
    ShellResult,
    local_shell_tool,
    run_in_subprocess,
)


def run(tool: ClientExecutedTool[Any, Any], **arguments: Any) -> ToolResult[Any]:
    params = tool.schema.validate(arguments)
    assert isinstance(params, ShellCall)
    assert tool.handler is not None
    return tool.handler(params, context=cast(Any, None))


def test_it_is_a_client_executed_shell_tool() -> None:
    tool = local_shell_tool()
    assert isinstance(tool, ClientExecutedTool)
    assert (tool.kind, tool.name, tool.params_type) == ("shell", "shell", ShellCall)
    assert tool.param_descriptions()["commands"] == "Shell commands, run in order."


def test_echo_and_exit_codes() -> None:
    result = run(local_shell_tool(), commands=["echo hello", "sh -c 'exit 3'", "echo oops >&2"])
    assert result.success
    value = result.value
    assert isinstance(value, ShellResult)
    assert value.commands == ("echo hello", "sh -c 'exit 3'", "echo oops >&2")
    assert value.exit_codes == (0, 3, 0)
    assert value.outputs[0].stdout == "hello\n"
    assert value.outputs[2].stderr == "oops\n"
    assert result.message == "Ran 3 command(s): exit 0, exit 3, exit 0."


def test_timeout_kills_the_command_and_its_children() -> None:
    started = time.monotonic()
    result = run(local_shell_tool(timeout_s=0.3), commands=["sleep 5; echo late", "echo next"])
    elapsed = time.monotonic() - started
    assert elapsed < 3
    value = result.value
    assert isinstance(value, ShellResult)
    first, second = value.outputs
    assert first.timed_out and first.exit_code is None and "late" not in first.stdout
    assert (second.stdout, second.exit_code) == ("next\n", 0)
    assert "timed out" in result.message


def test_the_call_can_ask_for_a_shorter_timeout() -> None:
    started = time.monotonic()
    result = run(local_shell_tool(timeout_s=30), commands=["sleep 5"], timeout_ms=200)
    assert time.monotonic() - started < 3
    assert isinstance(result.value, ShellResult) and result.value.outputs[0].timed_out


def test_cwd_and_max_output_length(tmp_path: Path) -> None:
    (tmp_path / "marker.txt").write_text("x")
    result = run(
        local_shell_tool(cwd=tmp_path),
        commands=["ls", "printf 'abcdef'; printf 'xyz' >&2"],
        max_output_length=4,
    )
    value = result.value
    assert isinstance(value, ShellResult)
    assert value.outputs[0].stdout == "mark"
    assert (value.outputs[1].stdout, value.outputs[1].stderr) == ("abcd", "")
    wide = run(
        local_shell_tool(cwd=tmp_path),
        commands=["printf 'ab'; printf 'xyz' >&2"],
        max_output_length=4,
    )
    assert isinstance(wide.value, ShellResult)
    assert (wide.value.outputs[0].stdout, wide.value.outputs[0].stderr) == ("ab", "xy")


def test_custom_executor_receives_each_command() -> None:
    seen: list[tuple[str, Path | None, float]] = []

    def fake(command: str, *, cwd: Path | None, timeout_s: float) -> ShellOutput:
        seen.append((command, cwd, timeout_s))
        return ShellOutput(stdout=command.upper(), exit_code=7)

    result = run(local_shell_tool(fake, timeout_s=5), commands=["a", "b"], timeout_ms=1000)
    assert seen == [("a", None, 1.0), ("b", None, 1.0)]
    assert isinstance(result.value, ShellResult)
    assert result.value.stdout == "AB" and result.value.exit_codes == (7, 7)


def test_failures_are_failed_results() -> None:
    empty = run(local_shell_tool(), commands=[])
    assert not empty.success and "no commands" in empty.message

    def broken(command: str, *, cwd: Path | None, timeout_s: float) -> ShellOutput:
        raise FileNotFoundError(2, "No such file or directory", "/bin/sh")

    failed = run(local_shell_tool(broken), commands=["ls"])
    assert not failed.success and failed.value is None and "Could not run 'ls'" in failed.message


def test_bad_declarations_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PromptValidationError, match="timeout_s"):
        local_shell_tool(timeout_s=0)
    with pytest.raises(PromptValidationError, match="not a directory"):
        local_shell_tool(cwd=tmp_path / "missing")


def test_client_executed_tool_rules() -> None:
    with pytest.raises(PromptValidationError, match="needs a handler"):
        ClientExecutedTool(name="x", description="d", params_type=ShellCall, kind="shell")
    with pytest.raises(PromptValidationError, match="kind"):
        ClientExecutedTool(
            name="x",
            description="d",
            handler=local_shell_tool().handler,
            params_type=ShellCall,
            kind="Not A Kind",
        )


def running(pid: int) -> bool:
    """Whether ``pid`` is still a live process a moment later (a kill takes effect when
    the process is next scheduled; a zombie waiting for its parent is not live)."""
    for _ in range(100):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        if stat[stat.rfind(")") + 2] == "Z":
            return False
        time.sleep(0.02)
    return True


@contextmanager
def reaped(pids: list[int]) -> Iterator[list[int]]:
    """Kill whatever a test's command left behind, also when the test fails."""
    try:
        yield pids
    finally:
        for pid in pids:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)


linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def test_a_command_in_its_own_session_is_killed_at_the_deadline() -> None:
    # setsid forks a child in a new session that holds the pipes: reading to
    # the end of the output would wait for it, far past the deadline.
    started = time.monotonic()
    result = run(local_shell_tool(timeout_s=1), commands=["setsid sleep 14"])
    assert time.monotonic() - started < 5
    assert isinstance(result.value, ShellResult)
    assert result.value.outputs[0].timed_out and result.value.outputs[0].exit_code is None
    assert result.message == "Ran 1 command(s): timed out."


@linux_only
def test_children_that_left_the_group_do_not_survive_the_deadline() -> None:
    holding_the_pipes = "setsid sh -c 'echo $$; exec sleep 30' & wait"
    silent = "setsid sh -c 'echo $$ >&2; exec sleep 30 >/dev/null 2>&1' & wait"
    with reaped([]) as pids:
        result = run(local_shell_tool(timeout_s=1), commands=[holding_the_pipes, silent])
        assert isinstance(result.value, ShellResult)
        first, second = result.value.outputs
        pids += [int(first.stdout), int(second.stderr)]
        assert first.timed_out and second.timed_out
        assert [pid for pid in pids if running(pid)] == []


@linux_only
def test_an_orphan_still_holding_the_output_is_killed() -> None:
    # The shell is gone before the deadline; its grandchild left the group
    # and was adopted by init, and only the pipe it writes to leads to it.
    orphan = "(setsid sh -c 'echo $$ >&2; exec sleep 30' &); echo started"
    with reaped([]) as pids:
        started = time.monotonic()
        result = run(local_shell_tool(timeout_s=1), commands=[orphan])
        assert time.monotonic() - started < 5
        assert isinstance(result.value, ShellResult)
        output = result.value.outputs[0]
        pids.append(int(output.stderr))
        assert (output.stdout, output.timed_out) == ("started\n", True)
        assert not running(pids[0])


@linux_only
def test_what_a_finished_command_left_in_its_group_is_killed() -> None:
    with reaped([]) as pids:
        result = run(local_shell_tool(), commands=["sleep 30 >/dev/null 2>&1 & echo $!"])
        assert isinstance(result.value, ShellResult)
        pids.append(int(result.value.stdout))
        assert result.value.exit_codes == (0,)
        assert not running(pids[0])


def test_output_is_capped_while_it_is_read() -> None:
    tracemalloc.start()
    try:
        result = run(local_shell_tool(), commands=["head -c 300000000 /dev/zero; echo oops >&2"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 * 1024 * 1024
    assert isinstance(result.value, ShellResult)
    output = result.value.outputs[0]
    assert output.stdout.startswith("\0" * DEFAULT_MAX_OUTPUT_BYTES)
    dropped = 300_000_000 - DEFAULT_MAX_OUTPUT_BYTES
    assert output.stdout[DEFAULT_MAX_OUTPUT_BYTES:] == (
        f"\n[output truncated: {dropped} more bytes not kept]"
    )
    assert (output.stderr, output.exit_code, output.truncated) == ("oops\n", 0, True)
    assert result.message == "Ran 1 command(s): exit 0 (output truncated)."


def test_the_output_limit_is_the_executors_to_set_and_never_splits_a_character() -> None:
    small = functools.partial(run_in_subprocess, max_output_bytes=4)
    result = run(local_shell_tool(small), commands=["printf 'abc\\303\\251'; printf 'xy' >&2"])
    assert isinstance(result.value, ShellResult)
    output = result.value.outputs[0]
    assert output.stdout == "abc\n[output truncated: 2 more bytes not kept]"
    assert (output.stderr, output.truncated) == ("xy", True)
    whole = run(local_shell_tool(small), commands=["printf 'ab\\303\\251'"])
    assert isinstance(whole.value, ShellResult)
    assert (whole.value.stdout, whole.value.outputs[0].truncated) == ("abé", False)


def test_the_calls_output_length_marks_the_output_truncated() -> None:
    result = run(local_shell_tool(), commands=["echo 123456", "echo 1"], max_output_length=4)
    assert isinstance(result.value, ShellResult)
    assert [o.truncated for o in result.value.outputs] == [True, False]
    assert result.message == "Ran 2 command(s): exit 0 (output truncated), exit 0."


def test_without_pidfds_the_exit_is_noticed_by_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "pidfd_open")
    started = time.monotonic()
    result = run(
        local_shell_tool(timeout_s=1), commands=["echo hi; exit 4", "setsid sleep 14", "echo next"]
    )
    assert time.monotonic() - started < 6
    assert isinstance(result.value, ShellResult)
    assert result.value.exit_codes == (4, None, 0)
    assert result.value.stdout == "hi\nnext\n"


@linux_only
def test_an_interrupted_run_kills_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    pids: list[int] = []

    def interrupted(capture: object, data: bytes) -> None:
        pids.extend(int(word) for word in data.split())
        raise KeyboardInterrupt

    monkeypatch.setattr(local_command._Capture, "add", interrupted)  # pyright: ignore[reportPrivateUsage]
    with reaped(pids):
        with pytest.raises(KeyboardInterrupt):
            run_in_subprocess("echo $$; sleep 30", cwd=None, timeout_s=30)
        assert len(pids) == 1 and not running(pids[0])
