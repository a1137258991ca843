"""A reply whose content-encoding tooltape cannot decode is never written to a cassette.

Scrubbing reads a body only once it is decoded: a body left compressed (``br``
with neither ``brotli`` nor ``brotlicffi`` installed, a coding nobody knows,
or bytes that do not decode as their coding says) would reach the cassette
with whatever keys it holds out of the scrubbing's sight. A small project
(``pytester``) records from a real HTTP server on loopback whose synthetic
Responses body holds another account's key, sent under such a coding, through
the OpenAI SDK (httpx2), httpx and requests: each test fails naming the
request and the coding, and no cassette is written. (Before, each was written
with the compressed bytes, and the broken gzip one even without its header.)
"""

from __future__ import annotations

import json
import zlib

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest

pytest_plugins = ["pytester"]

CLIENT_KEY = "sk-proj-" + "UnDeCoDe" * 5
OTHER_KEY = "sk-proj-" + "BrOtHeR7Q" * 4 + "T3BlbkFJ" + "Zx2cVb9nMl" * 4

# coding asked for -> (content-encoding sent, body bytes): each body hides the key in zlib data
CODINGS = {
    "br": ("br", zlib.compress),  # not brotli: the project hides any brotli module
    "unknown": ("x-squeeze", zlib.compress),
    "broken": ("gzip", lambda data: b"\x1f\x8b" + zlib.compress(data)),  # no gzip reader takes it
}

HIDE_BROTLI = """
import sys

sys.modules["brotli"] = sys.modules["brotlicffi"] = None  # as where neither is installed
"""

TESTS = """
import os

import httpx
import openai
import pytest
import requests

URL = os.environ["OPENAI_BASE_URL"] + "/responses"
CODINGS = ("br", "unknown", "broken")


@pytest.mark.vcr
@pytest.mark.parametrize("coding", CODINGS)
def test_sdk(coding):
    client = openai.OpenAI(max_retries=0)
    try:
        client.responses.with_raw_response.create(model="gpt-4o", input=coding)
    except Exception:  # the client may not read the body either; the recording is the point
        pass


@pytest.mark.vcr
@pytest.mark.parametrize("coding", CODINGS)
def test_httpx(coding):
    try:
        httpx.post(URL, json={"model": "gpt-4o", "input": coding})
    except Exception:
        pass


@pytest.mark.vcr
@pytest.mark.parametrize("coding", CODINGS)
def test_requests(coding):
    try:
        requests.post(URL, json={"model": "gpt-4o", "input": coding})
    except Exception:
        pass
"""


def _answer(request: ReceivedRequest) -> LoopbackReply:
    """A synthetic Responses body holding another account's key, under the coding asked for."""
    coding, encode = CODINGS[request.json()["input"]]
    body = {"id": "resp_1", "object": "response", "status": "completed", "note": OTHER_KEY}
    data = encode(json.dumps(body).encode())
    return LoopbackReply(200, data, "application/json", {"content-encoding": coding})


def test_an_undecodable_reply_fails_its_test_and_writes_no_cassette(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_undecodable=TESTS)
    pytester.makeconftest(HIDE_BROTLI)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider(responder=_answer) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", CLIENT_KEY)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    output = recorded.stdout.str()
    assert not list(pytester.path.rglob("*.json")), output
    assert "BrOtHeR7Q" not in output and "UnDeCoDe" not in output
    request = f"POST {server.base_url}/responses, content-encoding"
    whys = {
        "br": f"{request} br: no decoder for 'br' is installed (brotli or brotlicffi)",
        "unknown": f"{request} x-squeeze: tooltape has no decoder for 'x-squeeze'",
        "broken": f"{request} gzip: its bytes do not decode as gzip",
    }
    # urllib3 decodes gzip before vcrpy records: the broken one failed requests, unrecorded.
    failed = [(client, coding) for client in ("sdk", "httpx", "requests") for coding in whys]
    failed.remove(("requests", "broken"))
    for client, coding in failed:
        recorded.stdout.fnmatch_lines(
            [
                f"*ERROR at teardown of test_{client}[[]{coding}]*",
                f"*test_{client}[[]{coding}].json: not written, 1 body still encoded, never "
                "scanned for secrets:",
                f"  /interactions/0/response: {whys[coding]}",
                "; tooltape writes only bodies it has read for secrets: install the decoder *",
            ]
        )
    recorded.assert_outcomes(passed=9, errors=8)
