"""A project recorded with plain pytest-recording, then given tooltape.

pytest-recording keeps a test's cassette at ``<module folder>/cassettes/<module
name>/<test>.yaml``; tooltape reads ``cassettes/<module path>/<test>.json``.
The failure of a test whose cassette is only at pytest-recording's place says
so and gives the ``tooltape import`` command that puts it where tooltape reads.

The projects (``pytester``) record with pytest-recording alone (tooltape's
plugin disabled) against a real HTTP server on loopback; the reply is synthetic.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from pytest_recording_conftest import OWN_DEFAULT_FOLDER

from tooltape.cli import main
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Lg4" * 12

TEST_MODULE = """
import openai
import pytest


@pytest.mark.vcr
def test_answer():
    response = openai.OpenAI().responses.create(model="gpt-5", input="hi")
    assert response.id == "resp_legacy"
"""

REPLY = {"id": "resp_legacy", "object": "response", "status": "completed", "model": "gpt-5"}


def _legacy_project(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, conftest: str
) -> Path:
    """A project whose test pytest-recording recorded (tooltape disabled); its .yaml."""
    pytester.makepyprojecttoml("[tool.tooltape]\n")
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_legacy.py").write_text(TEST_MODULE)
    if conftest:
        (pytester.path / "tests" / "conftest.py").write_text(conftest)
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        recorded = pytester.runpytest_subprocess(
            "-p", "no:tooltape", "-p", "no:cacheprovider", "--record-mode=once"
        )
    recorded.assert_outcomes(passed=1)
    monkeypatch.delenv("OPENAI_API_KEY")
    yaml = pytester.path / "tests" / "cassettes" / "test_legacy" / "test_answer.yaml"
    assert yaml.is_file()
    return yaml


def _command_after(output: str, prefix: str) -> list[str]:
    """The arguments of the first line of ``output`` that starts (indented) with ``prefix``."""
    for line in output.splitlines():
        if line.strip().startswith(prefix):
            return shlex.split(line.strip())
    raise AssertionError(f"no {prefix!r} line in:\n{output}")


def test_a_miss_names_pytest_recordings_cassette_and_the_import_that_moves_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _legacy_project(pytester, monkeypatch, "")

    missed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    missed.assert_outcomes(failed=1)
    output = missed.stdout.str()
    assert "No cassette at" in output
    assert "pytest --record-mode=once tests/test_legacy.py::test_answer" in output
    assert (
        "pytest-recording's cassette of this test is tests/cassettes/test_legacy/test_answer.yaml"
        in output
    )
    assert (
        "    tooltape import tests/cassettes/test_legacy/test_answer.yaml "
        "--out cassettes/tests/test_legacy\n" in output
    )
    assert "    tooltape import tests/cassettes --out cassettes/tests\n" in output

    # The command, run as printed from the project's folder, makes the cassette replay.
    monkeypatch.chdir(pytester.path)
    command = _command_after(output, "tooltape import tests/cassettes/")
    assert main(command[1:]) == 0
    assert (pytester.path / "cassettes" / "tests" / "test_legacy" / "test_answer.json").is_file()
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_a_projects_own_fixture_naming_pytest_recordings_folder_replays_it_there(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The project's vcr_cassette_dir is honoured even when it gives pytest-recording's
    # folder: the .yaml recorded there replays where it is, with nothing to import.
    yaml = _legacy_project(pytester, monkeypatch, OWN_DEFAULT_FOLDER)
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rA")
    replayed.assert_outcomes(passed=1)
    assert "tooltape import" not in replayed.stdout.str()
    assert not (pytester.path / "cassettes").exists()
    assert yaml.is_file()

    # A drift names the file the cassette was read from, not the .json tooltape would write.
    module = pytester.path / "tests" / "test_legacy.py"
    module.write_text(
        module.read_text().replace('.create(model="gpt-5", input="hi")', '.retrieve("resp_legacy")')
    )
    drifted = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    drifted.assert_outcomes(failed=1)
    assert (
        "Wire drift: GET /v1/responses/resp_legacy made by tests/test_legacy.py::test_answer "
        f"matches no unplayed interaction of {yaml}." in drifted.stdout.str()
    )


def test_from_the_tests_folder_the_import_runs_as_printed_there(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _legacy_project(pytester, monkeypatch, "")
    monkeypatch.chdir(pytester.path / "tests")
    missed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    missed.assert_outcomes(failed=1)
    output = missed.stdout.str()
    assert "pytest-recording's cassette of this test is cassettes/test_legacy/test_answer.yaml" in (
        output
    )
    command = _command_after(output, "tooltape import cassettes/test_legacy/")
    assert command[-2:] == ["--out", "../cassettes/tests/test_legacy"]
    assert main(command[1:]) == 0
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_the_folder_command_imports_every_cassette_where_tooltape_reads_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _legacy_project(pytester, monkeypatch, "")
    output = pytester.runpytest_subprocess("-p", "no:cacheprovider").stdout.str()

    monkeypatch.chdir(pytester.path)
    assert main(_command_after(output, "tooltape import tests/cassettes ")[1:]) == 0
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_a_miss_with_no_pytest_recording_cassette_suggests_no_import(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml = _legacy_project(pytester, monkeypatch, "")
    yaml.unlink()

    missed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    missed.assert_outcomes(failed=1)
    output = missed.stdout.str()
    assert "pytest --record-mode=once tests/test_legacy.py::test_answer" in output
    assert "tooltape import" not in output
    assert "pytest-recording" not in output

    # Run from the tests' folder, the command names the test as pytest takes it there,
    # and run as printed (with the key and a server) it records the cassette.
    monkeypatch.chdir(pytester.path / "tests")
    missed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    missed.assert_outcomes(failed=1)
    command = _command_after(missed.stdout.str(), "OPENAI_API_KEY=<your key> pytest")
    command = command[command.index("pytest") + 1 :]
    assert command == ["--record-mode=once", "test_legacy.py::test_answer"]
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        pytester.runpytest_subprocess("-p", "no:cacheprovider", *command).assert_outcomes(passed=1)
    assert (pytester.path / "cassettes" / "tests" / "test_legacy" / "test_answer.json").is_file()


BODY_MATCHED = """
import pytest


