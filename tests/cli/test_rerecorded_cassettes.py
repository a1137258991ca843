"""``check`` and ``lint`` over a folder where ``--record-mode=rewrite`` left pytest-recording's
``.yaml`` beside the ``.json`` it wrote.

A project's own ``vcr_cassette_dir`` fixture has the plugin read and record in
pytest-recording's folder: a test recorded there as ``<test>.yaml`` is replayed
from it until ``pytest --record-mode=rewrite`` records it again as
``<test>.json``, and the ``.yaml`` stays. Replay then reads the ``.json`` only;
``check`` counts that one and ``lint`` names the ``.yaml`` as superseded.

The project (``pytester``) records with pytest-recording alone, then with
tooltape, against a real HTTP server on loopback; the reply is synthetic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run, clean_interaction, write_cassette
from pytest_recording_conftest import OWN_DEFAULT_FOLDER

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Rw7" * 12

TEST_MODULE = """
import openai
import pytest


@pytest.mark.vcr
def test_search():
    response = openai.OpenAI().responses.create(
        model="gpt-5", input="weather?", tools=[{"type": "web_search"}]
    )
    assert response.id == "resp_rerecorded"
"""

# synthetic: a Responses answer holding one web search call
REPLY = {
    "id": "resp_rerecorded",
    "object": "response",
    "status": "completed",
    "model": "gpt-5",
    "output": [
        {
            "type": "web_search_call",
            "id": "ws_rerecorded",
            "status": "completed",
            "action": {"type": "search", "query": "weather"},
        },
        {
            "type": "message",
            "id": "msg_rerecorded",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}],
        },
    ],
}


def _record(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        run = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    monkeypatch.delenv("OPENAI_API_KEY")
    run.assert_outcomes(passed=1)


@pytest.fixture
def rerecorded(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    """A project whose test pytest-recording recorded, then tooltape re-recorded under
    ``rewrite``, in one folder; that folder."""
    pytester.makepyprojecttoml("[tool.tooltape]\n")
    tests = pytester.path / "tests"
    tests.mkdir()
    (tests / "test_search.py").write_text(TEST_MODULE)
    (tests / "conftest.py").write_text(OWN_DEFAULT_FOLDER)
    _record(pytester, monkeypatch, "-p", "no:tooltape", "--record-mode=once")
    _record(pytester, monkeypatch, "--record-mode=rewrite")
    folder = tests / "cassettes" / "test_search"
    assert sorted(p.name for p in folder.iterdir()) == ["test_search.json", "test_search.yaml"]
    monkeypatch.chdir(pytester.path)
    capsys.readouterr()  # what the recording runs printed is not the command's
    return folder


def test_replay_reads_the_json_beside_the_left_over_yaml(
    pytester: pytest.Pytester, rerecorded: Path
) -> None:
    # What check and lint rely on: the .yaml is no longer what replays.
    yaml = rerecorded / "test_search.yaml"
    yaml.write_text(yaml.read_text().replace("resp_rerecorded", "resp_from_the_yaml"))
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_check_counts_the_cassette_replay_reads_once(
    cli: Callable[..., Run], rerecorded: Path
) -> None:
    run = cli("check", "tests/cassettes")
    assert run.code == 0, run.out
    first = run.out.splitlines()[0]
    assert first.startswith("cassettes: tests/cassettes (1 file; ")
    assert "1 superseded .yaml left out" in first and "tooltape lint" in first
    row = next(line for line in run.out.splitlines() if line.startswith("web_search "))
    assert "ok (1 call(s) in 1 cassette(s))" in row


def test_lint_names_the_left_over_yaml_and_the_fix(
    cli: Callable[..., Run], rerecorded: Path
) -> None:
    run = cli("lint", "tests/cassettes")
    assert run.code == 1, run.out
    lines = run.out.splitlines()
    assert "tests/cassettes/test_search/test_search.yaml" in lines
    assert "tests/cassettes/test_search/test_search.json" not in lines  # nothing wrong with it
    finding = next(line for line in lines if "superseded" in line)
    assert re.match(
        r"  superseded cassette\s+\(whole file\)\s+replay reads test_search.json ", finding
    )
    fix = next(line for line in lines if line.startswith("fix (superseded cassette): "))
    assert "delete it" in fix
    assert lines[-1] == "1 finding in 1 file (2 cassettes in tests/cassettes)"


@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
def test_only_a_yaml_of_the_same_name_in_the_same_folder_is_superseded(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "cassettes" / "imported"
    write_cassette(folder / "a.json", clean_interaction())
    write_cassette(folder / f"a{suffix}", clean_interaction())  # JSON is YAML too
    write_cassette(folder / "b.yaml", clean_interaction())
    write_cassette(folder / "other" / "a.yaml", clean_interaction())

    lint = cli("lint", "cassettes")
    found = [line.strip() for line in lint.out.splitlines() if "superseded cassette  " in line]
    assert len(found) == 1, lint.out
    assert f"cassettes/imported/a{suffix}" in lint.out.splitlines()

    check = cli("check", "cassettes")
    assert check.out.startswith(f"cassettes: cassettes (3 files; 1 superseded {suffix} left out")


@pytest.mark.parametrize("named", ["shared.yaml", "common/shared.yaml"])
def test_a_yaml_a_test_names_as_a_shared_cassette_is_not_superseded(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: str
) -> None:
    # pytest-recording reads `@pytest.mark.vcr("shared.yaml")` as an extra cassette for the
    # test, whatever .json sits beside it: replay reads both files.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tooltape]\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_api.py").write_text(
        f'import pytest\n\n\n@pytest.mark.vcr("{named}")\ndef test_x():\n    pass\n'
    )
    folder = tmp_path / "cassettes" / "common"
    write_cassette(folder / "shared.json", clean_interaction())
    write_cassette(folder / "shared.yaml", clean_interaction())

    lint = cli("lint")
    assert "superseded" not in lint.out, lint.out
    check = cli("check")
    assert check.out.startswith("cassettes: cassettes (2 files)\n"), check.out


def test_a_yaml_named_only_in_a_comment_is_still_superseded(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tooltape]\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_api.py").write_text("# was shared.yaml\ndef test_x():\n    pass\n")
    write_cassette(tmp_path / "cassettes" / "shared.json", clean_interaction())
    write_cassette(tmp_path / "cassettes" / "shared.yaml", clean_interaction())
    check = cli("check")
    assert check.out.startswith("cassettes: cassettes (1 file; 1 superseded .yaml left out"), (
        check.out
    )
