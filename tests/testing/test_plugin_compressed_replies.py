"""Compressed replies holding keys, recorded through the plugin: decoded, scrubbed, replayable.

A small project (``pytester``) records from a real HTTP server on loopback
whose synthetic Responses bodies hold the client's own key and another
account's, compressed as servers send them: gzip, zlib deflate, raw deflate
(no zlib header; httpx and urllib3 read it, and vcrpy's decoding did not: it
kept the compressed bytes and dropped their ``content-encoding``, so the
cassette held the keys out of reach of the scrubbing and replayed bytes no
client could read), two codings in one header, and zstd (in two frames). Every
cassette holds the body decoded and scrubbed, without ``content-encoding``, and
replays with no key and no network to the SDK, sync and async, and to requests.

Each client reads zstd with its own module: httpx2 (the SDK's) and urllib3
(requests') with ``backports.zstd`` (``compression.zstd`` from Python 3.14),
which the dev extra installs; httpx with ``zstandard`` only. urllib3 hands
vcrpy the body it decoded under the header; httpx2 and httpx hand it the
bytes sent. A project where only ``zstandard`` is there records through httpx
too: tooltape then decodes with ``zstandard``, and refuses a body cut inside
a zstd frame (``zstandard`` returned what the frame held so far, without an
error, and the cassette held half a body the client never saw).
"""

from __future__ import annotations

import gzip
import json
import zlib

import pytest
from backports import zstd

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest

pytest_plugins = ["pytester"]

CLIENT_KEY = "sk-proj-" + "ZiPcLiEnT" * 5
OTHER_KEY = "sk-proj-" + "ZiPoThEr7Q" * 4 + "T3BlbkFJ" + "Zx2cVb9nMl" * 4
TAILS = ("ZiPcLiEnT", "ZiPoThEr7Q")


def _raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


CODINGS = {
    "gzip": ("gzip", gzip.compress),
    "zlib": ("deflate", zlib.compress),
    "raw": ("deflate", _raw_deflate),
    "both": ("deflate, gzip", lambda data: gzip.compress(zlib.compress(data))),
    # two frames, as a streaming compressor may send them
    "zstd": ("zstd", lambda data: zstd.compress(data[:9]) + zstd.compress(data[9:])),
    # the second frame cut short, the HTTP body whole: no reader may take it for the body
    "zstd-cut": ("zstd", lambda data: zstd.compress(data[:9]) + zstd.compress(data[9:])[:-6]),
}

TESTS = """
import asyncio
import os

import openai
import pytest
import requests

URL = os.environ["OPENAI_BASE_URL"] + "/responses"
CODINGS = ("gzip", "zlib", "raw", "both", "zstd")


@pytest.mark.vcr
@pytest.mark.parametrize("coding", CODINGS)
def test_sdk(coding):
    answer = openai.OpenAI(max_retries=0).responses.create(model="gpt-4o", input=coding)
    assert answer.output_text.startswith("keys: ")


@pytest.mark.vcr
@pytest.mark.parametrize("coding", CODINGS)
def test_async_sdk(coding):
    async def ask():
        async with openai.AsyncOpenAI(max_retries=0) as client:
            return await client.responses.create(model="gpt-4o", input=coding)

    assert asyncio.run(ask()).output_text.startswith("keys: ")


@pytest.mark.vcr
@pytest.mark.parametrize("coding", CODINGS)
def test_requests(coding):
    answer = requests.post(URL, json={"model": "gpt-4o", "input": coding})
    assert answer.json()["output"][0]["content"][0]["text"].startswith("keys: ")
"""


def _answer(request: ReceivedRequest) -> LoopbackReply:
    """A synthetic Responses body echoing both keys, compressed as the request asks."""
    coding, compress = CODINGS[request.json()["input"]]
    text = f"keys: {CLIENT_KEY} {OTHER_KEY}"
    content = {"type": "output_text", "text": text, "annotations": []}
    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": [content]}
    body = {"id": "resp_1", "object": "response", "status": "completed", "output": [message]}
    data = compress(json.dumps(body).encode())
    return LoopbackReply(200, data, "application/json", {"content-encoding": coding})


def test_compressed_replies_are_recorded_decoded_and_scrubbed_and_replay(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_zipped=TESTS)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider(responder=_answer) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", CLIENT_KEY)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=15)
    cassettes = sorted(pytester.path.rglob("*.json"))
    assert len(cassettes) == 15
    for cassette in cassettes:
        text = cassette.read_text(encoding="utf-8")
        assert not any(tail in text for tail in TAILS), cassette.name
        response = json.loads(text)["interactions"][0]["response"]
        assert "content-encoding" not in response["headers"], cassette.name
        [content] = response["body"]["json"]["output"][0]["content"]
        assert content["text"] == "keys: sk-REDACTED sk-REDACTED", cassette.name

    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    replay.assert_outcomes(passed=15)


ZSTANDARD_ONLY = """
import sys

# As where only zstandard reads zstd: httpx asks for zstd with it, and so tooltape decodes with it.
sys.modules["compression.zstd"] = sys.modules["backports.zstd"] = None
"""

ZSTANDARD_TESTS = """
import os

import httpx
import pytest

URL = os.environ["OPENAI_BASE_URL"] + "/responses"


@pytest.mark.vcr
def test_zstd():
    answer = httpx.post(URL, json={"model": "gpt-4o", "input": "zstd"})
    assert answer.json()["output"][0]["content"][0]["text"].startswith("keys: ")


@pytest.mark.vcr
def test_zstd_cut():
    with pytest.raises(httpx.DecodingError):
        httpx.post(URL, json={"model": "gpt-4o", "input": "zstd-cut"}).json()
"""


def test_zstd_read_with_zstandard_alone_is_decoded_or_refused(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(ZSTANDARD_ONLY)
    pytester.makepyfile(test_zstandard=ZSTANDARD_TESTS)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider(responder=_answer) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", CLIENT_KEY)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=2, errors=1)
    recorded.stdout.fnmatch_lines(
        [
            "*test_zstd_cut.json: not written, 1 body still encoded, never scanned for secrets:",
            f"  /interactions/0/response: POST {server.base_url}/responses, content-encoding zstd:"
            " its bytes do not decode as zstd",
        ]
    )
    (cassette,) = pytester.path.rglob("*.json")
    assert cassette.name == "test_zstd.json"
    text = cassette.read_text(encoding="utf-8")
    assert not any(tail in text for tail in TAILS)
    response = json.loads(text)["interactions"][0]["response"]
    assert "content-encoding" not in response["headers"]
    [content] = response["body"]["json"]["output"][0]["content"]
    assert content["text"] == "keys: sk-REDACTED sk-REDACTED"

    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    replay = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--block-network", "test_zstandard.py::test_zstd"
    )
    replay.assert_outcomes(passed=1)
