"""Tests that share recordings: a cassette named in the ``vcr`` mark, or one cassette name.

pytest-recording reads ``@pytest.mark.vcr("shared.json")`` beside the test's
own cassette: each test plays the part of the shared one it needs, and
only the test's own interactions left unplayed make it stale. Under
``--record-mode=once`` a shared cassette counts as recorded: a test that
also makes requests of its own records them with ``rewrite`` or
``new_episodes``, and only those are written to its own cassette. A test run
several times in one session (parametrized onto one ``default_cassette_name``)
records once and replays the same cassette each time. Both replay under
``-p xdist -n 2``. The inner project records against a real HTTP server on
loopback answering with synthetic Responses bodies.
"""

from __future__ import annotations

import json

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_json

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Sh5" * 12

SHARED_TESTS = """
import os

import openai
import pytest


def ask(text):
    client = openai.OpenAI(max_retries=0)
    return client.responses.create(model="gpt-4o", input=text).output_text


@pytest.mark.default_cassette("shared.json")
@pytest.mark.vcr
def test_records_the_shared_cassette():
    assert ask("alpha") == "answer alpha"
    assert ask("beta") == "answer beta"


@pytest.mark.vcr("shared.json")
def test_plays_alpha():
    assert ask("alpha") == "answer alpha"


@pytest.mark.vcr("shared.json")
def test_plays_beta():
    assert ask("beta") == "answer beta"


@pytest.mark.vcr("shared.json")
def test_plays_its_own_and_the_shared():
    assert ask("gamma") == "answer gamma"
    if not os.environ.get("TT_SKIP_OWN"):
        assert ask("delta") == "answer delta"
    assert ask("alpha") == "answer alpha"
"""

RERUN_TESTS = """
import openai
import pytest


@pytest.fixture
def default_cassette_name():
    return "one_for_every_run"


@pytest.mark.vcr
@pytest.mark.parametrize("run", range(4))
def test_run_again(run):
    client = openai.OpenAI(max_retries=0)
    assert client.responses.create(model="gpt-4o", input="same").output_text == "answer same"
"""

SHARED = "test_shared"
RERUN = "test_rerun"


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TT_SKIP_OWN"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(**{SHARED: SHARED_TESTS, RERUN: RERUN_TESTS})
    pytester.makeini("[pytest]\n")
    return pytester


def _reply(word: str) -> LoopbackReply:
    return LoopbackReply.json(response_json(f"answer {word}"))


OWN = f"{SHARED}.py::test_plays_its_own_and_the_shared"


def _run(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, words: list[str], *args: str
) -> pytest.RunResult:
    with LoopbackProvider([_reply(word) for word in words]) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = project.runpytest_subprocess("-p", "no:cacheprovider", *args)
    assert [request.json()["input"] for request in server.requests] == words
    return result


def _record(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    # in file order: the rerun module's one request (replayed by its three other runs),
    # then the shared cassette, which answers the tests that read it
    words = ["same", "alpha", "beta"]
    _run(project, monkeypatch, words, "--record-mode=once", "--deselect", OWN).assert_outcomes(
        passed=7, deselected=1
    )
    words = ["gamma", "delta", "alpha"]
    _run(project, monkeypatch, words, "--record-mode=rewrite", OWN).assert_outcomes(passed=1)


def _inputs(project: pytest.Pytester, module: str, name: str) -> list[str]:
    path = project.path / "cassettes" / module / f"{name}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    return [i["request"]["body"]["json"]["input"] for i in document["interactions"]]


def test_tests_sharing_a_cassette_record_once_and_replay_under_xdist(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)
    assert _inputs(project, RERUN, "one_for_every_run") == ["same"]
    assert _inputs(project, SHARED, "shared") == ["alpha", "beta"]
    assert _inputs(project, SHARED, "test_plays_its_own_and_the_shared") == [
        "gamma",
        "delta",
        "alpha",
    ]
    assert not (project.path / "cassettes" / SHARED / "test_plays_alpha.json").exists()

    for workers in ((), ("-p", "xdist", "-n", "2")):
        replay = project.runpytest_subprocess("-p", "no:cacheprovider", "--block-network", *workers)
        replay.assert_outcomes(passed=8)


def test_a_tests_own_unplayed_interaction_is_still_stale(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)
    monkeypatch.setenv("TT_SKIP_OWN", "1")
    replay = project.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    replay.assert_outcomes(passed=7, failed=1)
    output = replay.stdout.str()
    own = project.path / "cassettes" / SHARED / "test_plays_its_own_and_the_shared.json"
    assert f"Stale cassette {own}: recorded interaction(s) #1 POST /v1/responses" in output
    assert "#0" not in output and "#2" not in output  # gamma played; the shared ones are not its


def test_new_episodes_writes_only_the_tests_own_interactions(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = ["same", "alpha", "beta"]
    _run(project, monkeypatch, words, "--record-mode=once", "--deselect", OWN).assert_outcomes(
        passed=7, deselected=1
    )
    # alpha is played from the shared cassette, gamma and delta are new
    _run(
        project, monkeypatch, ["gamma", "delta"], "--record-mode=new_episodes", OWN
    ).assert_outcomes(passed=1)
    assert _inputs(project, SHARED, "test_plays_its_own_and_the_shared") == ["gamma", "delta"]
    assert _inputs(project, SHARED, "shared") == ["alpha", "beta"]

    replay = project.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    replay.assert_outcomes(passed=8)
