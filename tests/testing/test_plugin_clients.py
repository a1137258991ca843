"""Keyless replay for the clients users build themselves, in a project that only installs tooltape.

Each test module of the inner project builds its own client, the way most
real suites do: ``openai.OpenAI()``, ``openai.AsyncOpenAI()``, an
openai-agents ``Agent`` with ``WebSearchTool`` run by ``Runner``, and a
pydantic-ai ``Agent`` on the Responses API. They record against a real HTTP
server on loopback serving a real recorded web search body, then replay with
no key, no base URL, the server stopped and ``--block-network``.
"""

from __future__ import annotations

import json

import pytest
from web_search_reply import real_web_search_body

from tooltape.testing.plugin import REPLAY_API_KEY
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Lp7" * 12
QUESTION = "What is the weather in San Francisco today?"

SDK_TESTS = f"""
import asyncio
import os

import openai
import pytest

QUESTION = {QUESTION!r}


@pytest.mark.vcr
def test_sync_client():
    client = openai.OpenAI()
    response = client.responses.create(
        model="gpt-4o", input=QUESTION, tools=[{{"type": "web_search"}}]
    )
    assert "San Francisco" in response.output_text
    print("KEY-SEEN", os.environ.get("OPENAI_API_KEY"))


@pytest.mark.vcr
def test_async_client():
    async def ask():
        async with openai.AsyncOpenAI() as client:
            return await client.responses.create(
                model="gpt-4o", input=QUESTION, tools=[{{"type": "web_search"}}]
            )

    response = asyncio.run(ask())
    assert "San Francisco" in response.output_text
"""

AGENTS_TESTS = f"""
import asyncio

import openai
import pytest
from agents import Agent, OpenAIProvider, RunConfig, Runner, WebSearchTool

QUESTION = {QUESTION!r}


@pytest.mark.vcr
def test_agent_with_web_search():
    agent = Agent(name="weather", instructions="Answer briefly.", tools=[WebSearchTool()])
    result = Runner.run_sync(agent, QUESTION)
    assert "San Francisco" in result.final_output


@pytest.mark.vcr
def test_agent_async():
    # Its own AsyncOpenAI: openai-agents' default HTTP client keeps connections
    # bound to the event loop of the test before, and asyncio.run makes a new one.
    provider = OpenAIProvider(openai_client=openai.AsyncOpenAI())
    agent = Agent(name="weather", instructions="Answer briefly.", tools=[WebSearchTool()])
    result = asyncio.run(Runner.run(agent, QUESTION, run_config=RunConfig(model_provider=provider)))
    assert "San Francisco" in result.final_output
"""

PYDANTIC_AI_TESTS = f"""
import asyncio

import pytest
from pydantic_ai import Agent

QUESTION = {QUESTION!r}


@pytest.mark.vcr
def test_pydantic_ai_agent():
    agent = Agent("openai-responses:gpt-4o", instructions="Answer briefly.")
    result = agent.run_sync(QUESTION)
    assert "San Francisco" in result.output


@pytest.mark.vcr
def test_pydantic_ai_agent_async():
    agent = Agent("openai-responses:gpt-4o", instructions="Answer briefly.")
    result = asyncio.run(agent.run(QUESTION))
    assert "San Francisco" in result.output
"""

MODULES = {
    "test_sdk": (SDK_TESTS, ("test_sync_client", "test_async_client")),
    "test_agents": (AGENTS_TESTS, ("test_agent_with_web_search", "test_agent_async")),
    "test_pydantic_ai": (
        PYDANTIC_AI_TESTS,
        ("test_pydantic_ai_agent", "test_pydantic_ai_agent_async"),
    ),
}


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_AGENTS_DISABLE_TRACING"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(**{name: source for name, (source, _) in MODULES.items()})
    pytester.makeini("[pytest]\n")
    return pytester


def _record(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> LoopbackProvider:
    count = sum(len(tests) for _, tests in MODULES.values())
    replies = [LoopbackReply.json(real_web_search_body())] * count
    with LoopbackProvider(replies) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        env.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")
        result = project.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=count)
    return server


def test_own_clients_record_then_replay_with_no_key_and_no_network(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = _record(project, monkeypatch)
    assert len(server.requests) == 6
    assert all(r.path.endswith("/responses") for r in server.requests)
    for module, (_, tests) in MODULES.items():
        for test in tests:
            path = project.path / "cassettes" / module / f"{test}.json"
            document = json.loads(path.read_text(encoding="utf-8"))
            assert document["tooltape"]["source"] == "loopback", path
            request = document["interactions"][0]["request"]
            assert FAKE_KEY not in json.dumps(document), path
            assert request["uri"].endswith("/v1/responses"), path

    replay = project.runpytest_subprocess("--block-network", "-p", "no:cacheprovider", "-s")
    replay.assert_outcomes(passed=6)
    # the placeholder is what the test saw, and it is not key-shaped
    assert f"KEY-SEEN {REPLAY_API_KEY}" in replay.stdout.str()
    assert not REPLAY_API_KEY.startswith("sk-")

    # the main job passes there: web_search is covered, every other kind is not
    check = project.run("tooltape", "check")
    assert check.ret == 0, check.stdout.str()
    rows = {
        line.split()[0]: line.split()[1]
        for line in check.stdout.lines
        if line and line.split()[0] in {"web_search", "mcp", "file_search", "shell"}
    }
    assert rows == {
        "web_search": "recorded",
        "mcp": "not",
        "file_search": "not",
        "shell": "not",
    }
    # web_search_preview answers with the same web_search_call items, but no request
    # offered it: the recordings cover web_search alone
    assert "1 checked kind: every contract holds" in check.stdout.str()


def test_the_placeholder_lives_for_the_replayed_test_only(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)
    project.makepyfile(
        test_after="""
import os


def test_not_replaying_sees_no_key():
    assert "OPENAI_API_KEY" not in os.environ
    assert "OPENAI_AGENTS_DISABLE_TRACING" not in os.environ
"""
    )
    replay = project.runpytest_subprocess("--block-network", "-p", "no:cacheprovider")
    replay.assert_outcomes(passed=7)


def test_recording_a_client_without_a_key_says_what_to_set(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess(
        "--record-mode=once", "-p", "no:cacheprovider", "test_sdk.py::test_sync_client"
    )
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "Recording ('once' mode) needs OPENAI_API_KEY" in output
    assert (
        "OPENAI_API_KEY=<your key> pytest --record-mode=once test_sdk.py::test_sync_client"
        in output
    )
    assert "Traceback" not in output and "_base_client.py" not in output
    assert not (project.path / "cassettes" / "test_sdk" / "test_sync_client.json").exists()
