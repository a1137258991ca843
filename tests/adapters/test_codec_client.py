"""Client-executed provider tools on the wire: call item -> tool arguments -> handler ->
``*_output`` item, each checked against the SDK's own types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest
from openai.types.responses import Response, ResponseInputItemParam, ToolParam
from openai.types.responses.response_create_params import ToolChoice
from pydantic import ConfigDict, TypeAdapter

from tooltape.adapters.codec import ClientToolCodec
from tooltape.adapters.openai.codecs import (
    ApplyPatchCodec,
    LocalShellCodec,
    default_client_tool_codecs,
)
from tooltape.prompt import Tool, ToolResult
from tooltape.tools.apply_patch import apply_patch_tool
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.shell import local_shell_tool

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "responses"
STRICT_INPUT: TypeAdapter[Any] = TypeAdapter(
    ResponseInputItemParam, config=ConfigDict(extra="forbid")
)
STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_CHOICE: TypeAdapter[Any] = TypeAdapter(ToolChoice, config=ConfigDict(extra="forbid"))


def calls(name: str) -> list[list[Any]]:
    body = json.loads((FIXTURES / name).read_text())
    assert body["_provenance"].startswith("synthetic: ")
    return [body["output"], list(Response.construct(**body).output)]


def run(tool: Tool[Any, Any], arguments: dict[str, Any]) -> ToolResult[Any]:
    params = tool.schema.validate(arguments)
    assert tool.handler is not None
    return tool.handler(params, context=cast(Any, None))


def test_registry_and_protocol() -> None:
    codecs = default_client_tool_codecs()
    assert {"apply_patch", "shell", "local_shell"} <= set(codecs)
    assert all(codec.kind == kind for kind, codec in codecs.items())
    typed: dict[str, ClientToolCodec] = {"a": ApplyPatchCodec(), "s": LocalShellCodec()}
    assert [c.call_item_type for c in typed.values()] == ["apply_patch_call", "shell_call"]
    assert ApplyPatchCodec().item_types == ("apply_patch_call",)
    assert LocalShellCodec().item_types == ("shell_call",)


def test_specs_and_choices_are_sdk_valid(tmp_path: Path) -> None:
    patch = ApplyPatchCodec()
    shell = LocalShellCodec()
    patch_tool, shell_tool = apply_patch_tool(tmp_path), local_shell_tool()
    assert patch.serialize(patch_tool) == {"type": "apply_patch"}
    assert shell.serialize(shell_tool) == {"type": "shell", "environment": {"type": "local"}}
    for spec in (patch.serialize(patch_tool), shell.serialize(shell_tool)):
        STRICT_TOOL.validate_python(spec)
    for choice in (patch.tool_choice(patch_tool), shell.tool_choice(shell_tool)):
        STRICT_CHOICE.validate_python(choice)


def test_local_shell_skills_are_listed_in_the_local_environment() -> None:
    from tooltape.tools.skills import LocalSkill

    skill = LocalSkill("lint", "Lints the repository", "./skills/lint")
    spec = LocalShellCodec().serialize(local_shell_tool(skills=[skill]))
    assert spec == {
        "type": "shell",
        "environment": {
            "type": "local",
            "skills": [
                {"name": "lint", "description": "Lints the repository", "path": "./skills/lint"}
            ],
        },
    }
    STRICT_TOOL.validate_python(spec)


def test_client_tools_announce_their_kind(tmp_path: Path) -> None:
    patch_tool, shell_tool = apply_patch_tool(tmp_path), local_shell_tool()
    assert isinstance(patch_tool, ClientExecutedTool) and patch_tool.kind == "apply_patch"
    assert isinstance(shell_tool, ClientExecutedTool) and shell_tool.kind == "shell"
    assert not patch_tool.accepts_overrides


@pytest.mark.parametrize("form", [0, 1])
def test_apply_patch_round_trip(form: int, tmp_path: Path) -> None:
    codec, tool = ApplyPatchCodec(), apply_patch_tool(tmp_path)
    (tmp_path / "old.txt").write_text("bye\n")
    create, update, delete = calls("apply_patch_calls.json")[form]
    answers: list[dict[str, Any]] = []
    for item in (create, update, delete):
        arguments = codec.call_arguments(item)
        result = run(tool, arguments)
        assert result.success, result.message
        answers.append(codec.output_item(item, result))
    assert codec.call_arguments(update) == {
        "operation": {
            "type": "update_file",
            "path": "src/greet.py",
            "diff": "@@ def greet(name):\n-    return 'hi ' + name\n+    return f'hello {name}'\n",
        }
    }
    assert codec.call_arguments(delete) == {"operation": {"type": "delete_file", "path": "old.txt"}}
    assert (tmp_path / "src" / "greet.py").read_text() == (
        "def greet(name):\n    return f'hello {name}'\n"
    )
    assert not (tmp_path / "old.txt").exists()
    assert answers[0] == {
        "type": "apply_patch_call_output",
        "call_id": "call_ap_1",
        "status": "completed",
        "output": "Created src/greet.py.",
    }
    for answer in answers:
        STRICT_INPUT.validate_python(answer)


def test_apply_patch_failure_goes_back_as_failed_output(tmp_path: Path) -> None:
    codec, tool = ApplyPatchCodec(), apply_patch_tool(tmp_path)
    item = {
        "type": "apply_patch_call",
        "call_id": "call_x",
        "status": "completed",
        "operation": {"type": "update_file", "path": "missing.py", "diff": "-a\n+b\n"},
    }
    answer = codec.output_item(item, run(tool, codec.call_arguments(item)))
    assert answer["status"] == "failed"
    assert "missing.py does not exist; use create_file" in answer["output"]
    STRICT_INPUT.validate_python(answer)


@pytest.mark.parametrize("form", [0, 1])
def test_local_shell_round_trip(form: int) -> None:
    codec, tool = LocalShellCodec(), local_shell_tool()
    (item,) = calls("local_shell_call.json")[form]
    arguments = codec.call_arguments(item)
    assert arguments == {
        "commands": ["echo hello", "sh -c 'exit 3'"],
        "timeout_ms": 10000,
        "max_output_length": 200,
    }
    assert codec.call_id(item) == "call_local_1"
    answer = codec.output_item(item, run(tool, arguments))
    assert answer == {
        "type": "shell_call_output",
        "call_id": "call_local_1",
        "status": "completed",
        "output": [
            {"stdout": "hello\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}},
            {"stdout": "", "stderr": "", "outcome": {"type": "exit", "exit_code": 3}},
        ],
        "max_output_length": 200,
    }
    STRICT_INPUT.validate_python(answer)


def test_local_shell_failed_result_and_timeout_outputs() -> None:
    codec = LocalShellCodec()
    item = {"type": "shell_call", "call_id": "c1", "action": {"commands": []}}
    failed = codec.output_item(item, ToolResult.error("shell call has no commands"))
    assert failed["output"] == [
        {
            "stdout": "",
            "stderr": "shell call has no commands",
            "outcome": {"type": "exit", "exit_code": 1},
        }
    ]
    STRICT_INPUT.validate_python(failed)
    slow = local_shell_tool(timeout_s=0.2)
    result = run(slow, {"commands": ["sleep 5"]})
    answer = codec.output_item(item, result)
    assert answer["output"][0]["outcome"] == {"type": "timeout"}
    STRICT_INPUT.validate_python(answer)
