"""Replay gives the client the bytes the server sent, through the plugin, for every interaction.

A small project (``pytester``) records two tests, each making three
``responses.create`` calls with its own OpenAI client (sync and async, over
httpx2): a JSON answer, an event stream and a refused request. The loopback
server answers with real recorded bodies, taken as they are from the
repository's copies of the real recordings (``tests/data/real-cassettes/``):
the stream's wire text, the answer's and the refusal's JSON. Replayed with
the server stopped, every response body is byte for byte what the server
sent (the stream's encrypted reasoning redacted, as recording redacts it),
with the same status and a ``content-length`` that matches it.
Re-recording with new interactions keeps the old ones, played or not, as
they were.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from real_recordings import REAL, with_encrypted_canaries

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Rb5" * 12

TEST_MODULE = """
import asyncio
import json
import os
from pathlib import Path

import openai
import pytest

OUT = Path(os.environ["TT_OUT"])
CALLS = os.environ.get("TT_CALLS", "answer,stream,refused").split(",")


def keep(test, call, reply):
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{test}-{call}.body").write_bytes(reply.content)
    seen = {"status": reply.status_code, "content-length": reply.headers.get("content-length")}
    (OUT / f"{test}-{call}.json").write_text(json.dumps(seen))


@pytest.mark.vcr
def test_sync():
    client = openai.OpenAI(max_retries=0)
    for call in CALLS:
        try:
            raw = client.responses.with_raw_response.create(
                model="gpt-5", input=call, stream=call == "stream"
            )
        except openai.APIStatusError as error:
            keep("sync", call, error.response)
        else:
            raw.http_response.read()
            keep("sync", call, raw.http_response)


@pytest.mark.vcr
def test_async():
    async def calls():
        async with openai.AsyncOpenAI(max_retries=0) as client:
            for call in CALLS:
                try:
                    raw = await client.responses.with_raw_response.create(
                        model="gpt-5", input=call, stream=call == "stream"
                    )
                except openai.APIStatusError as error:
                    keep("async", call, error.response)
                else:
                    await raw.http_response.aread()
                    keep("async", call, raw.http_response)

    asyncio.run(calls())
"""


def _real_response(name: str, index: int = 0) -> dict[str, Any]:
    document = yaml.safe_load((REAL / f"{name}.yaml").read_text(encoding="utf-8"))
    return document["interactions"][index]["response"]


def _served() -> dict[str, tuple[int, bytes, bytes]]:
    """Each call's status, the real recorded body the server sends, and what replay gives.

    Replay gives the same bytes, except that recording redacted the stream's
    ``encrypted_content`` values (tooltape's scrubbing, checked here by a
    plain text substitution); the other two bodies hold nothing to scrub.
    """
    # The copy's encrypted_content is redacted: a synthetic blob stands where the live one was.
    stream = with_encrypted_canaries(
        _real_response("model_web_search_tool_stream")["body"]["string"]
    )
    answer = LoopbackReply.json(
        _real_response("model_simple_response_with_tool_call")["parsed_body"]
    )
    refused = _real_response("model_http_error")
    refusal = LoopbackReply.json(refused["parsed_body"]).body
    redacted = re.sub(r'"encrypted_content":"[^"]*"', '"encrypted_content":"REDACTED"', stream)
    assert redacted != stream
    return {
        "answer": (200, answer.body, answer.body),
        "stream": (200, stream.encode("utf-8"), redacted.encode("utf-8")),
        "refused": (refused["status"]["code"], refusal, refusal),
    }


def _replies(calls: list[str]) -> list[LoopbackReply]:
    served = _served()
    replies: list[LoopbackReply] = []
    for call in calls:
        status, body, _ = served[call]
        if call == "stream":
            replies.append(LoopbackReply.sse(body))
        else:
            replies.append(LoopbackReply(status, body, "application/json"))
    return replies


def _run(
    project: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    out: str,
    *args: str,
    replies: list[LoopbackReply] | None = None,
) -> pytest.RunResult:
    with monkeypatch.context() as env:
        env.setenv("TT_OUT", str(project.path / out))
        if replies is None:
            return project.runpytest_subprocess("-p", "no:cacheprovider", *args)
        with LoopbackProvider(replies) as server:
            env.setenv("OPENAI_BASE_URL", server.base_url)
            env.setenv("OPENAI_API_KEY", FAKE_KEY)
            return project.runpytest_subprocess("-p", "no:cacheprovider", *args)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TT_CALLS"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_wire=TEST_MODULE)
    pytester.makeini("[pytest]\n")
    return pytester


def _seen(root: Path, test: str, call: str) -> tuple[int, bytes, str | None]:
    facts = json.loads((root / f"{test}-{call}.json").read_text())
    return facts["status"], (root / f"{test}-{call}.body").read_bytes(), facts["content-length"]


def test_replay_gives_every_response_the_bytes_the_server_sent(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = ["answer", "stream", "refused"]
    recorded = _run(
        project, monkeypatch, "recorded", "--record-mode=once", replies=_replies(calls) * 2
    )
    recorded.assert_outcomes(passed=2)
    for test in ("sync", "async"):
        cassette = project.path / "cassettes" / "test_wire" / f"test_{test}.json"
        assert len(json.loads(cassette.read_text())["interactions"]) == 3

    replayed = _run(project, monkeypatch, "replayed", "--block-network")
    replayed.assert_outcomes(passed=2)
    served = _served()
    for test in ("sync", "async"):
        for call in calls:
            status, sent, replays = served[call]
            assert _seen(project.path / "recorded", test, call) == (status, sent, str(len(sent)))
            assert _seen(project.path / "replayed", test, call) == (
                status,
                replays,
                str(len(replays)),
            )


def test_recording_new_interactions_keeps_the_old_ones_played_or_not(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = ["answer", "stream", "refused"]
    _run(
        project, monkeypatch, "recorded", "--record-mode=once", replies=_replies(calls) * 2
    ).assert_outcomes(passed=2)
    cassette = project.path / "cassettes" / "test_wire" / "test_sync.json"
    before = json.loads(cassette.read_text())["interactions"]

    # plays the answer, leaves the stream and the refusal unplayed, records a new call:
    # a cassette its next replay would fail as stale, kept only for a test that allows it
    project.makeconftest(
        "import pytest\n\n"
        "def pytest_collection_modifyitems(items):\n"
        "    for item in items:\n"
        "        item.add_marker(pytest.mark.tooltape(allow_unplayed=True))\n"
    )
    monkeypatch.setenv("TT_CALLS", "answer,other")
    new = LoopbackReply.json({"id": "resp_new", "object": "response", "output": []})  # synthetic
    result = _run(
        project,
        monkeypatch,
        "again",
        "--record-mode=new_episodes",
        "test_wire.py::test_sync",
        replies=[new],
    )
    result.assert_outcomes(passed=1)
    after = json.loads(cassette.read_text())["interactions"]
    assert after[:3] == before
    assert [i["request"]["body"]["json"]["input"] for i in after] == [*calls, "other"]
    status, _, replays = _served()["answer"]
    assert _seen(project.path / "again", "sync", "answer") == (status, replays, str(len(replays)))
