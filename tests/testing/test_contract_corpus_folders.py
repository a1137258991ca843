"""Which files the contract checks read, in a cassette folder that holds a folder the system
will not list (made unreadable as :mod:`folder_refusal` does it), and in a project where
such a folder lies outside the cassette folder.

An unreadable folder among the cassettes is an error naming it and the permission fix,
for ``tooltape check`` and for a ``HostedToolCodecContract`` subclass alike; one
elsewhere in the project stops nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from contract_project import WEB_SEARCH_CASSETTE, contract_project
from folder_refusal import refuse_listing

from tooltape.testing.contracts import (
    UnreadableFolderError,
    cassette_files,
    cassette_folders,
    load_corpus,
)

pytest_plugins = ["pytester"]


@pytest.fixture
def cassettes(tmp_path: Path) -> Path:
    """A cassette folder with two sub-folders, each holding one real recording."""
    folder = tmp_path / "cassettes"
    for name in ("imported", "private"):
        (folder / name).mkdir(parents=True)
        shutil.copy(WEB_SEARCH_CASSETTE, folder / name / "web_search.json")
    return folder


def test_an_unreadable_sub_folder_is_named_with_the_permission_fix(
    cassettes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_listing(monkeypatch, cassettes / "private")
    with pytest.raises(UnreadableFolderError) as raised:
        cassette_files(cassettes)
    message = str(raised.value)
    assert f"cannot read {cassettes / 'private'} (Permission denied)" in message
    assert f"`chmod -R u+rX {cassettes / 'private'}`" in message
    assert f"or move it out of {cassettes}" in message
    assert "pyvenv.cfg" not in message
    assert raised.value.folders == (cassettes / "private",)


def test_an_unreadable_cassette_folder_is_not_taken_for_an_empty_one(
    cassettes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_listing(monkeypatch, cassettes)
    with pytest.raises(UnreadableFolderError, match=r"cannot read \S+ \(Permission denied\)"):
        load_corpus(cassettes)


def test_a_folder_not_recorded_yet_holds_no_cassette(tmp_path: Path) -> None:
    assert cassette_files(tmp_path / "cassettes") == []


def test_hidden_folders_and_virtual_environments_are_not_read(
    cassettes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (cassettes / ".cache").mkdir()
    (cassettes / "venv").mkdir()
    (cassettes / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    refuse_listing(monkeypatch, cassettes / ".cache")
    assert [p.parent.name for p in cassette_files(cassettes)] == ["imported", "private"]


def test_an_unreadable_folder_elsewhere_in_the_project_does_not_stop_the_search(
    tmp_path: Path, cassettes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A database volume a container owns, beside the tests: the search passes it by.
    (tmp_path / "db-data" / "locked").mkdir(parents=True)
    refuse_listing(monkeypatch, tmp_path / "db-data" / "locked")
    found = cassette_folders(tmp_path)
    assert list(found) == [cassettes]


def test_a_folder_elsewhere_with_an_unreadable_part_still_shows_what_it_holds(
    tmp_path: Path, cassettes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_listing(monkeypatch, cassettes / "private")
    found = cassette_folders(tmp_path)
    assert found == {cassettes: [cassettes / "imported" / "web_search.json"]}


@pytest.mark.parametrize("refused", ["cassettes/private", "cassettes"])
def test_the_pytest_suite_names_an_unreadable_cassette_folder_and_the_fix(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, refused: str
) -> None:
    contract_project(pytester, "imported/web_search.json", "private/web_search.json")
    refuse_listing(monkeypatch, pytester.path / refused)
    # in-process, so that the folder stays refused while the suite reads it
    result = pytester.runpytest_inprocess(
        "test_contracts.py", "-p", "no:cacheprovider", "-k", "replay or failure"
    )
    result.assert_outcomes(errors=2)
    output = result.stdout.str()
    shown = pytester.path / refused
    assert output.count(f"cannot read {shown} (Permission denied)") == 2  # once per test
    assert f"`chmod -R u+rX {shown}`" in output
    assert "pyvenv.cfg" not in output and "no cassette under" not in output
    assert "Traceback" not in output and "corpus.py" not in output


def test_the_pytest_suite_passes_an_unreadable_folder_outside_its_cassettes(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    contract_project(pytester, "imported/ws.json")
    (pytester.path / "db-data" / "locked").mkdir(parents=True)
    refuse_listing(monkeypatch, pytester.path / "db-data" / "locked")
    result = pytester.runpytest_inprocess(
        "test_contracts.py", "-p", "no:cacheprovider", "-k", "replay or failure"
    )
    result.assert_outcomes(passed=2)
