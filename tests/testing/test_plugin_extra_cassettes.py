"""A cassette shared through pytest-recording's ``vcr`` mark, recorded by pytest-recording.

``@pytest.mark.vcr("/abs/shared.yaml")``: its YAML holds headers the scrubbing
redacts as it loads (no ``filter_headers``), so vcrpy keeps scrubbed copies of its
requests. They are still known as shared: never copied into the test's cassette,
and named by their file in a replay miss. The shared cassette is recorded by plain
pytest-recording (tooltape disabled) against a real HTTP server on loopback; every
reply is synthetic.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Xs4" * 12

SHARED_MAKER = """
import openai
import pytest


@pytest.mark.vcr
def test_make_shared():
    client = openai.OpenAI()
    client.responses.create(model="gpt-5", input="greet")
    client.responses.create(model="gpt-5", input="farewell")
"""

TEST_MODULE = """
import os

import openai
import pytest

SHARED = os.path.join(os.path.dirname(__file__), "shared", "greetings.yaml")


@pytest.mark.vcr(SHARED)
def test_greet():
    client = openai.OpenAI()
    greeting = os.environ.get("GREETING", "greet")
    assert client.responses.create(model="gpt-5", input=greeting).id == "resp_1"
    for question in os.environ.get("ASK", "").split(",") if os.environ.get("ASK") else ():
        client.responses.create(model="gpt-5", input=question)
"""


def _reply(n: int) -> LoopbackReply:
    return LoopbackReply.json(
        {"id": f"resp_{n}", "object": "response", "status": "completed", "output": []}
    )


def _run(pytester: pytest.Pytester, *args: str, replies: int = 0) -> pytest.RunResult:
    replies_ = [_reply(n + 1) for n in range(replies)]
    with LoopbackProvider(replies_) as server, pytest.MonkeyPatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", API_KEY)
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ASK", raising=False)
    pytester.makeini("[pytest]\n")
    tests = pytester.mkdir("tests")
    (tests / "test_maker.py").write_text(SHARED_MAKER)
    maker = _run(
        pytester, "-p", "no:tooltape", "--record-mode=once", "tests/test_maker.py", replies=2
    )
    maker.assert_outcomes(passed=1)
    (tests / "shared").mkdir()
    recorded = tests / "cassettes" / "test_maker" / "test_make_shared.yaml"
    shutil.move(recorded, tests / "shared" / "greetings.yaml")
    (tests / "test_maker.py").unlink()
    (tests / "test_greet.py").write_text(TEST_MODULE)
    return pytester


def test_a_drift_from_a_shared_interaction_names_it_in_the_shared_file(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GREETING", "hello")
    replay = project.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(failed=1)
    output = replay.stdout.str()
    shared = project.path / "tests" / "shared" / "greetings.yaml"
    assert "or of the shared cassettes of its vcr mark." in output
    assert f"Closest unplayed interaction: #0 of {shared} POST /v1/responses" in output
    assert '~ input: "greet" -> "hello"' in output


def test_new_episodes_records_only_the_new_request_into_the_tests_own_cassette(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASK", "weather")
    with LoopbackProvider([_reply(3)]) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", API_KEY)
        recorded = project.runpytest_subprocess(
            "-p", "no:cacheprovider", "--record-mode=new_episodes"
        )
    recorded.assert_outcomes(passed=1)
    assert [r.json()["input"] for r in server.requests] == ["weather"]  # greet: shared
    own = project.path / "cassettes" / "tests" / "test_greet" / "test_greet.json"
    document = json.loads(own.read_text())
    inputs = [i["request"]["body"]["json"]["input"] for i in document["interactions"]]
    assert inputs == ["weather"]  # the shared interactions stay in the shared cassette

    replay = project.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(passed=1)
