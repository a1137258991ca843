"""Clients built before a replaying test's placeholder key is in place: a module-level
``OpenAI()``, a module-level pydantic-ai ``Agent``, a client in a session fixture.

They record with a key against a loopback server serving a real recorded
body. Replayed with no key, they fail (the placeholder is there for the
test and its function-scoped fixtures only, as the README says), and the
failure says where the client was built and the two ways out, in place of
the SDK's traceback; replayed with any key, they pass.
"""

from __future__ import annotations

import pytest
from web_search_reply import real_web_search_body

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Ec5" * 12

MODULE_CLIENT = """
import openai
import pytest

CLIENT = openai.OpenAI()


@pytest.mark.vcr
def test_module_client():
    assert "San Francisco" in CLIENT.responses.create(model="gpt-4o", input="SF?").output_text
"""

MODULE_AGENT = """
import pytest
from pydantic_ai import Agent

AGENT = Agent("openai-responses:gpt-4o", instructions="Answer briefly.")


@pytest.mark.vcr
def test_module_agent():
    assert "San Francisco" in AGENT.run_sync("SF?").output
"""

SESSION_CLIENT = """
import openai
import pytest


@pytest.fixture(scope="session")
def shared_client():
    return openai.OpenAI()


@pytest.mark.vcr
def test_session_client(shared_client):
    reply = shared_client.responses.create(model="gpt-4o", input="SF?")
    assert "San Francisco" in reply.output_text
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_AGENTS_DISABLE_TRACING"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(
        test_module_client=MODULE_CLIENT,
        test_module_agent=MODULE_AGENT,
        test_session_client=SESSION_CLIENT,
    )
    pytester.makeini("[pytest]\n")
    replies = [LoopbackReply.json(real_web_search_body())] * 3
    with LoopbackProvider(replies) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=3)
    return pytester


def test_a_client_built_before_the_test_says_where_and_what_to_do(
    project: pytest.Pytester,
) -> None:
    replay = project.runpytest_subprocess(
        "--block-network", "-p", "no:cacheprovider", "--continue-on-collection-errors"
    )
    replay.assert_outcomes(errors=3)
    output = replay.stdout.str()
    for module, line in (("test_module_client", 4), ("test_module_agent", 4)):
        assert (
            f"tooltape: {module}.py could not be imported: a client built when it is "
            f"imported (at {module}.py:{line}) found no OPENAI_API_KEY"
        ) in output, module
    assert "pydantic_ai.exceptions.UserError: Set the `OPENAI_API_KEY`" in output
    assert (
        "tooltape: a client built in the fixture 'shared_client' found no OPENAI_API_KEY "
        "(openai.OpenAIError: "
    ) in output
    assert output.count("Build the client inside the test or a function-scoped fixture") >= 3
    assert "    OPENAI_API_KEY=unused pytest" in output
    assert "Traceback" not in output and "openai/_client.py" not in output


def test_with_any_key_they_replay(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    replay = project.runpytest_subprocess("--block-network", "-p", "no:cacheprovider")
    replay.assert_outcomes(passed=3)


def test_a_tests_own_failure_naming_the_key_is_left_as_it_is(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    pytester.makepyfile(
        test_own="""
import pytest


@pytest.mark.vcr
def test_checks_its_settings():
    raise RuntimeError("settings: OPENAI_API_KEY must name the production key")
"""
    )
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest_subprocess("--block-network", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "RuntimeError: settings: OPENAI_API_KEY must name the production key" in output
    assert "a client built in" not in output