@pytest.fixture(scope="module")
def vcr_config():
    return {"filter_headers": ["authorization"], "match_on": ["method", "path", "body"]}
"""


@pytest.mark.parametrize("conftest", ["", BODY_MATCHED], ids=["vcrpy-default", "match-on-body"])
def test_an_imported_cassette_is_matched_by_body_when_the_project_asks_for_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, conftest: str
) -> None:
    _legacy_project(pytester, monkeypatch, conftest)
    monkeypatch.chdir(pytester.path)
    assert main(["import", "tests/cassettes", "--out", "cassettes/tests"]) == 0
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)

    module = pytester.path / "tests" / "test_legacy.py"
    module.write_text(TEST_MODULE.replace('input="hi"', 'input="hello"'))
    drifted = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    if not conftest:
        # vcrpy's default match_on leaves the body out, before tooltape as after it
        drifted.assert_outcomes(passed=1)
        return
    # asked for, the body counts as it did under pytest-recording, with tooltape's diff
    drifted.assert_outcomes(failed=1)
    assert '~ input: "hi" -> "hello"' in drifted.stdout.str()


def test_rewrite_leaves_pytest_recordings_own_cassette_where_it_was(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pytest-recording deletes its .yaml of a test run under rewrite; tooltape records
    # elsewhere and never reads it there, so it stays the project's to import or remove.
    yaml = _legacy_project(pytester, monkeypatch, "")
    before = yaml.read_bytes()
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        rewritten = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--record-mode=rewrite")
    rewritten.assert_outcomes(passed=1)
    assert (pytester.path / "cassettes" / "tests" / "test_legacy" / "test_answer.json").is_file()
    assert yaml.read_bytes() == before


def test_once_some_cassettes_are_in_place_only_the_missing_ones_import_is_offered(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The folder import after the first ones would skip every cassette already in place,
    # fail, and ask for --force, which would put old recordings over newer ones.
    yaml = _legacy_project(pytester, monkeypatch, "")
    monkeypatch.chdir(pytester.path)
    assert main(["import", "tests/cassettes", "--out", "cassettes/tests"]) == 0
    module = pytester.path / "tests" / "test_legacy.py"
    module.write_text(
        module.read_text()
        + TEST_MODULE.split("\n\n\n", 1)[1].replace("def test_answer", "def test_again")
    )
    (yaml.parent / "test_again.yaml").write_text(yaml.read_text())

    missed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    missed.assert_outcomes(passed=1, failed=1)
    output = missed.stdout.str()
    assert (
        "    tooltape import tests/cassettes/test_legacy/test_again.yaml "
        "--out cassettes/tests/test_legacy\n" in output
    )
    assert "at once" not in output
