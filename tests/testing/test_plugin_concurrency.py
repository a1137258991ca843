"""Requests sent at once, recorded and replayed: ``asyncio.gather`` and a thread pool.

The inner project's tests send many requests together with the SDK's own
clients (``AsyncOpenAI`` under anyio's pytest plugin, ``OpenAI`` from a
``ThreadPoolExecutor``), plain and streamed. A real HTTP server on loopback
answers each one from its body, with synthetic Responses bodies, and waits
longer for the first ones to arrive, so answers come back in another order
than the requests went out. Replay (no key, ``--block-network``) must give
every request the answer it got when recorded, and a request more, less or
changed must fail with what the README promises.
"""

from __future__ import annotations

import json
import re
import threading

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest
from tooltape.testing.provider.replies import response_events, response_json

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Cc8" * 12

TESTS = """
import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import openai
import pytest

CHANGE = os.environ.get("TT_CHANGE", "")


@pytest.fixture
def anyio_backend():
    return "asyncio"


def words(*given):
    given = list(given)
    if CHANGE == "changed":  # the last sent: its recorded request is the last in the cassette
        given[-1] = given[-1].upper()
    if CHANGE == "more":
        given.append(given[-1])
    if CHANGE == "fewer":
        given.pop()
    return given


@pytest.mark.vcr
@pytest.mark.anyio
async def test_gather_different():
    asked = words("north", "east", "south", "west")
    async with openai.AsyncOpenAI(max_retries=0) as client:
        answers = await asyncio.gather(
            *(client.responses.create(model="gpt-4o", input=word) for word in asked)
        )
    assert [a.output_text.split(" #")[0] for a in answers] == [f"about {w}" for w in asked]


@pytest.mark.vcr
@pytest.mark.anyio
async def test_gather_same():
    async with openai.AsyncOpenAI(max_retries=0) as client:
        # one request first: the client's first ones wait on a thread, in no fixed order
        await client.responses.create(model="gpt-4o", input="warm up")
        answers = await asyncio.gather(
            *(client.responses.create(model="gpt-4o", input="same") for _ in range(5))
        )
    texts = [a.output_text for a in answers]
    assert len(set(texts)) == 5
    print("SEEN test_gather_same", texts)


@pytest.mark.vcr
@pytest.mark.anyio
async def test_gather_streams():
    async def streamed(word):
        async with client.responses.stream(model="gpt-4o", input=word) as stream:
            deltas = [e.delta async for e in stream if e.type == "response.output_text.delta"]
            final = await stream.get_final_response()
        assert "".join(deltas) == final.output_text
        return final.output_text

    asked = ["up", "down", "left"]
    async with openai.AsyncOpenAI(max_retries=0) as client:
        texts = await asyncio.gather(*(streamed(word) for word in asked))
    assert [t.split(" #")[0] for t in texts] == [f"about {w}" for w in asked]


@pytest.mark.vcr
def test_threads_different():
    client = openai.OpenAI(max_retries=0)
    asked = words(*(f"city {n}" for n in range(8)))
    with ThreadPoolExecutor(4) as pool:
        texts = list(pool.map(
            lambda w: client.responses.create(model="gpt-4o", input=w).output_text, asked
        ))
    assert [t.split(" #")[0] for t in texts] == [f"about {w}" for w in asked]


@pytest.mark.vcr
def test_threads_same():
    client = openai.OpenAI(max_retries=0)
    with ThreadPoolExecutor(6) as pool:
        texts = list(pool.map(
            lambda _: client.responses.create(model="gpt-4o", input="again").output_text,
            range(12),
        ))
    assert len(set(texts)) == 12
"""

NAMES = (
    "test_gather_different",
    "test_gather_same",
    "test_gather_streams",
    "test_threads_different",
    "test_threads_same",
)


class Answers:
    """Answers ``about <input> #<n>`` (``n``: the request's arrival), the earlier slower."""

    def __init__(self) -> None:
        self.arrived = 0
        self.lock = threading.Lock()

    def __call__(self, request: ReceivedRequest) -> LoopbackReply:
        body = request.json()
        with self.lock:
            self.arrived += 1
            n = self.arrived
        text = f"about {body['input']} #{n}"
        delay = 0.05 * (6 - n % 6)  # in each run of six, the first is answered last
        if body.get("stream"):
            events = response_events(text, id=f"resp_{n}")
            stream = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
            return LoopbackReply(200, stream.encode(), "text/event-stream", delay_s=delay)
        body_bytes = json.dumps(response_json(text, id=f"resp_{n}")).encode()
        return LoopbackReply(200, body_bytes, delay_s=delay)


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TT_CHANGE"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_together=TESTS)
    pytester.makeini("[pytest]\n")
    return pytester


def _record(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> str:
    with LoopbackProvider(responder=Answers()) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = project.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider", "-s")
    result.assert_outcomes(passed=len(NAMES))
    return result.stdout.str()


def _seen(output: str) -> list[str]:
    return re.findall(r"SEEN test_gather_same \[.*?\]", output)


def test_requests_sent_together_replay_with_their_own_answers(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = _record(project, monkeypatch)
    for workers in ((), ("-p", "xdist", "-n", "2")):
        replay = project.runpytest_subprocess(
            "-p", "no:cacheprovider", "--block-network", "-s", *workers
        )
        replay.assert_outcomes(passed=len(NAMES))
        if not workers:  # xdist keeps a worker's output to itself
            # equal requests answered out of order: each gets the answer it got then
            assert _seen(replay.stdout.str()) == _seen(recorded)
    assert len(_seen(recorded)) == 1


@pytest.mark.parametrize(
    ("change", "failure"),
    [
        ("changed", '~ input: "{recorded}" -> "{asked}"'),
        ("more", "already played: the code now makes more requests than when the cassette"),
        ("fewer", "were never played. The code now makes fewer requests"),
    ],
)
def test_a_request_more_fewer_or_changed_fails_saying_which(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, change: str, failure: str
) -> None:
    _record(project, monkeypatch)
    monkeypatch.setenv("TT_CHANGE", change)
    replay = project.runpytest_subprocess(
        "-p", "no:cacheprovider", "--block-network", "-k", "different"
    )
    replay.assert_outcomes(failed=2)
    output = replay.stdout.str()
    for recorded in ("west", "city 7"):
        expected = failure.format(recorded=recorded, asked=recorded.upper())
        assert output.count(expected) >= 1, output
    if change == "fewer":
        assert output.count(failure) == 2
