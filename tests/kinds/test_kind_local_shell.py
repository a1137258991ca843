"""The legacy local_shell tool end to end: exec actions run through the shell executor."""

from __future__ import annotations

import getpass
import json
import sys
from pathlib import Path
from typing import Any, cast

import pytest
from kind_helpers import evaluate, final_answer, synthetic
from openai.types.responses import Response, ResponseInputItemParam
from openapi_tools import assert_wire_valid
from pydantic import TypeAdapter

from tooltape.adapters.openai.codecs import LocalShellExecCodec, default_client_tool_codecs
from tooltape.cards import load_card
from tooltape.prompt import PromptValidationError, ToolResult
from tooltape.tools.local_shell import (
    LocalShellExec,
    LocalShellExecSection,
    local_shell_exec_tool,
    shell_line,
)
from tooltape.tools.shell import ShellOutput

CODEC = LocalShellExecCodec()
MODEL = "codex-mini-latest"  # the one model the capability table lets use local_shell
SDK_INPUT: TypeAdapter[Any] = TypeAdapter(ResponseInputItemParam)


def run(tool: Any, arguments: dict[str, Any]) -> ToolResult[Any]:
    return tool.handler(tool.schema.validate(arguments), context=cast(Any, None))


def call_item(**action: Any) -> dict[str, Any]:
    return {
        "id": "lsh_1",
        "type": "local_shell_call",
        "call_id": "call_1",
        "status": "completed",
        "action": {"type": "exec", "env": {}, **action},
    }


def test_the_argument_vector_reaches_the_program_unchanged(tmp_path: Path) -> None:
    tool = local_shell_exec_tool(cwd=tmp_path)
    script = "import sys; print(sys.argv[1:])"
    result = run(tool, {"command": [sys.executable, "-c", script, "a b", "c'd", "$HOME"]})
    assert result.success and isinstance(result.value, ShellOutput)
    assert result.value.stdout == "['a b', \"c'd\", '$HOME']\n"
    assert result.value.exit_code == 0


def test_env_timeout_and_working_directory_are_applied(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    tool = local_shell_exec_tool(cwd=tmp_path, timeout_s=30)
    result = run(
        tool,
        {
            "command": ["sh", "-c", 'echo "$GREETING"; pwd'],
            "env": {"GREETING": "it's me"},
            "working_directory": "sub",
        },
    )
    assert result.value is not None
    assert result.value.stdout.splitlines() == ["it's me", str(tmp_path / "sub")]
    slow = run(tool, {"command": ["sleep", "5"], "timeout_ms": 100})
    assert slow.success and slow.value is not None and slow.value.timed_out
    failing = run(tool, {"command": ["sh", "-c", "exit 3"]})
    assert failing.success and failing.value is not None and failing.value.exit_code == 3


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"command": []}, "empty command"),
        ({"command": ["true"], "user": "not-" + getpass.getuser()}, "Cannot run as user"),
        ({"command": ["true"], "working_directory": "missing"}, "does not exist"),
        ({"command": ["true"], "env": {"BAD-NAME": "x"}}, "BAD-NAME"),
    ],
)
def test_calls_that_cannot_run_fail_without_running(
    arguments: dict[str, Any], fragment: str, tmp_path: Path
) -> None:
    ran: list[str] = []

    def executor(command: str, *, cwd: Path | None, timeout_s: float) -> ShellOutput:
        ran.append(command)
        return ShellOutput("", "", 0)

    result = run(local_shell_exec_tool(executor, cwd=tmp_path), arguments)
    assert not result.success and fragment in result.message
    assert ran == []


def test_the_shell_executor_seam_is_reused(tmp_path: Path) -> None:
    seen: list[tuple[str, Path | None, float]] = []

    def executor(command: str, *, cwd: Path | None, timeout_s: float) -> ShellOutput:
        seen.append((command, cwd, timeout_s))
        return ShellOutput("ok\n", "", 0)

    tool = local_shell_exec_tool(executor, cwd=tmp_path, timeout_s=20)
    run(tool, {"command": ["ls", "-l", "my dir"], "env": {"A": "1"}, "timeout_ms": 5000})
    assert seen == [("A=1 ls -l 'my dir'", tmp_path, 5.0)]
    assert shell_line(LocalShellExec(("echo",), {"X": "a b"})) == "X='a b' echo"


