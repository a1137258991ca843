"""A request the provider did not answer while recording (the client's timeout) cannot be
recorded: the test fails then, naming the request and the error, and writes nothing.

Before, a test expecting the timeout passed and wrote no cassette, and its
replay failed with "no cassette, record it", which wrote nothing again; a
test whose retry was answered replayed what it never saw. The loopback
server answers with a real recorded body, late when asked to.
"""

from __future__ import annotations

import dataclasses
import socket

import pytest
from web_search_reply import real_web_search_body

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Tm8" * 12

TESTS = """
import asyncio

import openai
import pytest


@pytest.mark.vcr
def test_expects_the_timeout():
    client = openai.OpenAI(timeout=0.3, max_retries=0)
    with pytest.raises(openai.APITimeoutError):
        client.responses.create(model="gpt-4o", input="slow")


@pytest.mark.vcr
def test_retried_after_a_timeout():
    async def ask():
        async with openai.AsyncOpenAI(timeout=0.3, max_retries=1) as client:
            return await client.responses.create(model="gpt-4o", input="slow once")

    assert "San Francisco" in asyncio.run(ask()).output_text


@pytest.mark.vcr
def test_answered():
    client = openai.OpenAI(timeout=5, max_retries=0)
    assert "San Francisco" in client.responses.create(model="gpt-4o", input="fast").output_text
"""


class _Late:
    """Answers "slow" late every time, "slow once" late the first time (synthetic timing
    around a real body)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, request: ReceivedRequest) -> LoopbackReply:
        asked = request.json()["input"]
        reply = LoopbackReply.json(real_web_search_body())
        late = asked == "slow" or (asked == "slow once" and asked not in self.seen)
        self.seen.add(asked)
        return dataclasses.replace(reply, delay_s=1.0) if late else reply


def test_a_request_unanswered_while_recording_fails_the_test_and_writes_nothing(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_AGENTS_DISABLE_TRACING"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_late=TESTS)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider(responder=_Late()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=2)
    output = result.stdout.str() + result.stderr.str()
    assert FAKE_KEY not in output
    cassettes = pytester.path / "cassettes" / "test_late"
    assert [p.name for p in cassettes.iterdir()] == ["test_answered.json"]
    asked = f"no response to POST {server.base_url}/responses: httpx2.ReadTimeout"
    assert f"tooltape: while recording, the test got {asked}" in output
    for name in ("expects_the_timeout", "retried_after_a_timeout"):
        assert f"so {cassettes / f'test_{name}.json'} was not written" in output, name
    assert "provider_faults.responses.timeout()" in output
    assert "Traceback" not in output

    # Replaying: the one recorded replays; the others say they have no cassette, as before.
    monkeypatch.delenv("OPENAI_API_KEY")
    replay = pytester.runpytest_subprocess(
        "--block-network", "-p", "no:cacheprovider", "test_late.py::test_answered"
    )
    replay.assert_outcomes(passed=1)


TRACING_CONFTEST = """
import os

from agents import set_trace_processors
from agents.tracing.processors import BackendSpanExporter, BatchTraceProcessor

EXPORTER = BackendSpanExporter(endpoint=os.environ["TRACES_TO"], max_retries=0)
PROCESSOR = BatchTraceProcessor(EXPORTER)
set_trace_processors([PROCESSOR])
"""

TRACED_TEST = """
import pytest
from agents import Agent, Runner
from conftest import PROCESSOR


@pytest.mark.vcr
def test_agent():
    result = Runner.run_sync(Agent(name="greeter"), "Say hi")
    PROCESSOR.force_flush()  # the export fails while the cassette is open
    assert "San Francisco" in result.final_output
"""


def test_an_unanswered_trace_export_is_not_the_tests_request(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openai-agents' trace export is kept out of the cassette: that nobody took it
    (here a closed port) fails nothing, as without a recorder."""
    monkeypatch.delenv("OPENAI_AGENTS_DISABLE_TRACING", raising=False)
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]
    pytester.makeconftest(TRACING_CONFTEST)
    pytester.makepyfile(test_agent=TRACED_TEST)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())]) as server:
        monkeypatch.setenv("TRACES_TO", f"http://127.0.0.1:{port}/v1/traces/ingest")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "cassettes" / "test_agent" / "test_agent.json").is_file()
