"""``tooltape inspect``: every real recording, human form and the DESIGN ``--json`` shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_helpers import (
    REAL_FILES,
    REPO,
    Run,
    clean_interaction,
    interaction,
    write_cassette,
)

from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.testing.recorded.inspection import inspect_path

# Call item types of the hosted kinds DESIGN.md lists, and the kind each belongs to.
HOSTED_CALL_ITEMS = {
    "web_search_call": "web_search",
    "file_search_call": "file_search",
    "code_interpreter_call": "code_interpreter",
    "image_generation_call": "image_generation",
    "mcp_list_tools": "mcp",
    "mcp_call": "mcp",
    "shell_call": "shell",
}
# ...and every call item, the client's function calls included.
CALL_ITEMS = {**HOSTED_CALL_ITEMS, "function_call": "function"}
INTERACTION_KEYS = {
    "index",
    "method",
    "path",
    "status_code",
    "streamed",
    "response_status",
    "error",
    "calls",
    "hosted_outputs",
    "unread_items",
}
CALL_KEYS = {
    "kind",
    "item_type",
    "id",
    "name",
    "arguments",
    "server_label",
    "status",
    "success",
    "message",
    "output",
}
IDS = [path.name for path in REAL_FILES]
WITHOUT_CALLS = {"model_http_error.yaml", "compact_stateful_mode.yaml"}


def _sse_items(text: str) -> list[dict[str, Any]]:
    """Output items of a raw SSE body: the terminal event's, else every item done."""
    events = [
        json.loads(line[len("data:") :])
        for line in text.splitlines()
        if line.startswith("data:") and line[len("data:") :].strip().startswith("{")
    ]
    for event in reversed(events):
        if event.get("type") in ("response.completed", "response.failed", "response.incomplete"):
            return list(event["response"]["output"])
    return [e["item"] for e in events if e.get("type") == "response.output_item.done"]


