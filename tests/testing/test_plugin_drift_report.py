"""What a replay miss says: the recorded interaction closest to the request, by its number.

A small project (``pytester``) asks the same client twice, as a tool loop does:
a question, then the tool's answer. It records against a real HTTP server on
loopback, then replays with a request changed or added. The replies are
synthetic.
"""

from __future__ import annotations

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Dr1" * 12

TEST_MODULE = """
import os

import openai
import pytest


@pytest.mark.vcr
def test_tool_loop():
    client = openai.OpenAI()
    client.responses.create(model="gpt-5", input="How warm is Paris?")
    answer = {"type": "function_call_output", "call_id": "call_1", "output": os.environ["ANSWER"]}
    asked = [{"role": "user", "content": "How warm is Paris?"}]
    second = "How warm is Paris?" if os.environ.get("ASK_AGAIN") else [*asked, answer]
    client.responses.create(model="gpt-5", input=second)
    for _ in range(int(os.environ.get("EXTRA_CALLS", "0"))):
        client.responses.create(model="gpt-5", input="How warm is Paris?")
"""


def _reply(n: int) -> LoopbackReply:
    return LoopbackReply.json(
        {"id": f"resp_{n}", "object": "response", "status": "completed", "output": []}
    )


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(test_loop=TEST_MODULE)
    pytester.makeini("[pytest]\n")
    monkeypatch.setenv("ANSWER", "21C")
    with LoopbackProvider([_reply(1), _reply(2)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    monkeypatch.delenv("OPENAI_API_KEY")
    return pytester


def _replay(project: pytest.Pytester) -> str:
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    return result.stdout.str()


def test_a_drifted_second_request_shows_the_unplayed_interaction_it_drifted_from(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANSWER", "22C")
    output = _replay(project)
    assert "Wire drift: POST /v1/responses made by test_loop.py::test_tool_loop" in output
    closest = output.index("Closest unplayed interaction: #1 POST /v1/responses")
    diff = output.index('~ input[1].output: "21C" -> "22C"')
    assert closest < diff
    # #0 was played by the first request: it cannot answer this one, so it is not offered
    assert "#0" not in output
    assert "Closest recorded request" not in output


def test_one_request_more_than_recorded_says_so_and_names_what_it_matches(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EXTRA_CALLS", "1")
    output = _replay(project)
    assert (
        "Too many requests: POST /v1/responses made by test_loop.py::test_tool_loop matches "
        "only interaction #0 of "
    ) in output
    assert "already played: the code now makes more requests than when the cassette " in output
    assert "Wire drift" not in output
    assert "Closest" not in output  # no heading with nothing under it
    assert "pytest --record-mode=rewrite test_loop.py::test_tool_loop" in output


def test_a_request_equal_to_a_played_one_shows_the_unplayed_one_it_replaces(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASK_AGAIN", "1")
    output = _replay(project)
    assert "Wire drift: POST /v1/responses made by test_loop.py::test_tool_loop" in output
    assert "Closest unplayed interaction: #1 POST /v1/responses" in output
    assert "It matches #0 exactly, already played." in output
