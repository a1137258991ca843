"""allowed_callers on code interpreter, hosted MCP, shell and apply_patch; program callers echoed.

Specs and answer items are checked against the OpenAPI components
(``tests/data/openapi``) and the installed SDK's types. The response bodies
built here are synthetic: no real recording of a program calling the shell or
apply_patch exists.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from kind_helpers import evaluate, final_answer
from openai.types.responses import Response, ResponseInputItemParam, ToolParam
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Prompt, Section
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import default_client_tool_codecs, default_hosted_tool_codecs
from tooltape.cards import CardError, load_card
from tooltape.prompt import PromptEvaluationError, PromptValidationError, ToolResult
from tooltape.testing.provider.faults import response_json
from tooltape.tools.apply_patch import ApplyPatchConfig, apply_patch_tool
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.code_interpreter import CodeInterpreterConfig, code_interpreter_tool
from tooltape.tools.function_options import FunctionOptions
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.programmatic_tool_calling import (
    ProgrammaticToolCallingResult,
    ProgramToolCall,
    programmatic_tool_calling_tool,
)
from tooltape.tools.shell import (
    ContainerReference,
    LocalShellConfig,
    ShellConfig,
    local_shell_tool,
    shell_tool,
)

STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_INPUT: TypeAdapter[Any] = TypeAdapter(
    ResponseInputItemParam, config=ConfigDict(extra="forbid")
)
HOSTED = default_hosted_tool_codecs()
CLIENT = default_client_tool_codecs()
MCP_URL = "https://mcp.deepwiki.com/mcp"
BOTH = ("direct", "programmatic")
PROGRAM = {"type": "program", "caller_id": "call_prog_edit"}


def _hosted(callers: Any) -> list[tuple[str, Any]]:
    return [
        (
            "CodeInterpreterTool",
            code_interpreter_tool(CodeInterpreterConfig(allowed_callers=callers)),
        ),
        (
            "CodeInterpreterTool",
            code_interpreter_tool(CodeInterpreterConfig("cntr_1", allowed_callers=callers)),
        ),
        ("MCPTool", hosted_mcp_tool(HostedMcpConfig("wiki", MCP_URL, allowed_callers=callers))),
        ("FunctionShellToolParam", shell_tool(ShellConfig(allowed_callers=callers))),
        (
            "FunctionShellToolParam",
            shell_tool(ShellConfig(ContainerReference("cntr_9"), allowed_callers=callers)),
        ),
    ]


def _client(root: Path, callers: Any) -> list[tuple[str, ClientExecutedTool[Any, Any]]]:
    return [
        ("FunctionShellToolParam", local_shell_tool(allowed_callers=callers)),
        ("ApplyPatchToolParam", apply_patch_tool(root, allowed_callers=callers)),
    ]


def _specs(root: Path, callers: Any) -> list[tuple[str, dict[str, Any]]]:
    hosted = [(c, HOSTED[t.kind].serialize(t)) for c, t in _hosted(callers)]
    client = [(c, CLIENT[t.kind].serialize(t)) for c, t in _client(root, callers)]
    return hosted + client


@pytest.mark.parametrize("callers", [("programmatic",), BOTH, ("direct",)])
def test_allowed_callers_is_sent_as_the_specification_says(
    callers: tuple[str, ...], tmp_path: Path
) -> None:
    for component, spec in _specs(tmp_path, callers):
        assert spec["allowed_callers"] == list(callers), spec
        assert_wire_valid(component, spec)
        assert_wire_valid("Tool", spec)
        STRICT_TOOL.validate_python(spec)


def test_allowed_callers_is_left_out_when_not_set(tmp_path: Path) -> None:
    for component, spec in _specs(tmp_path, None):
        assert "allowed_callers" not in spec, spec
        assert_wire_valid(component, spec)


@pytest.mark.parametrize(
    "config_type",
    [CodeInterpreterConfig, HostedMcpConfig, ShellConfig, LocalShellConfig, ApplyPatchConfig],
)
def test_the_field_comes_last_so_positional_construction_is_kept(config_type: type[Any]) -> None:
    assert dataclasses.fields(config_type)[-1].name == "allowed_callers"
    assert dataclasses.fields(config_type)[-1].default is None


BUILDERS: dict[str, Any] = {
    "CodeInterpreterConfig": lambda v: CodeInterpreterConfig(allowed_callers=v),
    "HostedMcpConfig": lambda v: HostedMcpConfig("wiki", MCP_URL, allowed_callers=v),
    "ShellConfig": lambda v: ShellConfig(allowed_callers=v),
    "LocalShellConfig": lambda v: LocalShellConfig(allowed_callers=v),
    "ApplyPatchConfig": lambda v: ApplyPatchConfig(allowed_callers=v),
    "local_shell_tool": lambda v: local_shell_tool(allowed_callers=v),
    "FunctionOptions": lambda v: FunctionOptions(allowed_callers=v),
}


@pytest.mark.parametrize("owner", sorted(BUILDERS))
@pytest.mark.parametrize(
    ("value", "problem", "fix"),
    [
        ("programmatic", "expected a sequence", "allowed_callers=('programmatic',)"),
        ((), "is empty", "name direct and/or programmatic"),
        (("robot",), "'robot' is not a caller", "use one of direct, programmatic"),
        ((None,), "None is not a caller", "use one of direct, programmatic"),
        (5, "expected a sequence", "allowed_callers=('direct', 'programmatic')"),
    ],
)
def test_a_bad_value_names_the_option_and_the_fix(
    owner: str, value: object, problem: str, fix: str
) -> None:
    with pytest.raises(PromptValidationError) as raised:
        BUILDERS[owner](value)
    message = str(raised.value)
    assert f"{owner}.allowed_callers: " in message
    assert problem in message and fix in message


def test_apply_patch_tool_checks_its_callers_too(tmp_path: Path) -> None:
    with pytest.raises(PromptValidationError, match=r"apply_patch_tool\.allowed_callers: "):
        apply_patch_tool(tmp_path, allowed_callers="direct")  # type: ignore[arg-type]


@pytest.mark.parametrize("owner", sorted(BUILDERS))
def test_repeats_are_dropped_and_lists_become_tuples(owner: str) -> None:
    built = BUILDERS[owner](["programmatic", "direct", "programmatic"])
    config = getattr(built, "config", built)
    assert config.allowed_callers == ("programmatic", "direct")


def test_a_programmatic_provider_tool_needs_programmatic_tool_calling(tmp_path: Path) -> None:
    hosted = (
        hosted_mcp_tool(HostedMcpConfig("wiki", MCP_URL, allowed_callers=("programmatic",))),
        shell_tool(ShellConfig(allowed_callers=BOTH)),
    )
    tools = (apply_patch_tool(tmp_path, allowed_callers=("programmatic",)),)
    section = Section(title="Tools", tools=tools, hosted_tools=hosted)
    prompt = Prompt(ns="tests", key="callers", sections=[section])
    adapter = OpenAIAdapter("gpt-5", capabilities={})
    with pytest.raises(PromptEvaluationError) as raised:
        adapter.build_request(prompt)
    assert "apply_patch, wiki, shell may be called by programs" in str(raised.value)
    assert "add programmatic_tool_calling_tool()" in str(raised.value)
    direct = Section(
        title="Tools",
        tools=(apply_patch_tool(tmp_path, allowed_callers=("direct",)),),
        hosted_tools=(shell_tool(ShellConfig(allowed_callers=("direct",))),),
    )
    body = adapter.build_request(Prompt(ns="tests", key="direct", sections=[direct]))
    assert [spec["allowed_callers"] for spec in body["tools"]] == [["direct"], ["direct"]]


def _program_edits() -> dict[str, Any]:
    """Synthetic: a program the model wrote runs a local shell command and creates a file."""
    return response_json(
        output=[
            {
                "id": "prog_synth_edit",
                "type": "program",
                "call_id": "call_prog_edit",
                "code": "await tools.shell(['echo hi']); await tools.apply_patch(op);",
                "fingerprint": "fp_synthetic_0003",
            },
            {
                "id": "sh_synth_prog",
                "type": "shell_call",
                "call_id": "call_sh_prog",
                "status": "completed",
                "action": {"commands": ["echo hi"], "timeout_ms": 10000, "max_output_length": 200},
                "environment": {"type": "local"},
                "caller": PROGRAM,
            },
            {
                "id": "apc_synth_prog",
                "type": "apply_patch_call",
                "call_id": "call_ap_prog",
                "status": "completed",
                "operation": {"type": "create_file", "path": "hi.txt", "diff": "+hi\n"},
                "caller": PROGRAM,
            },
            {
                "id": "apc_synth_direct",
                "type": "apply_patch_call",
                "call_id": "call_ap_direct",
                "status": "completed",
                "operation": {"type": "create_file", "path": "direct.txt", "diff": "+d\n"},
                "caller": {"type": "direct"},
            },
        ]
    )


def test_a_program_runs_the_local_shell_and_apply_patch_and_gets_its_answers(
    tmp_path: Path,
) -> None:
    tools = (
        local_shell_tool(cwd=tmp_path, allowed_callers=("programmatic",)),
        apply_patch_tool(tmp_path, allowed_callers=BOTH),
    )
    done = evaluate(
        _program_edits(),
        final_answer(),
        tools=tools,
        hosted=(programmatic_tool_calling_tool(),),
        model="gpt-5.4",
    )
    specs = {spec["type"]: spec for spec in done.sent[0]["tools"]}
    assert specs["shell"]["allowed_callers"] == ["programmatic"]
    assert specs["apply_patch"]["allowed_callers"] == list(BOTH)
    (shell_answer,) = done.inputs_of_type(1, "shell_call_output")
    assert shell_answer["caller"] == PROGRAM
    assert shell_answer["output"][0]["stdout"] == "hi\n"
    by_call = {a["call_id"]: a for a in done.inputs_of_type(1, "apply_patch_call_output")}
    assert by_call["call_ap_prog"]["caller"] == PROGRAM
    assert by_call["call_ap_prog"]["status"] == "completed"
    assert "caller" not in by_call["call_ap_direct"]
    assert (tmp_path / "hi.txt").read_text() == "hi\n"
    programs = done.response.hosted_outputs["programmatic_tool_calling"]
    assert isinstance(programs, ProgrammaticToolCallingResult)
    (run,) = programs.programs
    assert run.calls == (
        ProgramToolCall("shell", "call_sh_prog"),
        ProgramToolCall("apply_patch", "call_ap_prog"),
    )
    for answer, component in (
        (shell_answer, "FunctionShellCallOutputItemParam"),
        (by_call["call_ap_prog"], "ApplyPatchToolCallOutputItemParam"),
        (by_call["call_ap_direct"], "ApplyPatchToolCallOutputItemParam"),
    ):
        assert_wire_valid(component, answer)
        assert_wire_valid("InputItem", answer)
        STRICT_INPUT.validate_python(answer)


@pytest.mark.parametrize("form", ["dict", "sdk"])
def test_the_caller_is_read_from_dicts_and_sdk_objects(form: str, tmp_path: Path) -> None:
    body = _program_edits()
    items: list[Any] = body["output"] if form == "dict" else list(Response.construct(**body).output)
    shell, patch, direct = items[1], items[2], items[3]
    ok = ToolResult.ok("done")
    assert CLIENT["shell"].output_item(shell, ok)["caller"] == PROGRAM
    assert CLIENT["apply_patch"].output_item(patch, ok)["caller"] == PROGRAM
    assert "caller" not in CLIENT["apply_patch"].output_item(direct, ok)
    failed = CLIENT["apply_patch"].output_item(patch, ToolResult.error("no"))
    assert failed["caller"] == PROGRAM and failed["status"] == "failed"
    assert_wire_valid("ApplyPatchToolCallOutputItemParam", failed)


def test_a_card_sets_allowed_callers_on_hosted_tools(tmp_path: Path) -> None:
    card = tmp_path / "card.md"
    card.write_text(
        "---\nname: a\nhosted_tools:\n"
        "  - {kind: code_interpreter, config: {allowed_callers: [programmatic]}}\n"
        f"  - {{kind: mcp, config: {{server_label: wiki, server_url: '{MCP_URL}', "
        "allowed_callers: [direct, programmatic]}}\n"
        "  - {kind: shell, config: {allowed_callers: [direct]}}\n"
        "  - {kind: programmatic_tool_calling}\n"
        "---\nGo.\n"
    )
    hosted = load_card(card).render().hosted_tools
    assert [t.config.allowed_callers for t in hosted[:3]] == [("programmatic",), BOTH, ("direct",)]
    card.write_text(
        "---\nname: a\nhosted_tools:\n"
        "  - {kind: shell, config: {allowed_callers: [robot]}}\n"
        "---\nGo.\n"
    )
    with pytest.raises(CardError, match=r"hosted_tools\[0\]\.config\.allowed_callers"):
        load_card(card)


def test_a_card_sets_allowed_callers_on_client_tools(tmp_path: Path) -> None:
    (tmp_path / "handlers.py").write_text(
        'def run_sql(text):\n    """Run SQL."""\n    return text\n'
    )
    card = tmp_path / "card.md"
    card.write_text(
        "---\nname: a\nclient_tools:\n"
        "  - {kind: apply_patch, root: ., config: {allowed_callers: [programmatic]}}\n"
        "  - {kind: local_shell, config: {allowed_callers: [direct, programmatic],"
        " skills: [{name: lint, description: Lints, path: ./skills/lint}]}}\n"
        "  - {kind: custom, handler: handlers.py:run_sql,"
        " config: {options: {allowed_callers: [programmatic]}}}\n"
        "  - {kind: apply_patch, root: ., name: plain_patch}\n"
        "---\nGo.\n"
    )
    tools = {tool.name: tool for tool in load_card(card).render().tools}
    assert tools["apply_patch"].config == ApplyPatchConfig(("programmatic",))
    shell = tools["shell"].config
    assert isinstance(shell, LocalShellConfig) and shell.allowed_callers == BOTH
    assert shell.skills[0].path == "./skills/lint"
    assert tools["run_sql"].config.options.allowed_callers == ("programmatic",)
    assert tools["plain_patch"].config == ApplyPatchConfig()
    spec = CLIENT["shell"].serialize(tools["shell"])
    assert spec["allowed_callers"] == list(BOTH)
    assert_wire_valid("FunctionShellToolParam", spec)
    for entry in (
        "{kind: apply_patch, root: ., config: {allowed_callers: [robot]}}",
        "{kind: local_shell, config: {allowed_callers: [robot]}}",
    ):
        card.write_text(f"---\nname: a\nclient_tools:\n  - {entry}\n---\nGo.\n")
        with pytest.raises(CardError) as raised:
            load_card(card)
        assert raised.value.field == "client_tools[0].config.allowed_callers[0]"


def test_the_mcp_repr_shows_the_callers_and_still_hides_the_authorization() -> None:
    config = HostedMcpConfig(
        "wiki", MCP_URL, authorization="secret-token", allowed_callers=("programmatic",)
    )
    assert "allowed_callers=('programmatic',)" in repr(config)
    assert "secret-token" not in repr(config)