def _expected_calls(path: Path) -> list[list[tuple[str, str]]]:
    """Per interaction, ``(item_type, id)`` of every hosted call item, read from the YAML."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    expected: list[list[tuple[str, str]]] = []
    for recorded in document["interactions"]:
        response = recorded["response"]
        if "parsed_body" in response:
            body = response["parsed_body"]
            items = body.get("output", []) if isinstance(body, dict) else []
        else:
            text = response["body"]["string"]
            items = _sse_items(text) if "data:" in text else json.loads(text).get("output", [])
        if response["status"]["code"] >= 400:
            items = []
        expected.append(
            [(item["type"], item["id"]) for item in items if item.get("type") in CALL_ITEMS]
        )
    return expected


def test_the_registry_covers_the_design_call_items() -> None:
    readers: dict[str, set[str]] = {}
    for kind, codec in default_hosted_tool_codecs().items():
        for item_type in codec.item_types:
            readers.setdefault(item_type, set()).add(kind)
    for item_type, kind in HOSTED_CALL_ITEMS.items():
        assert kind in readers.get(item_type, set()), item_type


@pytest.mark.parametrize(
    ("sent", "kind"),
    [
        ("web_search", "web_search"),
        ("web_search_2025_08_26", "web_search"),
        ("web_search_preview", "web_search_preview"),
        ("web_search_preview_2025_03_11", "web_search_preview"),
    ],
)
def test_a_call_two_kinds_read_is_listed_once_under_the_kind_the_request_used(
    sent: str, kind: str, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    item = {
        "type": "web_search_call",
        "id": "ws_synthetic_one",
        "status": "completed",
        "action": {"type": "search", "query": "synthetic"},
    }
    path = write_cassette(
        tmp_path / "one.json",
        interaction(
            {"json": {"model": "gpt-5", "input": "x", "tools": [{"type": sent}]}},
            {"json": {"id": "resp_synthetic", "status": "completed", "output": [item]}},
        ),
    )
    report = json.loads(cli("inspect", str(path), "--json").out)["interactions"][0]
    assert [(c["kind"], c["id"]) for c in report["calls"]] == [(kind, "ws_synthetic_one")]
    assert list(report["hosted_outputs"]) == [kind]


@pytest.mark.parametrize("path", REAL_FILES, ids=IDS)
def test_json_lists_every_hosted_call_with_a_typed_output(
    path: Path, cli: Callable[..., Run]
) -> None:
    run = cli("inspect", str(path), "--json")
    assert run.code == 0, run.err
    report = json.loads(run.out)

    assert set(report) == {"cassette", "format", "interactions"}
    assert report["cassette"] == str(path)
    assert report["format"] == "vcrpy"
    expected = _expected_calls(path)
    assert len(report["interactions"]) == len(expected)
    for index, (entry, wanted) in enumerate(zip(report["interactions"], expected, strict=True)):
        assert set(entry) == INTERACTION_KEYS
        assert entry["index"] == index
        assert [(c["item_type"], c["id"]) for c in entry["calls"]] == wanted
        for call in entry["calls"]:
            assert set(call) == CALL_KEYS
            assert call["kind"] == CALL_ITEMS[call["item_type"]]
            assert isinstance(call["success"], bool) and isinstance(call["message"], str)
            assert isinstance(call["output"], dict) and call["output"], call["id"]
        called = {c["kind"] for c in entry["calls"] if c["item_type"] in HOSTED_CALL_ITEMS}
        names = entry["hosted_outputs"]
        for kind in called:  # one aggregated output per called kind (mcp: per server)
            assert any(name == kind or name.startswith(f"{kind}-") for name in names)
        assert entry["unread_items"] == []
    has_calls = any(expected)
    assert has_calls == (path.name not in WITHOUT_CALLS)


@pytest.mark.parametrize("path", REAL_FILES, ids=IDS)
def test_json_is_what_inspect_path_builds(path: Path, cli: Callable[..., Run]) -> None:
    run = cli("inspect", str(path), "--json")
    assert json.loads(run.out) == json.loads(
        json.dumps(inspect_path(path, default_hosted_tool_codecs()))
    )


def test_streamed_and_error_interactions(cli: Callable[..., Run]) -> None:
    by_name = {path.name: path for path in REAL_FILES}
    stream_path = by_name["model_web_search_tool_stream.yaml"]
    streamed = json.loads(cli("inspect", str(stream_path), "--json").out)
    assert [i["streamed"] for i in streamed["interactions"]] == [True, False]
    assert streamed["interactions"][0]["response_status"] == "completed"

    failed = json.loads(cli("inspect", str(by_name["model_http_error.yaml"]), "--json").out)
    (entry,) = failed["interactions"]
    assert entry["status_code"] == 400
    assert entry["error"]["code"] == "decimal_below_min_value"
    assert "temperature" in entry["error"]["message"]
    assert entry["calls"] == [] and entry["hosted_outputs"] == {}


@pytest.mark.parametrize("path", REAL_FILES, ids=IDS)
def test_human_form_names_every_call(path: Path, cli: Callable[..., Run]) -> None:
    run = cli("inspect", str(path))
    assert run.code == 0, run.err
    assert run.out.splitlines()[0] == str(path)
    for calls in _expected_calls(path):
        for item_type, item_id in calls:
            line = next(line for line in run.out.splitlines() if item_id in line)
            assert item_type in line
    for key in ('"searches"', '"codes"', '"images"', '"listed_tools"', '"queries"'):
        assert key not in run.out  # short summaries, not the output JSON


def test_human_summaries_say_what_each_call_did(cli: Callable[..., Run]) -> None:
    by_name = {path.name: path for path in REAL_FILES}

    def shown(name: str) -> str:
        return cli("inspect", str(by_name[name])).out

    web = shown("model_web_search_tool.yaml")
    assert 'search "weather: San Francisco, CA"' in web
    assert "tools sent: web_search" in web
    code = shown("code_execution_return_image.yaml")
    assert 'code "import numpy as np"' in code and "image image/png" in code and "kB" in code
    image = shown("image_generation_jpeg.yaml")
    assert "image 1536x1024 jpeg" in image and "kB" in image
    assert "/9j/" not in image  # no base64 in the human form
    mcp = shown("model_mcp_server_tool.yaml")
    assert "deepwiki.ask_question(" in mcp and "lists 1 tool (ask_question)" in mcp
    files = shown("model_file_search_tool.yaml")
    assert 'queries "What is the capital of France?"' in files
    assert "#0  POST /v1/files  ->  200" in files
    error = shown("model_http_error.yaml")
    assert "error: decimal_below_min_value:" in error
    assert "(streamed)" in shown("model_web_search_tool_stream.yaml")


def test_tooltape_cassettes_read_the_same_way(cli: Callable[..., Run]) -> None:
    path = (
        REPO
        / "cassettes"
        / "tests"
        / "contracts"
        / "test_recorded_contracts"
        / "test_hosted_kind_round_trip[mcp].json"
    )
    report = json.loads(cli("inspect", str(path), "--json").out)
    assert report["format"] == "tooltape"
    (entry,) = report["interactions"]
    assert [c["item_type"] for c in entry["calls"]] == ["mcp_list_tools", "mcp_call"]
    human = cli("inspect", str(path)).out
    assert "tooltape cassette (loopback)" in human and "provenance: recorded by tooltape" in human


def test_a_plain_exchange_has_no_calls(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = write_cassette(tmp_path / "plain.json", clean_interaction())
    report = json.loads(cli("inspect", str(path), "--json").out)
    assert report["interactions"][0]["calls"] == []
    assert 'answer: "Hi."' in cli("inspect", str(path)).out


def test_a_failed_call_shows_its_error(cli: Callable[..., Run], tmp_path: Path) -> None:
    failed_item = {
        "type": "web_search_call",
        "id": "ws_synthetic_failed",
        "status": "failed",
        "action": {"type": "search", "query": "synthetic"},
        "error": {"code": "search_unavailable", "message": "synthetic outage"},
    }
    path = write_cassette(
        tmp_path / "failed.json",
        interaction(
            {"json": {"model": "gpt-5", "input": "x", "tools": [{"type": "web_search"}]}},
            {"json": {"id": "resp_synthetic", "status": "completed", "output": [failed_item]}},
        ),
    )
    (call,) = json.loads(cli("inspect", str(path), "--json").out)["interactions"][0]["calls"]
    assert (call["id"], call["status"], call["success"]) == ("ws_synthetic_failed", "failed", False)

    line = next(
        line for line in cli("inspect", str(path)).out.splitlines() if "ws_synthetic" in line
    )
    assert "failed" in line and "search_unavailable" in line


def test_unreadable_and_missing_cassettes(cli: Callable[..., Run], tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    run = cli("inspect", str(broken))
    assert run.code == 1
    assert str(broken) in run.err and "invalid JSON" in run.err and "git checkout" in run.err

    missing = cli("inspect", str(tmp_path / "gone.json"))
    assert missing.code == 2 and "gone.json" in missing.err and "no such file" in missing.err

    folder = cli("inspect", str(tmp_path))
    assert folder.code == 2 and "is a folder" in folder.err


def test_a_json_answer_cut_off_and_kept_as_text_is_named_unreadable(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    # A hand edit (or a copy cut short) leaves the body text the SDK would fail to parse.
    document = json.loads(
        (REPO / "cassettes" / "imported" / "model_web_search_tool.json").read_text()
    )
    response = document["interactions"][1]["response"]
    whole = json.dumps(response["body"]["json"])
    response["body"] = {"text": whole[:200]}
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(document))

    run = cli("inspect", str(path))
    assert run.code == 0, run.err
    assert "#1  POST /v1/responses  ->  200\n" in run.out
    assert "error: unreadable_body: the JSON body does not parse: Unterminated string" in run.out
    shown = cli("inspect", "--json", str(path))
    error = json.loads(shown.out)["interactions"][1]["error"]
    assert error["code"] == "unreadable_body"

    # text that is no JSON at all, or whole JSON kept as text, is not called cut off
    for text in ("plain words", whole):
        response["body"] = {"text": text}
        path.write_text(json.dumps(document))
        assert "unreadable_body" not in cli("inspect", str(path)).out
