"""Streamed responses as tests use them: read whole, closed early, broken by the test, cut.

The inner project streams with the SDK (``stream=True`` and
``client.responses.stream(...)``) from a real HTTP server on loopback
answering with synthetic event streams. A stream is recorded whole, as the
server sent it, whatever the client read of it, and replays the same way
with no key and no network; a test that fails writes nothing; a stream the
server cut off mid-event cannot be recorded (the client saw a connection
error, not events): its test fails, saying so
(``test_plugin_cut_responses.py`` has the rest).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.provider.replies import response_events

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "St7" * 12

TESTS = """
import openai
import pytest


def client():
    return openai.OpenAI(max_retries=0)


def deltas(events):
    return "".join(e.delta for e in events if e.type == "response.output_text.delta")


@pytest.mark.vcr
def test_read_whole():
    stream = client().responses.create(model="gpt-4o", input="whole", stream=True)
    assert deltas(stream) == "streamed words one"


@pytest.mark.vcr
def test_helper():
    with client().responses.stream(model="gpt-4o", input="helper") as stream:
        assert deltas(stream) == "streamed words two"
        assert stream.get_final_response().output_text == "streamed words two"


@pytest.mark.vcr
def test_closed_after_the_first_event():
    stream = client().responses.create(model="gpt-4o", input="first", stream=True)
    for event in stream:
        assert event.type == "response.created"
        break
    stream.close()


@pytest.mark.vcr
def test_broken_by_the_test():
    stream = client().responses.create(model="gpt-4o", input="broken", stream=True)
    for event in stream:
        if event.type == "response.output_text.delta":
            raise RuntimeError("the test broke off")


@pytest.mark.vcr
def test_cut_by_the_server():
    with pytest.raises(openai.APIConnectionError):
        client().responses.create(model="gpt-4o", input="cut", stream=True)
"""


def _stream(text: str) -> LoopbackReply:
    events = response_events(text)
    return LoopbackReply.sse(
        "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    )


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_streams=TESTS)
    pytester.makeini("[pytest]\n")
    return pytester


def test_streams_record_as_sent_and_replay_as_recorded(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _stream("streamed words one")
    cut = dataclasses.replace(whole, cut_after=len(whole.body) // 2)
    replies = [whole, _stream("streamed words two"), _stream("first"), _stream("broken"), cut]
    with LoopbackProvider(replies) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        recorded = project.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=3, failed=2)
    recorded.stdout.fnmatch_lines(["*tooltape: the provider cut off its response to POST *"])
    assert len(server.requests) == 5

    folder = project.path / "cassettes" / "test_streams"
    written = {path.stem: json.loads(path.read_text()) for path in folder.glob("*.json")}
    # the tests that failed wrote nothing: the one the test broke, and the cut one
    assert sorted(written) == [
        "test_closed_after_the_first_event",
        "test_helper",
        "test_read_whole",
    ]
    early = written["test_closed_after_the_first_event"]["interactions"][0]["response"]["body"]
    assert [event["event"] for event in early["sse"]][-1] == "response.completed"

    replay = project.runpytest_subprocess(
        "-p", "no:cacheprovider", "--block-network", "-k", "not broken and not cut"
    )
    replay.assert_outcomes(passed=3)