def test_factory_checks_its_arguments(tmp_path: Path) -> None:
    with pytest.raises(PromptValidationError, match="timeout_s"):
        local_shell_exec_tool(timeout_s=0)
    with pytest.raises(PromptValidationError, match="not a directory"):
        local_shell_exec_tool(cwd=tmp_path / "missing")


@pytest.mark.parametrize("form", ["dict", "sdk"])
def test_codec_reads_the_call_and_answers_with_a_json_report(form: str) -> None:
    body = synthetic("local_shell_exec_call.json")
    item: Any = body["output"][0]
    if form == "sdk":
        item = Response.construct(**body).output[0]
    arguments = CODEC.call_arguments(item)
    assert arguments == {
        "command": ["sh", "-c", 'echo "$GREETING from tooltape"'],
        "env": {"GREETING": "hello"},
        "timeout_ms": 10000,
    }
    ok = CODEC.output_item(item, ToolResult.ok(ShellOutput("hi\n", "", 0)))
    assert json.loads(ok.pop("output")) == {
        "stdout": "hi\n",
        "stderr": "",
        "exit_code": 0,
        "timed_out": False,
    }
    assert ok == {
        "type": "local_shell_call_output",
        "id": "call_lsh_exec",
        "call_id": "call_lsh_exec",
        "status": "completed",
    }
    failed = CODEC.output_item(item, ToolResult.error("no such user"))
    assert json.loads(failed["output"]) == {"error": "no such user"}
    assert failed["status"] == "incomplete"
    for answer in (failed, {**ok, "output": "{}"}):
        assert_wire_valid("LocalShellToolCallOutput", answer)
        SDK_INPUT.validate_python(answer)


def test_spec_and_tool_choice_are_spec_valid() -> None:
    tool = local_shell_exec_tool()
    assert CODEC.serialize(tool) == {"type": "local_shell"}
    assert_wire_valid("Tool", CODEC.serialize(tool))
    assert_wire_valid("ToolChoiceParam", CODEC.tool_choice(tool))
    assert default_client_tool_codecs()["local_shell"] is not None


def test_evaluation_runs_the_call_and_answers_it(tmp_path: Path) -> None:
    tool = local_shell_exec_tool(cwd=tmp_path)
    done = evaluate(
        synthetic("local_shell_exec_call.json"), final_answer(), tools=(tool,), model=MODEL
    )
    assert done.sent[0]["tools"] == [{"type": "local_shell"}]
    (answer,) = done.inputs_of_type(1, "local_shell_call_output")
    assert json.loads(answer["output"])["stdout"] == "hello from tooltape\n"
    (event,) = done.invocations("local_shell")
    assert (event.source, event.call_id, event.result.success) == ("native", "call_lsh_exec", True)
    assert done.response.text == "Done."


def test_a_failing_call_is_reported_and_the_evaluation_goes_on(tmp_path: Path) -> None:
    tool = local_shell_exec_tool(cwd=tmp_path)
    refused = {"output": [call_item(command=["true"], user="not-" + getpass.getuser())]}
    done = evaluate(
        {**synthetic("local_shell_exec_call.json"), **refused},
        final_answer(),
        tools=(tool,),
        model=MODEL,
    )
    (event,) = done.invocations("local_shell")
    assert not event.result.success and event.rendered_output == ""
    (answer,) = done.inputs_of_type(1, "local_shell_call_output")
    assert "Cannot run as user" in json.loads(answer["output"])["error"]


def test_section_and_card(tmp_path: Path) -> None:
    section = LocalShellExecSection(local_shell_exec_tool(cwd=tmp_path))
    assert section.tools()[0].name == "local_shell"
    assert section.clone(key="other").tools() == section.tools()
    card = tmp_path / "card.md"
    card.write_text(
        "---\nname: ops\nclient_tools:\n  - {kind: local_shell_exec, cwd: ., timeout_s: 5}\n"
        "---\nRun it.\n"
    )
    (tool,) = load_card(card).render().tools
    assert getattr(tool, "kind", None) == "local_shell"
