"""``openai.AzureOpenAI()`` replays with no key too: it reads ``AZURE_OPENAI_API_KEY``,
not ``OPENAI_API_KEY``, and refused to start on replay without one.

The inner project builds its Azure client the way Azure's samples do (endpoint
and API version from the environment, key from ``AZURE_OPENAI_API_KEY``),
records against a loopback server serving a real recorded body, then replays
with no key, the server stopped and ``--block-network``.
"""

from __future__ import annotations

import json

import pytest
from web_search_reply import real_web_search_body

from tooltape.testing.plugin import REPLAY_API_KEY
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

AZURE_KEY = "az" + "Kq7" * 12

AZURE_TEST = """
import os

import openai
import pytest


@pytest.mark.vcr
def test_azure_client():
    client = openai.AzureOpenAI(api_version="2025-04-01-preview")
    response = client.responses.create(model="gpt-4o", input="Weather in SF?")
    assert "San Francisco" in response.output_text
    print("AZURE-KEY-SEEN", os.environ.get("AZURE_OPENAI_API_KEY"))
"""


def test_an_azure_client_records_then_replays_with_no_key(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY", "OPENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_azure=AZURE_TEST)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())]) as server:
        monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", f"http://127.0.0.1:{server.port}")
        with monkeypatch.context() as env:
            env.setenv("AZURE_OPENAI_API_KEY", AZURE_KEY)
            recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    (request,) = server.requests
    assert request.path == "/openai/responses?api-version=2025-04-01-preview"
    assert request.headers["api-key"] == AZURE_KEY
    path = pytester.path / "cassettes" / "test_azure" / "test_azure_client.json"
    text = path.read_text(encoding="utf-8")
    assert AZURE_KEY not in text
    recorded_request = json.loads(text)["interactions"][0]["request"]
    assert recorded_request["uri"].endswith("/openai/responses?api-version=2025-04-01-preview")
    assert recorded_request["headers"]["api-key"] == ["REDACTED"]

    replay = pytester.runpytest_subprocess("--block-network", "-p", "no:cacheprovider", "-s")
    replay.assert_outcomes(passed=1)
    assert f"AZURE-KEY-SEEN {REPLAY_API_KEY}" in replay.stdout.str()
