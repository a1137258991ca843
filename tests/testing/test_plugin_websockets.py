"""Websockets, which no cassette holds, are refused while a cassette test runs.

openai-agents' Responses websocket transport and the SDK's
``responses.connect()`` open their connections with the ``websockets``
package, under vcrpy: replaying, they reached the network (here a loopback
listener standing in for it), key and all; recording, they left nothing
to replay. Now the test fails before anything is sent, saying to use the
HTTP transport.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

pytest_plugins = ["pytester"]

TESTS = """
import asyncio
import os

import openai
import pytest
from agents import Agent, OpenAIProvider, RunConfig, Runner

WS = os.environ["LISTENER_WS_URL"]


@pytest.mark.vcr
def test_agents_websocket_transport():
    client = openai.AsyncOpenAI(websocket_base_url=WS)
    provider = OpenAIProvider(openai_client=client, use_responses_websocket=True)
    agent = Agent(name="x", instructions="Answer briefly.")
    asyncio.run(Runner.run(agent, "hi", run_config=RunConfig(model_provider=provider)))


@pytest.mark.vcr
def test_sdk_responses_connect():
    client = openai.OpenAI(websocket_base_url=WS)
    with client.responses.connect(max_retries=0) as connection:
        connection.send({"type": "response.create", "model": "gpt-4o"})


def test_without_a_cassette_websockets_are_left_alone():
    from websockets.sync.client import connect

    with pytest.raises(Exception) as raised:
        connect(WS + "/plain", open_timeout=0.5)
    assert "tooltape" not in str(raised.value)
"""


@pytest.fixture
def listener() -> Iterator[tuple[str, list[bytes]]]:
    """A TCP listener on loopback that keeps the first bytes of every connection."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    heard: list[bytes] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(1)
                try:
                    heard.append(connection.recv(200))
                except TimeoutError:
                    heard.append(b"")

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"ws://127.0.0.1:{server.getsockname()[1]}/v1", heard
    finally:
        stop.set()
        thread.join()
        server.close()


@pytest.mark.parametrize("mode", ["none", "once"])
def test_a_websocket_in_a_cassette_test_fails_saying_to_use_http(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    listener: tuple[str, list[bytes]],
    mode: str,
) -> None:
    url, heard = listener
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-" + "Ws3" * 12)
    monkeypatch.setenv("LISTENER_WS_URL", url)
    pytester.makepyfile(test_ws=TESTS)
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest_subprocess(f"--record-mode={mode}", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2, passed=1)
    # only the test without a cassette reached the listener
    assert [first for first in heard if b"/plain" not in first] == []
    output = result.stdout.str()
    opened = f"tooltape: the test opened a websocket ({url}/responses"
    assert output.count(opened) >= 2  # each test's report names it
    assert "OpenAIProvider(use_responses_websocket=False)" in output
    assert "Traceback" not in output
    assert not list(pytester.path.rglob("*.json"))
