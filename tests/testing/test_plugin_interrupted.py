"""A recording cut short (Ctrl-C, ``pytest.exit``, a failure under ``-x``) writes no half cassette.

pytest tears an interrupted test's fixtures down at the end of the session,
past the test's report: the cassette is closed then, and must not be saved
with the interactions recorded before the interruption, nor replace a
complete one (``--record-mode=rewrite``). Each inner project records against
a real HTTP server on loopback answering with synthetic Responses bodies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_json

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Ic4" * 12

TEST_MODULE = """
import os

import openai
import pytest


def ask(text):
    client = openai.OpenAI(max_retries=0)
    return client.responses.create(model="gpt-4o", input=text).output_text


@pytest.mark.vcr
def test_before():
    assert ask("one")


@pytest.mark.vcr
def test_cut_short():
    assert ask("two")
    stop = os.environ.get("TT_STOP")
    if stop == "ctrl-c":
        raise KeyboardInterrupt
    if stop == "exit":
        pytest.exit("stopped by the test")
    if stop == "fail":
        raise AssertionError("failed half-way")
    assert ask("three")


@pytest.mark.vcr
def test_after():
    assert ask("four")
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TT_STOP"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_stop=TEST_MODULE)
    pytester.makeini("[pytest]\n")
    return pytester


def _record(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str
) -> pytest.RunResult:
    replies = [LoopbackReply.json(response_json(f"answer {n}")) for n in range(1, 5)]
    with LoopbackProvider(replies) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        return project.runpytest_subprocess("-p", "no:cacheprovider", *args)


def _inputs(project: pytest.Pytester) -> dict[str, list[str]]:
    folder = project.path / "cassettes" / "test_stop"
    return {
        path.stem: [
            interaction["request"]["body"]["json"]["input"]
            for interaction in json.loads(path.read_text(encoding="utf-8"))["interactions"]
        ]
        for path in sorted(folder.glob("*.json"))
    }


def _cassette(project: pytest.Pytester) -> Path:
    return project.path / "cassettes" / "test_stop" / "test_cut_short.json"


@pytest.mark.parametrize("stop", ["ctrl-c", "exit"])
def test_an_interrupted_recording_writes_no_half_cassette(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, stop: str
) -> None:
    monkeypatch.setenv("TT_STOP", stop)
    result = _record(project, monkeypatch, "--record-mode=once")
    assert result.ret != 0
    # the test before was saved; the interrupted one recorded "two" and stopped
    assert _inputs(project) == {"test_before": ["one"]}


@pytest.mark.parametrize("stop", ["ctrl-c", "exit", "fail"])
def test_an_interrupted_rewrite_keeps_the_complete_cassette(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, stop: str
) -> None:
    _record(project, monkeypatch, "--record-mode=once").assert_outcomes(passed=3)
    complete = _cassette(project).read_bytes()
    assert _inputs(project)["test_cut_short"] == ["two", "three"]

    monkeypatch.setenv("TT_STOP", stop)
    result = _record(project, monkeypatch, "--record-mode=rewrite", "-x")
    assert result.ret != 0
    assert _cassette(project).read_bytes() == complete
    assert not list(_cassette(project).parent.glob("*.tmp*"))

    monkeypatch.delenv("TT_STOP")
    replay = project.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    replay.assert_outcomes(passed=3)
