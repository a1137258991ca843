"""local_shell_tool runs commands through its executor and reports what they did."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, cast

import pytest

from tooltape.prompt import PromptValidationError, ToolResult
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.shell import ShellCall, ShellOutput, ShellResult, local_shell_tool


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
