"""One real recorded response per probe, broken the way a provider or a hand edit breaks it.

Each body is a real recording (``recorded_bodies`` says where from) with one
edit. It goes through ``OpenAIAdapter.evaluate`` and through ``tooltape
inspect``: an item whose envelope is broken is a parse error naming
``output[<index>].<field>`` (and a "not read" line in ``inspect``), content
is read tolerantly, and nothing raises another exception or prints a
traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recorded_bodies import (
    body,
    evaluate,
    evaluation_error,
    inspect,
    item_index,
    write_cassette,
)

from tooltape import InProcessEventBus, ToolInvoked


def _not_read_lines(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if "not read:" in line]


def test_an_item_type_that_is_a_list_is_a_parse_error_naming_the_item(tmp_path: Path) -> None:
    recorded = body("model_web_search_tool.yaml#0")
    response = recorded.copy()
    index = item_index(response, "web_search_call")
    response["output"][index]["type"] = ["web_search_call"]

    error = evaluation_error(recorded, response)
    assert error.phase == "parse"
    assert f"output[{index}].type: a list, not a type name" in error.message

    shown = inspect(write_cassette(tmp_path / "c.json", recorded, response))
    assert shown.code == 0 and "Traceback" not in shown.err
    assert _not_read_lines(shown.out) == [
        f"not read: output[{index}].type: a list, not a type name"
    ]
    report = json.loads(inspect(tmp_path / "c.json", "--json").out)["interactions"][0]
    assert report["unread_items"] == [
        {"index": index, "message": f"output[{index}].type: a list, not a type name"}
    ]
    assert report["calls"] == []


def test_message_content_that_is_not_a_list_reads_as_no_text(tmp_path: Path) -> None:
    recorded = body("model_simple_response_with_tool_call.yaml#1")
    response = recorded.copy()
    response["output"][item_index(response, "message")]["content"] = True

    assert evaluate(recorded, response).text == ""

    shown = inspect(write_cassette(tmp_path / "c.json", recorded, response))
    assert shown.code == 0 and "answer:" not in shown.out and not _not_read_lines(shown.out)


def test_an_item_that_is_not_an_object_is_a_parse_error_before_any_call_runs(
    tmp_path: Path,
) -> None:
    recorded = body("model_simple_response_with_tool_call.yaml#0")
    response = recorded.copy()
    response["output"].append(True)
    bus = InProcessEventBus()
    ran: list[ToolInvoked] = []
    bus.subscribe(ToolInvoked, ran.append)

    error = evaluation_error(recorded, response, bus=bus)
    assert error.phase == "parse"
    assert "output[1]: true, not an object" in error.message
    assert ran == []  # get_capital was not run for a response that cannot be read

    shown = inspect(write_cassette(tmp_path / "c.json", recorded, response))
    assert shown.code == 0
    assert _not_read_lines(shown.out) == ["not read: output[1]: true, not an object"]
    assert "get_capital" in shown.out  # the function call beside it is still listed


def test_a_lone_surrogate_in_code_is_kept_and_escaped_where_it_is_written(tmp_path: Path) -> None:
    recorded = body("code_execution_return_image.yaml#0")
    response = recorded.copy()
    index = item_index(response, "code_interpreter_call")
    code = "print('\ud83d')"
    response["output"][index]["code"] = code

    path = write_cassette(tmp_path / "c.json", recorded, response)
    shown = inspect(path, "--json")
    assert shown.code == 0, shown.err
    (call,) = json.loads(shown.out)["interactions"][0]["calls"]
    assert call["arguments"]["code"] == code and call["output"]["codes"] == [code]
    human = inspect(path)
    assert human.code == 0 and "\\ud83d" in human.out

    result = evaluate(recorded, response)
    (invoked,) = [e for e in result.tool_invocations if e.kind == "code_interpreter"]
    assert invoked.params.code == code
    assert json.loads(invoked.rendered_output)["codes"] == [code]


def test_an_id_that_is_a_list_is_named_and_the_other_calls_are_still_shown(
    tmp_path: Path,
) -> None:
    recorded = body("model_mcp_server_tool.yaml#0")
    response = recorded.copy()
    index = item_index(response, "mcp_call")
    response["output"][index]["id"] = [response["output"][index]["id"]]

    path = write_cassette(tmp_path / "c.json", recorded, response)
    shown = inspect(path)
    assert shown.code == 0 and "Traceback" not in shown.err
    assert _not_read_lines(shown.out) == [f"not read: output[{index}].id: a list, not a string"]
    report = json.loads(inspect(path, "--json").out)["interactions"][0]
    assert [call["item_type"] for call in report["calls"]] == ["mcp_list_tools"]

    error = evaluation_error(recorded, response)
    assert error.phase == "parse" and f"output[{index}].id: a list, not a string" in error.message


def test_an_mcp_server_label_no_tool_can_carry_is_listed_not_fatal(tmp_path: Path) -> None:
    recorded = body("model_mcp_server_tool.yaml#0")
    response = recorded.copy()
    index = item_index(response, "mcp_call")
    response["output"][index]["server_label"] = "deep\udc00wiki"

    # The call belongs to no MCP tool of the prompt: it is not attributed to one.
    result = evaluate(recorded, response)
    assert [e.call_id for e in result.tool_invocations] == [response["output"][0]["id"]]

    path = write_cassette(tmp_path / "c.json", recorded, response)
    shown = inspect(path, "--json")
    assert shown.code == 0 and "Traceback" not in shown.err
    report = json.loads(shown.out)["interactions"][0]
    labels = [(call["item_type"], call["server_label"]) for call in report["calls"]]
    assert labels == [("mcp_list_tools", "deepwiki"), ("mcp_call", "deep\udc00wiki")]
    assert list(report["hosted_outputs"]) == ["mcp-deepwiki"]
    assert inspect(path).code == 0


def test_base64_that_does_not_decode_names_the_item_and_field(tmp_path: Path) -> None:
    recorded = body("image_generation_jpeg.yaml#0")
    response = recorded.copy()
    index = item_index(response, "image_generation_call")
    response["output"][index]["result"] = "not base64 !!"

    error = evaluation_error(recorded, response)
    assert error.phase == "parse"
    assert error.message.startswith(f"output[{index}].result (image_generation_call ig_")

    path = write_cassette(tmp_path / "c.json", recorded, response)
    shown = inspect(path)
    assert shown.code == 0 and "Traceback" not in shown.err
    (line,) = _not_read_lines(shown.out)
    assert line.startswith(f"not read: output[{index}].result (image_generation_call ig_")
    assert "does not decode" in line
    assert inspect(path, "--json").code == 0


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("call_id", None, "missing; a function_call cannot be answered without it"),
        ("name", 7, "a number, not a string"),
        ("call_id", {"id": "call_1"}, "an object, not a string"),
    ],
)
def test_a_function_call_needs_a_string_name_and_call_id(
    field: str, value: object, problem: str
) -> None:
    recorded = body("model_simple_response_with_tool_call.yaml#0")
    response = recorded.copy()
    if value is None:
        del response["output"][0][field]
    else:
        response["output"][0][field] = value
    error = evaluation_error(recorded, response)
    assert error.phase == "parse" and f"output[0].{field}: {problem}" in error.message


def test_a_streamed_body_reads_the_same_way(tmp_path: Path) -> None:
    recorded = body("model_web_search_tool_stream.yaml#0")
    response = recorded.copy()
    index = item_index(response, "web_search_call")
    response["output"][index]["id"] = {"id": "ws"}
    shown = inspect(write_cassette(tmp_path / "s.json", recorded, response, streamed=True))
    assert shown.code == 0
    assert _not_read_lines(shown.out) == [f"not read: output[{index}].id: an object, not a string"]


def test_a_response_id_that_is_not_a_string_is_a_parse_error() -> None:
    recorded = body("model_web_search_tool.yaml#1")
    response = recorded.copy()
    response["id"] = [response["id"]]
    error = evaluation_error(recorded, response)
    assert error.phase == "parse" and "Response whose id is a list" in error.message


def test_an_output_that_is_not_a_list_is_a_parse_error_and_a_not_read_line(
    tmp_path: Path,
) -> None:
    recorded = body("model_web_search_tool.yaml#0")
    response = recorded.copy()
    response["output"] = {"not": "a list"}

    error = evaluation_error(recorded, response)
    assert error.phase == "parse"
    assert "output" in error.message

    shown = inspect(write_cassette(tmp_path / "c.json", recorded, response))
    assert shown.code == 0 and "Traceback" not in shown.err
    assert _not_read_lines(shown.out) == ["not read: output is dict, not a list of items"]
