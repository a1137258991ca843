"""computer and computer_use_preview end to end: actions on a Computer, screenshots back."""

from __future__ import annotations

import base64
from typing import Any, cast

import pytest
from kind_helpers import evaluate, final_answer, synthetic
from openai.types.responses import Response, ResponseInputItemParam, ToolParam
from openai.types.responses.response_create_params import ToolChoice
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Session
from tooltape.adapters.openai.codecs import (
    ComputerCodec,
    ComputerUsePreviewCodec,
    default_client_tool_codecs,
)
from tooltape.prompt import PromptEvaluationError, PromptValidationError, ToolResult
from tooltape.testing.computer import BLANK_PNG, RecordingComputer
from tooltape.tools.computer import (
    Click,
    ComputerScreenshot,
    ComputerSection,
    ComputerUsePreviewConfig,
    Drag,
    Keypress,
    Point,
    SafetyCheck,
    Scroll,
    TypeText,
    Wait,
    computer_tool,
    computer_use_preview_tool,
)

STRICT_INPUT: TypeAdapter[Any] = TypeAdapter(
    ResponseInputItemParam, config=ConfigDict(extra="forbid")
)
STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_CHOICE: TypeAdapter[Any] = TypeAdapter(ToolChoice, config=ConfigDict(extra="forbid"))
PREVIEW = ComputerUsePreviewConfig("ubuntu", display_width=1024, display_height=768)


def run(tool: Any, arguments: dict[str, Any]) -> ToolResult[Any]:
    return tool.handler(tool.schema.validate(arguments), context=cast(Any, None))


def batch_item() -> dict[str, Any]:
    return synthetic("computer_call.json")["output"][0]


def test_config_and_factory_refuse_what_cannot_work() -> None:
    with pytest.raises(PromptValidationError) as raised:
        ComputerUsePreviewConfig("android", 10, 10)  # type: ignore[arg-type]
    assert "environment" in str(raised.value) and "windows, mac, linux" in str(raised.value)
    with pytest.raises(PromptValidationError, match="display_width"):
        ComputerUsePreviewConfig("mac", 0, 10)
    with pytest.raises(PromptValidationError, match="perform"):
        computer_tool(object())  # type: ignore[arg-type]
    with pytest.raises(PromptValidationError, match="ComputerUsePreviewConfig"):
        computer_use_preview_tool(RecordingComputer(), {"environment": "mac"})  # type: ignore[arg-type]


@pytest.mark.parametrize("form", ["dict", "sdk"])
def test_a_batch_call_becomes_typed_actions_performed_in_order(form: str) -> None:
    body = synthetic("computer_call.json")
    item: Any = body["output"][0] if form == "dict" else Response.construct(**body).output[0]
    arguments = ComputerCodec().call_arguments(item)
    computer = RecordingComputer(b"\x89PNG-screen")
    tool = computer_tool(computer, acknowledge=lambda check: check.code == "irrelevant_domain")
    result = run(tool, arguments)
    assert result.success, result.message
    assert computer.performed == [
        Click(420, 96),
        TypeText("tooltape cassettes"),
        Keypress(("ENTER",)),
        Scroll(640, 400, 0, 600),
        Drag((Point(10, 10), Point(200, 10)), keys=("SHIFT",)),
        Wait(),
    ]
    assert result.value == ComputerScreenshot(
        b"\x89PNG-screen",
        (
            SafetyCheck(
                "cu_sc_synth_1", "irrelevant_domain", "The page is not related to the task."
            ),
        ),
    )


def test_the_single_action_form_and_unknown_fields() -> None:
    item = synthetic("computer_use_preview_call.json")["output"][0]
    item["action"]["pressure"] = 0.5  # a field no version of the types knows
    arguments = ComputerUsePreviewCodec().call_arguments(item)
    assert arguments == {
        "actions": [{"type": "click", "button": "right", "x": 100, "y": 200}],
        "pending_safety_checks": [],
    }
    computer = RecordingComputer()
    assert run(computer_use_preview_tool(computer, PREVIEW), arguments).success
    assert computer.performed == [Click(100, 200, button="right")]


