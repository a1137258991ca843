"""programmatic_tool_calling end to end: programs, the tool calls they make, their outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kind_helpers import evaluate, synthetic
from openai.types.responses import Response, ToolParam
from openai.types.responses.response_create_params import ToolChoice
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Tool
from tooltape.adapters.openai.codecs import (
    ProgrammaticToolCallingCodec,
    default_hosted_tool_codecs,
)
from tooltape.adapters.openai.native_tools import OpenAIProgrammaticToolCallingSection
from tooltape.cards import load_card
from tooltape.tools.function_options import with_options
from tooltape.tools.programmatic_tool_calling import (
    ProgrammaticToolCallingResult,
    ProgrammaticToolCallingSection,
    ProgramRun,
    ProgramToolCall,
    programmatic_tool_calling_tool,
)

STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_CHOICE: TypeAdapter[Any] = TypeAdapter(ToolChoice, config=ConfigDict(extra="forbid"))
CODEC = ProgrammaticToolCallingCodec()
TOOL = programmatic_tool_calling_tool()


def lookup_order(order_id: str) -> str:
    """Look an order up by its id."""
    return f"order {order_id}: shipped"


def finished(result: str, status: str = "completed") -> dict[str, Any]:
    body = synthetic("program_completed.json")
    output = body["output"][1]
    body["output"] = [
        {**output, "call_id": "call_prog_orders", "result": result, "status": status},
        body["output"][2],
    ]
    return body


def test_spec_and_choice_are_spec_valid() -> None:
    assert CODEC.serialize(TOOL) == {"type": "programmatic_tool_calling"}
    assert_wire_valid("Tool", CODEC.serialize(TOOL))
    STRICT_TOOL.validate_python(CODEC.serialize(TOOL))
    assert_wire_valid("ToolChoiceParam", CODEC.tool_choice(TOOL))
    STRICT_CHOICE.validate_python(CODEC.tool_choice(TOOL))
    assert isinstance(default_hosted_tool_codecs()["programmatic_tool_calling"], type(CODEC))


@pytest.mark.parametrize("form", ["dict", "sdk"])
def test_a_finished_program_reads_its_code_and_result(form: str) -> None:
    body = synthetic("program_completed.json")
    items: list[Any] = body["output"] if form == "dict" else list(Response.construct(**body).output)
    (call,) = CODEC.parse_calls(items, TOOL)
    assert call.success and call.item_type == "program"
    run = call.params
    assert isinstance(run, ProgramRun)
    assert (run.call_id, run.fingerprint, run.status, run.result) == (
        "call_prog_sum",
        "fp_synthetic_0001",
        "completed",
        "14",
    )
    assert run.code.startswith("const totals")
    output = CODEC.parse_output(items, TOOL)
    assert isinstance(output, ProgrammaticToolCallingResult) and output.results == ("14",)


def test_an_incomplete_or_failed_program_is_a_failed_call() -> None:
    items = synthetic("program_completed.json")["output"]
    cut = [items[0], {**items[1], "status": "incomplete", "result": "TypeError: x is undefined"}]
    (call,) = CODEC.parse_calls(cut, TOOL)
    assert not call.success and "TypeError" in (call.error or "")
    failed = {**items[0], "status": "failed", "error": {"code": "timeout", "message": "slow"}}
    (call,) = CODEC.parse_calls([failed], None)
    assert not call.success and "timeout" in (call.error or "")


def test_a_program_calls_a_client_function_and_gets_its_answer() -> None:
    scripted = with_options(Tool.from_function(lookup_order), allowed_callers=("programmatic",))
    done = evaluate(
        synthetic("program_calls_function.json"),
        finished('"order A-1: shipped"'),
        tools=(scripted,),
        hosted=(TOOL,),
    )
    first = done.sent[0]["tools"]
    assert first[0]["allowed_callers"] == ["programmatic"]
    assert first[1] == {"type": "programmatic_tool_calling"}
    for spec in first:
        assert_wire_valid("Tool", spec)
    (answer,) = done.inputs_of_type(1, "function_call_output")
    assert answer == {
        "type": "function_call_output",
        "call_id": "call_fc_prog",
        "output": "order A-1: shipped",
        "caller": {"type": "program", "caller_id": "call_prog_orders"},
    }
    assert_wire_valid("FunctionCallOutputItemParam", answer)
    (program,) = done.inputs_of_type(1, "program")
    assert program["fingerprint"] == "fp_synthetic_0002"
    kinds = [(e.name, e.source, e.kind) for e in done.session.tool_invocations]
    assert kinds == [
        ("programmatic_tool_calling", "hosted", "programmatic_tool_calling"),
        ("lookup_order", "function", None),
    ]
    result = done.response.hosted_outputs["programmatic_tool_calling"]
    assert isinstance(result, ProgrammaticToolCallingResult)
    (run,) = result.programs
    assert run.calls == (ProgramToolCall("lookup_order", "call_fc_prog"),)
    assert (run.status, run.result) == ("completed", '"order A-1: shipped"')


def test_sections_and_cards(tmp_path: Path) -> None:
    assert ProgrammaticToolCallingSection().hosted_tools()[0].kind == "programmatic_tool_calling"
    assert OpenAIProgrammaticToolCallingSection(model="gpt-5").render(None) == ""
    card = tmp_path / "card.md"
    card.write_text("---\nname: a\nhosted_tools: [{kind: programmatic_tool_calling}]\n---\nGo.\n")
    (hosted,) = load_card(card).render().hosted_tools
    assert hosted.kind == "programmatic_tool_calling"
