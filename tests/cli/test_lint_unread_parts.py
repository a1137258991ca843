"""``tooltape lint`` finds a secret in a part of a cassette file tooltape does not read.

A hand edit (or another tool) may add entries the reader ignores: the
cassette as read holds no secret, but the file, committed, does. The keys
below are synthetic.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import FAKE_KEY, Run, clean_interaction, write_cassette


def _edited(path: Path, edit: Callable[[dict[str, object]], None]) -> bytes:
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    data = (json.dumps(document, indent=2) + "\n").encode()
    path.write_bytes(data)
    return data


@pytest.mark.parametrize(
    "edit",
    [
        lambda doc: doc.__setitem__("notes", f"key for local runs: {FAKE_KEY}"),
        lambda doc: doc["interactions"][0].__setitem__("comment", FAKE_KEY),
        lambda doc: doc["interactions"][0]["request"].__setitem__(FAKE_KEY, True),
    ],
    ids=["top level", "interaction", "a key of the request"],
)
def test_a_key_in_an_entry_the_reader_ignores_is_a_finding(
    cli: Callable[..., Run], project: Path, edit: Callable[[dict[str, object]], None]
) -> None:
    path = write_cassette(project / "cassettes" / "imported" / "edited.json", clean_interaction())
    data = _edited(path, edit)
    line = next(n for n, text in enumerate(data.decode().splitlines(), 1) if FAKE_KEY in text)

    run = cli("lint")

    assert run.code == 1, run.out
    assert "cassettes/imported/edited.json" in run.out
    assert (
        f"  secret  line {line}  OpenAI-style key in a part of the file tooltape does not read"
        in (run.out)
    )
    assert FAKE_KEY not in run.out + run.err
    assert FAKE_KEY[12:] not in run.out + run.err
    assert path.read_bytes() == data


def test_a_key_in_a_field_of_a_vcrpy_cassette_no_reader_uses_is_a_finding(
    cli: Callable[..., Run], project: Path
) -> None:
    path = project / "cassettes" / "tests" / "test_api" / "test_x.yaml"
    path.parent.mkdir(parents=True)
    text = (
        "interactions:\n"
        "- request:\n"
        "    body: null\n"
        "    headers: {}\n"
        "    method: GET\n"
        "    uri: https://api.openai.com/v1/models\n"
        f"    debug_note: sent with {FAKE_KEY}\n"
        "  response:\n"
        "    body: {string: ''}\n"
        "    headers: {}\n"
        "    status: {code: 200, message: OK}\n"
        "version: 1\n"
    )
    path.write_text(text, encoding="utf-8")

    run = cli("lint", "cassettes")

    assert run.code == 1, run.out
    assert "line 7" in run.out
    assert FAKE_KEY not in run.out + run.err
    assert path.read_text(encoding="utf-8") == text


def test_a_clean_file_with_entries_the_reader_ignores_has_no_finding(
    cli: Callable[..., Run], project: Path
) -> None:
    path = write_cassette(project / "cassettes" / "imported" / "noted.json", clean_interaction())
    _edited(path, lambda doc: doc.__setitem__("notes", "recorded on a Tuesday"))

    run = cli("lint")

    assert run.code == 0, run.out


def test_import_says_its_source_still_holds_a_key_in_an_entry_it_does_not_read(
    cli: Callable[..., Run], project: Path
) -> None:
    source = write_cassette(project / "recorded" / "edited.json", clean_interaction())
    data = _edited(source, lambda doc: doc.__setitem__("notes", f"key: {FAKE_KEY}"))

    run = cli("import", str(source), "--out", "cassettes")

    assert run.code == 0, run.out + run.err
    assert "1 source still holds credentials the imported copies do not" in run.out
    assert FAKE_KEY not in run.out + run.err
    assert FAKE_KEY not in (project / "cassettes" / "edited.json").read_text(encoding="utf-8")
    assert source.read_bytes() == data
