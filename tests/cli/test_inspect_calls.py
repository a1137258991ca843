"""``tooltape inspect`` names every call: its name, arguments, ``ToolResult`` message and
output, for hosted calls and the calls the client runs alike; and its messages for a
path that is not a cassette say what to do."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from cli_helpers import REAL, REPO, Run, interaction, write_cassette

FIXTURES = REPO / "fixtures" / "responses"


def _recorded(name: str) -> list[dict[str, Any]]:
    """The interactions of a real recording, read with plain YAML."""
    return yaml.safe_load((REAL / name).read_text(encoding="utf-8"))["interactions"]


def _fixture(name: str) -> dict[str, Any]:
    body = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    assert body["_provenance"].startswith("synthetic: ")
    return body


def _calls(cli: Callable[..., Run], path: Path, interaction_index: int = 0) -> list[Any]:
    run = cli("inspect", str(path), "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)["interactions"][interaction_index]["calls"]


def _line(cli: Callable[..., Run], path: Path, needle: str) -> str:
    run = cli("inspect", str(path))
    assert run.code == 0, run.err
    return next(line for line in run.out.splitlines() if needle in line)


def test_a_function_call_carries_its_name_arguments_and_the_answer_sent_back(
    cli: Callable[..., Run],
) -> None:
    path = REAL / "model_simple_response_with_tool_call.yaml"
    first, second = _recorded(path.name)
    (item,) = first["response"]["parsed_body"]["output"]
    (answer,) = [i for i in second["request"]["parsed_body"]["input"] if "output" in i]

    (call,) = _calls(cli, path)

    assert (call["kind"], call["item_type"]) == ("function", "function_call")
    assert call["id"] == item["id"]
    assert call["name"] == item["name"] == "get_capital"
    assert call["arguments"] == json.loads(item["arguments"])
    assert call["message"] == answer["output"] == "Potato City"
    assert call["output"] == {
        "call_id": item["call_id"],
        "answered_in": 1,
        "output": answer["output"],
    }
    line = _line(cli, path, item["id"])
    assert 'get_capital({"country": "PotatoLand"}) -> "Potato City"' in line


def test_a_polled_background_call_finds_its_answer_in_the_next_request(
    cli: Callable[..., Run],
) -> None:
    path = REAL / "background_mode_with_tool.yaml"
    (call,) = _calls(cli, path, 1)
    assert (call["name"], call["arguments"]) == ("get_weather", {"city": "Paris"})
    assert call["message"] == "Sunny and 72F in Paris" and call["output"]["answered_in"] == 2


def test_an_mcp_call_carries_its_server_label_tool_name_and_arguments(
    cli: Callable[..., Run],
) -> None:
    path = REAL / "model_mcp_server_tool.yaml"
    items = _recorded(path.name)[0]["response"]["parsed_body"]["output"]
    recorded = next(item for item in items if item["type"] == "mcp_call")

    listing, call = _calls(cli, path)

    assert (listing["server_label"], listing["name"], listing["arguments"]) == (
        "deepwiki",
        None,
        None,
    )
    assert (call["server_label"], call["name"]) == ("deepwiki", recorded["name"])
    assert call["arguments"] == json.loads(recorded["arguments"])
    assert call["success"] and call["message"] == "mcp_call completed"


def test_a_failed_mcp_call_shows_name_arguments_and_the_provider_error(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    response = _fixture("mcp_call_errors.json")
    path = write_cassette(
        tmp_path / "mcp.json",
        interaction({"json": {"model": "gpt-5", "input": "x"}}, {"json": response}),
    )
    calls = {call["id"]: call for call in _calls(cli, path)}

    as_string = calls["mcp_synth_str"]
    assert not as_string["success"] and as_string["output"] == {}
    assert (as_string["name"], as_string["server_label"]) == ("ask_question", "deepwiki")
    assert as_string["arguments"] == {"repoName": "nope/missing", "question": "What is it?"}
    assert "Repository nope/missing not found" in as_string["message"]
    as_object = calls["mcp_synth_obj"]
    assert "mcp_protocol_error -32602: Invalid params: question too short" in as_object["message"]

    line = _line(cli, path, "mcp_synth_str")
    assert 'deepwiki.ask_question({"repoName": "nope/missing"' in line
    assert "error:" in line and "Repository nope/missing not found" in line


def test_a_web_search_call_carries_its_action_and_query(cli: Callable[..., Run]) -> None:
    path = REAL / "model_web_search_tool.yaml"
    items = _recorded(path.name)[0]["response"]["parsed_body"]["output"]
    action = next(item for item in items if item["type"] == "web_search_call")["action"]
    (call,) = _calls(cli, path)
    assert call["name"] is None
    assert call["arguments"] == {"action": action["type"], "query": action["query"]}


def test_client_calls_without_a_codec_or_an_answer_are_listed_in_response_order(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    patches = _fixture("apply_patch_calls.json")["output"]
    custom = {  # synthetic: a custom tool call as the API documents it (no real recording)
        "type": "custom_tool_call",
        "id": "ctc_synth_1",
        "call_id": "call_custom_1",
        "name": "run_sql",
        "input": "SELECT 1",
    }
    output = [custom, patches[0], {"type": "function_call", **_function("call_fn", "lookup")}]
    answered = {
        "type": "custom_tool_call_output",
        "call_id": "call_custom_1",
        "output": "1 row",
    }
    path = write_cassette(
        tmp_path / "client.json",
        interaction({"json": {"model": "gpt-5", "input": "x"}}, {"json": {"output": output}}),
        interaction({"json": {"model": "gpt-5", "input": [answered]}}, {"json": {"output": []}}),
    )
    calls = _calls(cli, path)

    assert [(c["kind"], c["item_type"]) for c in calls] == [
        ("custom", "custom_tool_call"),
        ("apply_patch", "apply_patch_call"),
        ("function", "function_call"),
    ]
    assert (calls[0]["name"], calls[0]["arguments"], calls[0]["message"]) == (
        "run_sql",
        "SELECT 1",
        "1 row",
    )
    assert calls[1]["arguments"]["operation"]["path"] == patches[0]["operation"]["path"]
    assert calls[2]["message"] == "" and calls[2]["output"]["answered_in"] is None
    assert "(no answer in this cassette)" in _line(cli, path, patches[0]["id"])


def _function(call_id: str, name: str) -> dict[str, Any]:
    return {"id": f"fc_{call_id}", "call_id": call_id, "name": name, "arguments": "{}"}


def test_a_mistyped_path_says_so_and_names_close_matches(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    write_cassette(tmp_path / "test_weather.json", interaction())
    run = cli("inspect", str(tmp_path / "test_wether.json"))
    assert run.code == 2
    assert "no such file" in run.err and "check the path" in run.err
    assert f"did you mean {tmp_path / 'test_weather.json'}?" in run.err
    assert "record" not in run.err

    nowhere = cli("inspect", str(tmp_path / "missing-folder" / "c.json"))
    assert nowhere.code == 2 and "no folder" in nowhere.err and "record" not in nowhere.err


def test_a_json_file_that_is_not_a_cassette_says_what_it_is(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    spec = cli("inspect", str(REPO / "cassettes" / "specs" / "web_search.json"))
    assert spec.code == 1
    assert "is not a cassette: it is a wire spec snapshot" in spec.err
    assert "inspect reads a tooltape cassette" in spec.err
    assert "restore" not in spec.err and "version control" not in spec.err

    listing = tmp_path / "list.json"
    listing.write_text("[1, 2, 3]\n")
    assert "it is a JSON list of 3 items" in cli("inspect", str(listing)).err
    settings = tmp_path / "settings.json"
    settings.write_text('{"name": "demo", "version": 2}\n')
    assert "a JSON object with the keys name, version" in cli("inspect", str(settings)).err


def test_help_points_at_the_documented_json_shape(cli: Callable[..., Run]) -> None:
    run = cli("inspect", "--help")
    assert run.code == 0
    assert "docs/inspect-json.md" in run.out and "DESIGN.md" not in run.out
    assert (REPO / "docs" / "inspect-json.md").is_file()
    assert '"unread_items"' in run.out and '"arguments"' in run.out
