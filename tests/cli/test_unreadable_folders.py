"""A folder the system will not list, among the cassettes or as the cassette folder itself.

The folder is made unreadable as :mod:`folder_refusal` does it (the suite may run
as root). A folder that cannot be read is never taken for one with nothing in it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run, clean_interaction, write_cassette
from folder_refusal import refuse_listing, refuse_reading


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.tooltape]\n")
    write_cassette(tmp_path / "cassettes" / "imported" / "a.json", clean_interaction())
    write_cassette(tmp_path / "cassettes" / "private" / "b.json", clean_interaction())
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "argv", [["lint"], ["lint", "cassettes"], ["check"], ["check", "cassettes"]]
)
def test_an_unreadable_cassette_folder_is_an_error_not_an_empty_folder(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    refuse_listing(monkeypatch, project / "cassettes")
    run = cli(*argv)
    assert run.code == 1, run.out
    assert "cannot read cassettes (Permission denied)" in run.err
    assert "chmod" in run.err
    assert "no cassettes" not in run.out and "no findings" not in run.out


@pytest.mark.parametrize("command", ["lint", "check"])
def test_an_unreadable_sub_folder_is_named_not_skipped(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    refuse_listing(monkeypatch, project / "cassettes" / "private")
    run = cli(command)
    assert run.code == 1, run.out
    assert "cannot read cassettes/private (Permission denied)" in run.err
    assert "pyvenv.cfg" not in run.err
    assert "no findings" not in run.out


def test_import_of_a_folder_with_an_unreadable_sub_folder_imports_nothing(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_listing(monkeypatch, project / "cassettes" / "private")
    run = cli("import", "cassettes", "--out", "out")
    assert run.code == 1
    assert "cannot read cassettes/private (Permission denied)" in run.err
    assert not (project / "out").exists()


@pytest.mark.parametrize("command", ["lint", "check"])
def test_an_unreadable_folder_elsewhere_in_the_project_does_not_stop_an_empty_one(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # A new project (nothing recorded) beside a folder it cannot read, such as a database
    # volume a container owns: the search for cassettes kept elsewhere passes it by.
    (tmp_path / "pyproject.toml").write_text("[tool.tooltape]\n")
    (tmp_path / "cassettes").mkdir()
    (tmp_path / "db-data" / "locked").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    refuse_listing(monkeypatch, tmp_path / "db-data" / "locked")
    run = cli(command)
    assert run.code == 0, run.err
    assert run.err == ""


@pytest.mark.parametrize("command", ["lint", "check"])
def test_cassettes_kept_elsewhere_are_still_named_beside_an_unreadable_folder(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.tooltape]\n")
    (tmp_path / "cassettes").mkdir()
    write_cassette(tmp_path / "tests" / "cassettes" / "a.json", clean_interaction())
    (tmp_path / "db-data" / "locked").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    refuse_listing(monkeypatch, tmp_path / "db-data" / "locked")
    run = cli(command)
    assert run.code == 0, run.err
    assert "no cassettes in cassettes, but the project holds some elsewhere:" in run.out
    assert "tests/cassettes: 1 JSON" in run.out


@pytest.mark.parametrize("command", ["lint", "check"])
def test_an_unreadable_pyproject_is_named_with_the_permission_fix(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    refuse_reading(monkeypatch, project / "pyproject.toml")
    run = cli(command)
    assert run.code == 1, run.err  # the system refused a file: not a usage error
    assert run.err.startswith(f"tooltape {command}: error: {project / 'pyproject.toml'} ")
    assert "cannot be read (Permission denied)" in run.err
    assert f"`chmod u+r {project / 'pyproject.toml'}`" in run.err
    assert "TOML" not in run.err
