"""``tooltape check``: the contract matrix over a cassette folder."""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import REPO, FakeTerminal, Run

from tooltape.cli import check as check_module
from tooltape.cli import main
from tooltape.cli.folders import bundled_cassettes
from tooltape.cli.terminal import Progress
from tooltape.testing.contracts import builtin_subjects, client_subjects

# Every row of the matrix: the hosted kinds, the client-executed kinds and plain functions.
KINDS = sorted({**builtin_subjects(), **client_subjects()})


def _rows(out: str) -> dict[str, list[str]]:
    """The matrix rows by kind, split into cells on runs of 2+ spaces."""
    rows: dict[str, list[str]] = {}
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells and cells[0] in KINDS:
            rows[cells[0]] = cells
    return rows


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A private copy of the project's cassettes, safe to break."""
    return Path(shutil.copytree(REPO / "cassettes", tmp_path / "cassettes"))


def test_check_on_the_repo_passes_fast_and_quietly(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    started = time.perf_counter()
    run = cli("check")
    elapsed = time.perf_counter() - started

    assert run.code == 0, run.out
    assert elapsed < 10
    assert "unread:" not in run.out  # every bundled spec snapshot belongs to a kind
    assert run.err == ""  # no progress bar, no noise: stderr is not a TTY here
    assert run.out.startswith("cassettes: cassettes (")
    header = next(line for line in run.out.splitlines() if line.startswith("kind"))
    for column in ("coverage", "spec snapshot", "replay", "failure semantics", "streamed"):
        assert column in header
    rows = _rows(run.out)
    assert sorted(rows) == KINDS
    for kind, cells in rows.items():
        assert cells[1] == "recorded", kind
        assert cells[2] == "ok", kind
        assert cells[3].startswith("ok ("), kind
        assert cells[4] == "ok", kind
    # streamed is informative: kinds without a streamed recording still pass
    assert rows["code_interpreter"][5] == "no"
    assert rows["web_search"][5].startswith("yes")
    assert f"{len(KINDS)} checked kinds: every contract holds" in run.out
    assert "not covered" not in run.out


def test_columns_are_aligned(cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    out = cli("check").out.splitlines()
    lines = [line for line in out if line.split(" ")[0] in KINDS]
    header = next(line for line in out if line.startswith("kind"))
    starts = [header.index(name) for name in ("spec snapshot", "replay", "failure semantics")]
    for line in lines:
        for start in starts:
            assert line[start - 1] == " " and line[start] != " ", line


def test_without_a_cassettes_folder_the_bundled_ones_are_used(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli("check")
    assert run.code == 0, run.out
    bundled = bundled_cassettes()
    assert bundled is not None
    assert f"cassettes: {bundled} (the cassettes bundled with tooltape" in run.out
    assert sorted(_rows(run.out)) == KINDS


def test_a_drifted_spec_fails_with_the_diff_under_the_table(
    cli: Callable[..., Run], corpus: Path
) -> None:
    spec = corpus / "specs" / "web_search.json"
    document = json.loads(spec.read_text())
    document["spec"]["search_context_size"] = "high"
    spec.write_text(json.dumps(document))

    run = cli("check", str(corpus))

    assert run.code == 1
    rows = _rows(run.out)
    assert rows["web_search"][2] == "FAIL"
    assert rows["file_search"][2] == "ok"
    below = run.out.split("web_search: spec snapshot failed", 1)[1]
    assert "search_context_size" in below
    assert f"`tooltape check {corpus} --update-specs`" in below
    assert "--snapshot-update" not in run.out
    assert f"1 of {len(KINDS)} checked kinds failed (web_search)" in run.out


def test_update_specs_rewrites_the_snapshot(cli: Callable[..., Run], corpus: Path) -> None:
    spec = corpus / "specs" / "web_search.json"
    before = spec.read_text()
    spec.write_text(before.replace("python.org", "example.org"))
    assert cli("check", str(corpus)).code == 1

    run = cli("check", str(corpus), "--update-specs")
    assert run.code == 0, run.out
    assert _rows(run.out)["web_search"][2] == "written"
    assert spec.read_text() == before
    assert cli("check", str(corpus)).code == 0


def test_a_kind_without_recordings_fails_with_how_to_add_one(
    cli: Callable[..., Run], corpus: Path
) -> None:
    for path in corpus.rglob("*.json"):
        if "image_generation" in path.read_text() and "specs" not in path.parts:
            text = path.read_text().replace('"image_generation_call"', '"unknown_call"')
            path.write_text(text)

    # the spec snapshot still covers the kind; without a recording its replay is not checked
    run = cli("check", str(corpus))
    assert run.code == 0, run.out
    row = _rows(run.out)["image_generation"]
    assert row[1] == "snapshot" and row[3] == "- (no recording)"

    # required, it fails saying how to add a recording
    required = cli("check", str(corpus), "--strict")
    assert required.code == 1
    assert _rows(required.out)["image_generation"][3] == "FAIL"
    reason = required.out.split("image_generation: replay and failure semantics failed", 1)[1]
    assert "tooltape import" in reason and "--record-mode=once" in reason


def test_unreadable_cassettes_are_listed_with_what_to_do(
    cli: Callable[..., Run], corpus: Path
) -> None:
    broken = corpus / "imported" / "broken.json"
    broken.write_text('{"tooltape": {"version": "0", "source": "synthetic"}, "interactions": [')

    run = cli("check", str(corpus))

    assert run.code == 1
    listing = run.out.split("unreadable: 1 cassette", 1)[1]
    assert "broken.json" in listing and "invalid JSON" in listing
    assert "git checkout" in listing  # what to do
    assert "1 cassette unreadable" in run.out


def test_usage_errors_exit_2(cli: Callable[..., Run], tmp_path: Path) -> None:
    missing = cli("check", str(tmp_path / "nope"))
    assert missing.code == 2
    assert "nope does not exist" in missing.err and "pass a folder" in missing.err


def test_update_specs_refuses_the_bundled_cassettes(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli("check", "--update-specs")
    assert run.code == 2
    assert "pass the folder you own" in run.err


def test_a_progress_bar_on_a_terminal_only(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(check_module, "Progress", functools.partial(Progress, delay=0))
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    run = cli("check")
    drawn = terminal.getvalue()
    assert run.code == 0
    assert "[" in drawn and "/" in drawn and "#" in drawn
    assert drawn.endswith("\r\033[K")  # erased once done
    assert "\r" not in run.out  # the table itself is untouched


def _user_project(root: Path, pyproject: str = "") -> Path:
    """A project that recorded one web search test, and nothing else yet."""
    folder = root / "cassettes" / "tests" / "test_weather"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "cassettes" / "imported" / "model_web_search_tool.json", folder)
    if pyproject:
        (root / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    return root


def test_a_user_project_passes_covering_only_what_it_recorded(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(_user_project(tmp_path))
    run = cli("check")
    assert run.code == 0, run.out
    rows = _rows(run.out)
    assert rows["web_search"][1:4] == [
        "recorded",
        "- (no snapshot)",
        "ok (2 call(s) in 1 cassette(s))",
    ]
    # web_search_preview answers with the same web_search_call items, but the requests
    # offered web_search: the recording covers that kind alone
    for kind in KINDS:
        if kind != "web_search":
            assert rows[kind][1] == "not covered", kind
    assert "not covered: " in run.out and "required_kinds" in run.out
    assert "web_search: no snapshot: write cassettes/specs/web_search.json with" in run.out
    assert "1 checked kind: every contract holds" in run.out

    written = cli("check", "--update-specs")
    assert written.code == 0
    assert sorted(p.name for p in (tmp_path / "cassettes" / "specs").iterdir()) == [
        "web_search.json",
    ]
    assert _rows(cli("check").out)["web_search"][2] == "ok"


def test_spec_snapshots_no_checked_kind_reads_are_listed_without_failing(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(_user_project(tmp_path))
    assert cli("check", "--update-specs").code == 0
    specs = tmp_path / "cassettes" / "specs"
    kept = (specs / "web_search.json").read_text(encoding="utf-8")
    (specs / "retired_search.json").write_text(kept, encoding="utf-8")
    (specs / "web_search.TestMine.json").write_text(kept, encoding="utf-8")
    (specs / "notes.txt").write_text("not a snapshot", encoding="utf-8")

    run = cli("check")
    assert run.code == 0, run.out
    below = run.out.split("unread: 2 spec snapshots no checked kind reads", 1)[1]
    listed = [line.strip() for line in below.splitlines()[1:3]]
    assert listed == [
        str(Path("cassettes/specs/retired_search.json")),
        str(Path("cassettes/specs/web_search.TestMine.json")),
    ]
    assert "delete one left from a kind that is gone" in below
    assert "name the class in codecs under [tool.tooltape]" in below
    assert "1 checked kind: every contract holds" in run.out
    assert _rows(run.out)["web_search"][2] == "ok"


def test_required_kinds_come_from_the_project_settings(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(_user_project(tmp_path, '[tool.tooltape]\nrequired_kinds = ["mcp"]\n'))
    run = cli("check")
    assert run.code == 1
    assert "settings: [tool.tooltape] in" in run.out
    assert _rows(run.out)["mcp"][1] == "required"
    assert "mcp: replay and failure semantics failed" in run.out and "--record-mode=once" in run.out

    strict = _user_project(tmp_path / "strict", "[tool.tooltape]\nstrict = true\n")
    monkeypatch.chdir(strict)
    assert all(row[1] == "required" for row in _rows(cli("check").out).values())


def test_bad_project_settings_are_usage_errors_naming_the_file(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(_user_project(tmp_path, '[tool.tooltape]\nrequired_kinds = ["nope"]\n'))
    run = cli("check")
    assert run.code == 2
    assert "pyproject.toml" in run.err and "'nope'" in run.err and "web_search" in run.err

    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncodecs = ["missing_mod:X"]\n')
    run = cli("check")
    assert run.code == 2
    assert "importing missing_mod failed" in run.err

    # a module that exits when imported is an error like any other, not a silent exit
    (tmp_path / "exiting_codecs.py").write_text("raise SystemExit(5)\n")
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncodecs = ["exiting_codecs:X"]\n')
    run = cli("check")
    assert run.code == 2
    assert "codec 'exiting_codecs:X': importing exiting_codecs failed (SystemExit: 5)" in run.err


def test_a_project_without_its_cassette_folder_passes_empty_never_against_the_bundled_ones(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    project = _user_project(tmp_path, '[tool.tooltape]\ncassette_dir = "tapes"\n')
    monkeypatch.chdir(project)
    # a project that has recorded nothing yet passes, saying so: a first CI run is green
    run = cli("check")
    assert run.code == 0, run.out + run.err
    assert run.out.startswith("cassettes: tapes (not created yet: nothing recorded)")
    assert "no kind is covered yet" in run.out
    assert "bundled" not in run.out
    assert not (project / "tapes").exists()
    lint = cli("lint")
    assert lint.code == 0 and "no cassettes in tapes" in lint.out

    # ...unless it requires a kind: then it fails for want of a recording
    (project / "pyproject.toml").write_text('[tool.tooltape]\nrequired_kinds = ["mcp"]\n')
    (project / "cassettes").rename(project / "elsewhere")
    run = cli("check")
    assert run.code == 1 and "no cassette under cassettes holds a call" in run.out

    # a folder whose parent is missing too is a wrong setting, not an empty project
    (project / "pyproject.toml").write_text('[tool.tooltape]\ncassette_dir = "tset/tapes"\n')
    run = cli("check")
    assert run.code == 2 and "no cassette folder tset/tapes (cassette_dir from" in run.err


def test_cassettes_kept_elsewhere_are_named_instead_of_checking_nothing_silently(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # tooltape cassettes where the project's own fixture put them, and pytest-recording's
    # YAML cassettes at its own place: <module folder>/cassettes/<module>/<test>.yaml.
    project = _user_project(tmp_path, '[project]\nname = "weather"\n')
    (project / "tests").mkdir()
    (project / "cassettes").rename(project / "tests" / "vcr_cassettes")
    (project / "tests" / "test_old.py").write_text("def test_search():\n    pass\n")
    legacy = project / "tests" / "cassettes" / "test_old"
    legacy.mkdir(parents=True)
    real = REPO / "tests" / "data" / "real-cassettes" / "openai-responses"
    shutil.copy(real / "model_web_search_tool.yaml", legacy / "test_search.yaml")
    hidden = project / ".venv" / "lib" / "cassettes"
    hidden.mkdir(parents=True)
    (hidden / "vendored.json").write_text("{}")
    monkeypatch.chdir(project)

    run = cli("check")
    assert run.code == 0, run.out + run.err  # nothing is required: still a pass, but said
    own, yaml = Path("tests") / "vcr_cassettes", Path("tests") / "cassettes"
    assert (
        "no cassettes in cassettes, but the project holds some elsewhere:\n"
        f"  {yaml}: 1 YAML\n  {own}: 1 JSON\n" in run.out
    )
    assert f"`tooltape check {own}`" in run.out
    assert f'cassette_dir = "{own}"' in run.out
    assert f'cassette_dir = "{yaml}"' not in run.out  # the plugin never reads YAML there
    out = Path("cassettes") / "tests"
    assert f"    tooltape import {yaml} --out {out}\n" in run.out
    assert "vcr_cassette_dir fixture of your own" in run.out
    assert ".venv" not in run.out
    lint = cli("lint")
    assert lint.code == 0 and "but the project holds some elsewhere" in lint.out
    assert f"`tooltape lint {own}`" in lint.out

    # Each hint does what it says: the import lands where the plugin reads the test's
    # cassette, and checking the other folder covers the web search recorded there.
    assert main(["import", str(yaml), "--out", str(out)]) == 0
    assert (out / "test_old" / "test_search.json").is_file()
    assert [p.name for p in Path("cassettes").rglob("*.json")] == ["test_search.json"]
    run = cli("check", str(own))
    assert run.code == 0 and _rows(run.out)["web_search"][1] == "recorded"
    assert "holds some elsewhere" not in run.out
    (project / "pyproject.toml").write_text(f'[tool.tooltape]\ncassette_dir = "{own}"\n')
    run = cli("check")
    assert run.code == 0 and _rows(run.out)["web_search"][1] == "recorded"
    assert "holds some elsewhere" not in run.out


def test_check_from_a_sub_folder_finds_the_project(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    project = _user_project(tmp_path, '[tool.tooltape]\nmodel = "gpt-5"\n')
    (project / "tests").mkdir()
    monkeypatch.chdir(project / "tests")
    run = cli("check")
    assert run.code == 0, run.out + run.err
    assert run.out.startswith(f"cassettes: {Path('..') / 'cassettes'} (1 file)")
    assert f"settings: [tool.tooltape] in {project / 'pyproject.toml'}" in run.out
    assert _rows(run.out)["web_search"][1] == "recorded"


def test_under_strict_the_hint_is_the_command_that_writes_every_snapshot(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(_user_project(tmp_path))
    run = cli("check", "--strict")
    assert run.code == 1
    assert "write it with `tooltape check cassettes --strict --update-specs`" in run.out

    assert cli("check", "--strict", "--update-specs").code == 1  # still nothing recorded
    rows = _rows(cli("check", "--strict").out)
    assert all(rows[kind][2] == "ok" for kind in KINDS), rows


def _function_call_cassette(path: Path, call_id: object) -> None:
    """A synthetic cassette: one request offering a function, answered with one call."""
    from cli_helpers import interaction, write_cassette

    call = {"type": "function_call", "name": "lookup", "arguments": "{}", "call_id": call_id}
    write_cassette(
        path,
        interaction(
            {
                "json": {
                    "model": "gpt-5",
                    "input": "hi",
                    "tools": [{"type": "function", "name": "lookup"}],
                }
            },
            {"json": {"id": "resp_synthetic", "status": "completed", "output": [call]}},
        ),
    )


def test_a_malformed_cassette_fails_replay_naming_it_not_the_contract(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "cassettes"
    _function_call_cassette(folder / "broken.json", [])  # hand-edited: call_id is a list
    only_broken = cli("check", "cassettes")
    _function_call_cassette(folder / "sound.json", "call_1")
    both = cli("check", "cassettes")

    for run in (only_broken, both):
        assert run.code == 1
        assert "function: replay failed" in run.out
        assert "broken.json #0 output[0].call_id: a list, not a string" in run.out
        assert "failure semantics failed" not in run.out
    # with a sound call to check it with, the contract itself holds
    assert _rows(both.out)["function"][4] == "ok"
    assert _rows(only_broken.out)["function"][4].startswith("-")
