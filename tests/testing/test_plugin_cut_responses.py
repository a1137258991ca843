"""A response the provider cuts off mid-body while a test records fails that test.

vcrpy reads a response whole before the client sees any of it, so a body cut
off by the server reaches the client as a connection error (the SDK retries
it) and leaves nothing to record: a test that expected the error passed and
its replay then said "no cassette", or a cassette was written that lacked the
request the code had sent. Now the test fails while recording, naming the
request, the cut, and the cassette that was not written.

The inner project records from a real HTTP server on loopback that closes the
connection halfway through synthetic event streams, with the SDK (sync with
its default retries, async), plain httpx and requests.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest
from tooltape.testing.provider.replies import response_events

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "CuT4" * 10

TESTS = """
import asyncio
import os

import httpx
import openai
import pytest
import requests

URL = os.environ["OPENAI_BASE_URL"] + "/responses"


@pytest.mark.vcr
def test_sdk_retries():
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI().responses.create(model="gpt-4o", input="sdk", stream=True)


@pytest.mark.vcr
def test_async_sdk():
    async def ask():
        async with openai.AsyncOpenAI(max_retries=0) as client:
            await client.responses.create(model="gpt-4o", input="async", stream=True)

    with pytest.raises(openai.APIConnectionError):
        asyncio.run(ask())


@pytest.mark.vcr
def test_httpx_after_a_whole_one():
    assert httpx.post(URL, json={"input": "whole"}).status_code == 200
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.post(URL, json={"input": "cut"})


@pytest.mark.vcr
def test_requests():
    with pytest.raises(requests.ConnectionError):
        requests.post(URL + "?api_key=" + os.environ["OPENAI_API_KEY"], json={"input": "req"})


@pytest.mark.vcr
def test_not_expecting_it():
    openai.OpenAI(max_retries=0).responses.create(model="gpt-4o", input="plain", stream=True)
"""


def _stream(text: str) -> LoopbackReply:
    return LoopbackReply.sse(
        "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in response_events(text))
    )


def _cut(text: str) -> LoopbackReply:
    whole = _stream(text)
    return dataclasses.replace(whole, cut_after=len(whole.body) // 2)


def _reply(request: ReceivedRequest) -> LoopbackReply:
    asked = request.json()["input"]
    return _stream(asked) if asked == "whole" else _cut(asked)


def test_a_response_cut_while_recording_fails_the_test_and_writes_no_cassette(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_cut=TESTS)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider(responder=_reply) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=5)
    output = result.stdout.str() + result.stderr.str()
    assert FAKE_KEY not in output
    assert not list(pytester.path.rglob("*.json"))  # nothing written, not even the whole one

    cassettes = pytester.path / "cassettes" / "test_cut"
    for name in ("sdk_retries", "async_sdk", "httpx_after_a_whole_one", "requests"):
        message = f"tooltape: the provider cut off its response to POST {server.base_url}/responses"
        assert message in output, name
        assert f"so {cassettes / f'test_{name}.json'} was not written" in output, name
    assert "(3 times)" in output  # the SDK tried three times: every answer was cut
    assert "received " in output and "expected " in output  # httpx's own account of the cut
    assert "IncompleteRead" in output  # and http.client's
    assert "provider_faults.truncated_sse" in output
    # a test that failed on the cut itself says why its cassette is missing too
    assert "test_not_expecting_it.json was not written" in output