def test_pending_safety_checks_are_refused_unless_acknowledged() -> None:
    arguments = ComputerCodec().call_arguments(batch_item())
    computer = RecordingComputer()
    refused = run(computer_tool(computer), arguments)
    assert not refused.success and refused.value is None
    assert "cu_sc_synth_1" in refused.message and "irrelevant_domain" in refused.message
    assert computer.performed == []
    declined = run(computer_tool(computer, acknowledge=lambda check: False), arguments)
    assert not declined.success and computer.performed == []


def test_the_answer_is_a_screenshot_with_the_acknowledged_checks() -> None:
    codec = ComputerCodec()
    check = SafetyCheck("sc_1", "malicious_instructions", None)
    answer = codec.output_item(batch_item(), ToolResult.ok(ComputerScreenshot(BLANK_PNG, (check,))))
    assert answer == {
        "type": "computer_call_output",
        "call_id": "call_cu_batch",
        "output": {
            "type": "computer_screenshot",
            "image_url": "data:image/png;base64," + base64.b64encode(BLANK_PNG).decode(),
        },
        "acknowledged_safety_checks": [{"id": "sc_1", "code": "malicious_instructions"}],
    }
    assert_wire_valid("ComputerCallOutputItemParam", answer)
    STRICT_INPUT.validate_python(answer)
    with pytest.raises(PromptEvaluationError) as raised:
        codec.output_item(batch_item(), ToolResult.error("Safety checks not acknowledged"))
    assert raised.value.phase == "tool" and "call_cu_batch" in raised.value.message


def test_specs_and_tool_choices_are_spec_valid() -> None:
    plain, preview = ComputerCodec(), ComputerUsePreviewCodec()
    tool = computer_use_preview_tool(RecordingComputer(), PREVIEW)
    assert plain.serialize(computer_tool(RecordingComputer())) == {"type": "computer"}
    assert preview.serialize(tool) == {
        "type": "computer_use_preview",
        "environment": "ubuntu",
        "display_width": 1024,
        "display_height": 768,
    }
    for codec, spec_tool in ((plain, computer_tool(RecordingComputer())), (preview, tool)):
        assert_wire_valid("Tool", codec.serialize(spec_tool))
        STRICT_TOOL.validate_python(codec.serialize(spec_tool))
        assert_wire_valid("ToolChoiceParam", codec.tool_choice(spec_tool))
        STRICT_CHOICE.validate_python(codec.tool_choice(spec_tool))
    codecs = default_client_tool_codecs()
    assert codecs["computer"].call_item_type == codecs["computer_use_preview"].call_item_type


@pytest.mark.parametrize("kind", ["computer", "computer_use_preview"])
def test_evaluation_performs_the_call_and_sends_the_screenshot(kind: str) -> None:
    computer = RecordingComputer()
    tool = (
        computer_tool(computer, acknowledge=lambda check: True)
        if kind == "computer"
        else computer_use_preview_tool(computer, PREVIEW)
    )
    fixture = "computer_call.json" if kind == "computer" else "computer_use_preview_call.json"
    done = evaluate(synthetic(fixture), final_answer(), tools=(tool,))
    assert done.sent[0]["tools"][0]["type"] == kind
    (answer,) = done.inputs_of_type(1, "computer_call_output")
    assert answer["output"]["image_url"].startswith("data:image/png;base64,")
    (event,) = done.invocations(kind)
    assert event.source == "native" and event.result.success
    assert computer.performed


@pytest.mark.parametrize("failure", ["unacknowledged", "raising action"])
def test_a_call_that_cannot_be_answered_ends_the_evaluation_after_its_event(failure: str) -> None:
    computer = RecordingComputer(fail_on="type" if failure == "raising action" else None)
    policy = (lambda check: True) if failure == "raising action" else None
    tool = computer_tool(computer, acknowledge=policy)
    session = Session()
    with pytest.raises(PromptEvaluationError) as raised:
        evaluate(synthetic("computer_call.json"), final_answer(), tools=(tool,), session=session)
    assert raised.value.phase == "tool" and raised.value.prompt_name == "kind"
    expected = "Safety checks" if failure == "unacknowledged" else "did not respond to type"
    assert expected in raised.value.message
    (event,) = session.tool_invocations
    assert event.kind == "computer" and not event.result.success
    assert expected in event.result.message


def test_section_carries_the_tool() -> None:
    tool = computer_tool(RecordingComputer())
    section = ComputerSection(tool)
    assert section.tools() == (tool,) and "screenshot" in section.template
