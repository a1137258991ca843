"""openai-agents' trace exports are the SDK's telemetry, not the code's requests: never recorded.

With a key set, openai-agents posts traces (``POST /v1/traces/ingest``) from a
background thread whenever its batch timer fires; vcrpy patches the process, so
an export lands in whichever test's cassette is open, and keyless replay (which
exports nothing) fails that test as stale. A small project (``pytester``) sends
its traces to a real HTTP server on loopback standing in for the provider, and
flushes them while its cassette is open; the replies are synthetic.
"""

from __future__ import annotations

import json

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

CONFTEST = """
import os

from agents import set_trace_processors
from agents.tracing.processors import BackendSpanExporter, BatchTraceProcessor

# the project's tracing, sent where the provider stands (the real endpoint is the API's)
PROCESSOR = BatchTraceProcessor(BackendSpanExporter(endpoint=os.environ["TRACES_TO"]))
set_trace_processors([PROCESSOR])
"""

TEST_MODULE = """
import pytest
from agents import Agent, Runner
from conftest import PROCESSOR


@pytest.mark.vcr
def test_agent():
    result = Runner.run_sync(Agent(name="greeter"), "Say hi")
    PROCESSOR.force_flush()  # the export happens while the cassette is open
    assert result.final_output == "hi"
"""


def _answer() -> LoopbackReply:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }
    return LoopbackReply.json(
        {"id": "resp_1", "object": "response", "status": "completed", "output": [message]}
    )


def test_a_trace_export_while_recording_is_sent_not_recorded_and_replay_passes(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_AGENTS_DISABLE_TRACING", raising=False)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_agent=TEST_MODULE)
    pytester.makeini("[pytest]\n")
    with LoopbackProvider([_answer(), LoopbackReply(status=204)]) as server:
        monkeypatch.setenv("TRACES_TO", f"{server.base_url}/traces/ingest")
        with monkeypatch.context() as env:
            env.setenv("OPENAI_BASE_URL", server.base_url)
            env.setenv("OPENAI_API_KEY", "sk-proj-" + "Tr8" * 12)
            recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    assert [r.path for r in server.requests] == ["/v1/responses", "/v1/traces/ingest"]
    cassette = pytester.path / "cassettes" / "test_agent" / "test_agent.json"
    uris = [i["request"]["uri"] for i in json.loads(cassette.read_text())["interactions"]]
    assert [uri.rsplit("/v1", 1)[1] for uri in uris] == ["/responses"]

    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(passed=1)

    # With a key, replay turns tracing off too: no export reaches the network, not even
    # at exit, after the cassette closed.
    with monkeypatch.context() as env:
        env.setenv("OPENAI_API_KEY", "sk-proj-" + "Tr8" * 12)
        keyed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    keyed.assert_outcomes(passed=1)


UNFLUSHED_TEST = """
import pytest
from agents import Agent, Runner


@pytest.mark.vcr
def test_agent():
    assert Runner.run_sync(Agent(name="greeter"), "Say hi").final_output == "hi"
"""


def test_a_replayed_runs_traces_never_reach_the_network_with_a_key_set(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI replaying with its key set: the traces of the replayed run were exported when
    the process exited, after every cassette closed, to the provider and with the key."""
    monkeypatch.delenv("OPENAI_AGENTS_DISABLE_TRACING", raising=False)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_agent=UNFLUSHED_TEST)
    pytester.makeini("[pytest]\n")
    key = "sk-proj-" + "Tx9" * 12
    monkeypatch.setenv("OPENAI_API_KEY", key)
    with LoopbackProvider([_answer(), LoopbackReply(status=204)]) as server:
        monkeypatch.setenv("TRACES_TO", f"{server.base_url}/traces/ingest")
        with monkeypatch.context() as env:
            env.setenv("OPENAI_BASE_URL", server.base_url)
            recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
        recorded.assert_outcomes(passed=1)
        assert [r.path for r in server.requests] == ["/v1/responses", "/v1/traces/ingest"]

        replay = pytester.runpytest_subprocess("-p", "no:cacheprovider")  # the process exits
        replay.assert_outcomes(passed=1)
        assert [r.path for r in server.requests] == ["/v1/responses", "/v1/traces/ingest"]
