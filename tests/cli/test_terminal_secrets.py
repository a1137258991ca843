"""Nothing a command prints holds a credential: a cassette edited by hand may hold one
(a live key of the environment, any known key shape), and ``inspect``, ``check`` and
the error messages would otherwise print it as it is.

Every cassette here is synthetic.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run, interaction, write_cassette

LIVE_TOKEN = "svc." + "Lq4" * 8  # no shape tooltape knows: found by its value only
SHAPED_KEY = "sk-proj-" + "Zr7" * 8


def _leaky(path: Path) -> Path:
    call = {
        "type": "function_call",
        "id": "fc_synthetic",
        "call_id": "call_synthetic",
        "name": "lookup",
        "arguments": json.dumps({"token": LIVE_TOKEN, "key": SHAPED_KEY}),
    }
    failed = {
        "type": "web_search_call",
        "id": "ws_synthetic",
        "status": "failed",
        "action": {"type": "search", "query": "x"},
        "error": {"code": "bad_key", "message": f"rejected {SHAPED_KEY} and {LIVE_TOKEN}"},
    }
    request = {"model": "gpt-5", "input": "x", "tools": [{"type": "web_search"}]}
    response = {"id": "resp_synthetic", "status": "completed", "output": [call, failed]}
    return write_cassette(path, interaction({"json": request}, {"json": response}))


def _assert_hidden(text: str) -> None:
    assert LIVE_TOKEN not in text
    assert SHAPED_KEY not in text
    assert "Lq4Lq4" not in text and "Zr7Zr7" not in text  # no piece of either


@pytest.fixture(autouse=True)
def live_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOOKUP_SERVICE_TOKEN", LIVE_TOKEN)


@pytest.mark.parametrize("form", [(), ("--json",)], ids=["human", "json"])
def test_inspect_prints_a_hand_edited_cassette_with_its_credentials_hidden(
    cli: Callable[..., Run], tmp_path: Path, form: tuple[str, ...]
) -> None:
    path = _leaky(tmp_path / "leaky.json")
    run = cli("inspect", str(path), *form)
    assert run.code == 0, run.err
    _assert_hidden(run.out + run.err)
    assert "lookup" in run.out and "bad_key" in run.out, "the rest is still shown"
    assert "REDACTED" in run.out and "sk-REDACTED" in run.out


def test_lint_and_check_print_no_credential(cli: Callable[..., Run], tmp_path: Path) -> None:
    _leaky(tmp_path / "cassettes" / "leaky.json")
    lint = cli("lint", str(tmp_path / "cassettes"))
    assert lint.code == 1, "the credentials are findings"
    check = cli("check", str(tmp_path / "cassettes"))
    for run in (lint, check):
        _assert_hidden(run.out + run.err)


def test_an_error_message_naming_a_credential_hides_it(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    run = cli("inspect", str(tmp_path / f"{LIVE_TOKEN}.json"))
    assert run.code != 0
    assert "no such file" in run.err and "REDACTED.json" in run.err
    _assert_hidden(run.err)


def test_a_line_cut_short_keeps_no_piece_of_a_credential(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    """The cut would fall inside each credential: neither is left in part."""
    call = {
        "type": "function_call",
        "id": "fc_synthetic",
        "call_id": "call_synthetic",
        "name": "lookup",
        "arguments": json.dumps({"note": "n" * 25, "token": LIVE_TOKEN}),
    }
    search = {
        "type": "web_search_call",
        "id": "ws_synthetic",
        "status": "completed",
        "action": {"type": "search", "query": "find " + "q" * 40 + " " + SHAPED_KEY},
    }
    response = {"id": "resp_synthetic", "status": "completed", "output": [call, search]}
    path = write_cassette(
        tmp_path / "cut.json", interaction({"json": {"input": "x"}}, {"json": response})
    )
    run = cli("inspect", str(path))
    assert run.code == 0, run.err
    assert "nnnnn" in run.out and "qqqqq" in run.out
    _assert_hidden(run.out)
    assert "sk-proj" not in run.out, "not even the start of the key's shape"


def test_a_bad_value_an_error_quotes_is_redacted_before_it_is_cut(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    path = write_cassette(tmp_path / "bad.json", interaction({"json": {}}, {"json": {}}))
    document = json.loads(path.read_text(encoding="utf-8"))
    document["tooltape"]["source"] = "x" * 30 + SHAPED_KEY  # not one of the known sources
    path.write_text(json.dumps(document), encoding="utf-8")
    run = cli("inspect", str(path))
    assert run.code != 0 and "/tooltape/source" in run.err
    _assert_hidden(run.err)
    assert "sk-proj" not in run.err


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", f"--api-key={SHAPED_KEY}"),
        ("lint", "--token", LIVE_TOKEN),
        (SHAPED_KEY,),
        ("check", f"--strict={LIVE_TOKEN}"),
    ],
    ids=["unknown option", "unknown option and value", "unknown command", "value of a flag"],
)
def test_a_usage_error_quoting_a_credential_hides_it(
    cli: Callable[..., Run], argv: tuple[str, ...]
) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert "error:" in run.err and "usage:" in run.err
    _assert_hidden(run.out + run.err)
