"""``tooltape inspect``, ``check`` and ``lint`` refuse a hostile cassette with its file named.

The inputs are small synthetic files: deep nesting and a YAML alias bomb; values of a
type or spelling no recorder writes (a status code in superscript digits, an old vcrpy
``BytesIO`` body whose state is a number, a ``parsed_body`` holding YAML bytes, a URL
with an unpaired bracket, a header name holding a lone surrogate and a terminal
escape); response items whose ``type`` is an object, and a function name the API took
but no tooltape tool can carry.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import REPO, Run, interaction, write_cassette

HOSTILE = {
    "deep.yaml": ("interactions:\n- " + "[" * 100_000 + "]" * 100_000 + "\n", "nested deeper"),
    "laughs.yaml": (
        "a0: &a0 [lol]\n"
        + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10))
        + "interactions: *a9\n",
        "YAML aliases expand it",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_inspect_refuses_a_hostile_cassette_with_a_clear_error(
    cli: Callable[..., Run], tmp_path: Path, name: str
) -> None:
    text, reason = HOSTILE[name]
    path = tmp_path / name
    path.write_text(text)
    run = cli("inspect", str(path))
    assert run.code == 1
    assert f"cassette {path}: refused: {reason}" in run.err
    assert "Traceback" not in run.out + run.err


def test_check_lists_a_hostile_cassette_as_unreadable(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    corpus = Path(shutil.copytree(REPO / "cassettes", tmp_path / "cassettes"))
    for name, (text, _) in HOSTILE.items():
        (corpus / "imported" / name).write_text(text)
    run = cli("check", str(corpus))
    assert run.code == 1
    for name, (_, reason) in HOSTILE.items():
        assert f"{corpus / 'imported' / name}: refused: {reason}" in run.out
    assert "2 cassettes unreadable" in run.out


_VCR_REQUEST = (
    "interactions:\n- request: {method: POST, uri: 'https://api.openai.com/v1/responses', "
    "headers: {}, body: %s}\n"
    "  response: {status: {code: %s, message: OK}, headers: {}, body: {string: ''}}\n"
)

UNREADABLE = {
    # "²".isdigit() is true, yet int("²") raises ValueError.
    "superscript.yaml": (
        _VCR_REQUEST % ("null", "'²'"),
        "unexpected content at /interactions/0/response/status/code: expected an integer, "
        "got str '²'",
    ),
    # bytes(5) is five NUL bytes; bytes(8_000_000_000) would take 8 GB.
    "bytesio.yaml": (
        _VCR_REQUEST % ("!!python/object/new:_io.BytesIO {state: [5]}", "200"),
        "a BytesIO body's state must start with its bytes (a !!binary value), not int "
        "(line 2, column 90)",
    ),
    # YAML reads !!binary as bytes, which no JSON body holds.
    "parsed.yaml": (
        _VCR_REQUEST.replace("body: %s}", "parsed_body: {input: [1, !!binary aGk=]}}") % "200",
        "unexpected content at /interactions/0/request/parsed_body/input/1: expected JSON data, "
        "got bytes b'hi'",
    ),
    # urllib.parse refuses a bracket with no partner; replay splits every recorded URL.
    "bracket.yaml": (
        (_VCR_REQUEST % ("null", "200")).replace("https://api.openai.com", "http://[::1"),
        "unexpected content at /interactions/0/request/uri: expected a URL, got str "
        "'http://[::1/v1/responses' (Invalid IPv6 URL)",
    ),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_inspect_names_a_value_no_recorder_writes(
    cli: Callable[..., Run], tmp_path: Path, name: str
) -> None:
    text, said = UNREADABLE[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    run = cli("inspect", str(path))
    assert run.code == 1
    assert f"cassette {path}: " in run.err
    assert said in run.err
    assert "Traceback" not in run.out + run.err


def test_lint_prints_a_header_name_that_does_not_print_as_escapes(tmp_path: Path) -> None:
    # Run as a user runs it: a real stdout, which is strict UTF-8 and takes no lone surrogate.
    folder = tmp_path / "cassettes"
    write_cassette(
        folder / "odd.json",
        interaction(request_headers={"\ud800\x1b[2Jx": [1]}),  # type: ignore[dict-item]
    )
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "tooltape.cli", "lint", str(folder)],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    out = done.stdout.decode("utf-8")
    assert done.returncode == 1
    assert "Traceback" not in out + done.stderr.decode("utf-8", "replace")
    assert "/interactions/0/request/headers/\\ud800\\x1b[2Jx/0: expected a string" in out
    assert "\x1b" not in out


def _with_output(path: Path, output: list[object], name: str = "get_capital") -> Path:
    tool = {"type": "function", "name": name, "parameters": {"type": "object"}}
    return write_cassette(
        path,
        interaction(
            {"json": {"model": "gpt-5", "input": "Capital?", "tools": [tool]}},
            {"json": {"id": "resp_synthetic", "status": "completed", "output": output}},
        ),
    )


@pytest.mark.parametrize("kind", [{"name": "function_call"}, ["function_call"]])
def test_check_reads_past_an_item_whose_type_is_not_a_string(
    cli: Callable[..., Run], tmp_path: Path, kind: object
) -> None:
    corpus = Path(shutil.copytree(REPO / "cassettes", tmp_path / "cassettes"))
    before = cli("check", str(corpus))
    _with_output(corpus / "imported" / "odd_type.json", [{"type": kind, "call_id": "call_1"}])
    run = cli("check", str(corpus))
    assert "Traceback" not in run.out + run.err
    assert run.code == before.code
    assert "odd_type.json" not in run.out  # read, and no call of any kind in it


def test_check_says_a_recorded_function_name_no_tool_carries_instead_of_failing(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    # The API takes ^[a-zA-Z0-9_-]{1,64}$; tooltape tools are lower case.
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "getCapital",
        "arguments": json.dumps({"country": "France"}),
        "status": "completed",
    }
    _with_output(tmp_path / "cassettes" / "camel.json", [call], name="getCapital")
    run = cli("check", str(tmp_path / "cassettes"))
    assert run.code == 0
    assert "- (no name a tooltape tool carries)" in run.out
    assert "Traceback" not in run.out + run.err


@pytest.mark.parametrize(
    ("encoding", "name"),
    [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")],
)
def test_a_cassette_an_editor_saved_as_utf16_is_refused_saying_how_to_save_it(
    cli: Callable[..., Run], tmp_path: Path, encoding: str, name: str
) -> None:
    """Windows PowerShell's `>` writes UTF-16 with a byte order mark."""
    text = (REPO / "cassettes" / "imported" / "model_http_error.json").read_text(encoding="utf-8")
    path = tmp_path / "cassettes" / "saved.json"
    path.parent.mkdir()
    data = ("\ufeff" + text).encode(encoding) if encoding == "utf-16-be" else text.encode(encoding)
    path.write_bytes(data)

    inspect = cli("inspect", str(path))
    lint = cli("lint", str(path.parent))

    assert inspect.code == lint.code == 1
    assert f"cassette {path}: {name} text, not UTF-8" in inspect.err
    assert f"save it as UTF-8 (`iconv -f {name} -t UTF-8`" in inspect.err
    assert f"{name} text, not UTF-8" in lint.out
    assert path.read_bytes() == data
