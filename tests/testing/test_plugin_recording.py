"""The plugin as a new user meets it: record against a real loopback server, replay offline.

Every test here runs pytest in a subprocess on a small project (``pytester``)
and talks to a real HTTP server on 127.0.0.1 serving a real recorded
Responses body (the imported ``model_web_search_tool`` cassette).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_search_reply import real_web_search_body

from tooltape.testing.cassette import JsonBody, find_secrets, load_cassette
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Zq9" * 12

TEST_MODULE = """
import os
from tooltape import MarkdownSection, Prompt
from tooltape.tools.web_search import DomainFilter, WebSearchConfig, WebSearchSection

DOMAINS = tuple(os.environ.get("TT_DOMAINS", "weather.gov").split(","))


def weather_prompt():
    return Prompt(ns="demo", key="weather", sections=[
        MarkdownSection(title="Task", template="What is the weather in San Francisco today?"),
        WebSearchSection(WebSearchConfig(domain_filter=DomainFilter(allowed=DOMAINS))),
    ])


def test_weather(openai_adapter):
    response = openai_adapter.evaluate(weather_prompt())
    assert "San Francisco" in response.text
    searches = response.hosted_outputs["web_search"].searches
    assert searches[0].query == "weather: San Francisco, CA"
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_weather=TEST_MODULE)
    pytester.makeini("[pytest]\n")
    return pytester


def _record(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = project.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider", *args)
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    return result, server


def _cassette(project: pytest.Pytester) -> Path:
    return project.path / "cassettes" / "test_weather" / "test_weather.json"


def test_record_then_replay_with_the_server_stopped_and_no_key(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, server = _record(project, monkeypatch)
    result.assert_outcomes(passed=1)
    assert len(server.requests) == 1
    path = _cassette(project)
    document = json.loads(path.read_text())
    assert document["tooltape"]["source"] == "loopback"
    recorded_request = document["interactions"][0]["request"]
    assert recorded_request["body"]["json"]["tools"][0]["filters"] == {
        "allowed_domains": ["weather.gov"]
    }

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    replay = project.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(passed=1)


def test_changed_config_fails_replay_with_a_diff_naming_the_field(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)[0].assert_outcomes(passed=1)
    monkeypatch.setenv("TT_DOMAINS", "noaa.gov")
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "Wire drift" in output
    assert "tools[0].filters.allowed_domains" in output
    assert "weather.gov" in output and "noaa.gov" in output


def test_missing_cassette_fails_with_the_command_that_records_it(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "No cassette at" in output
    assert "pytest --record-mode=once test_weather.py::test_weather" in output


def test_corrupt_cassette_is_an_error_naming_the_file(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)[0].assert_outcomes(passed=1)
    path = _cassette(project)
    path.write_text(path.read_text()[:200])
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    output = result.stdout.str()
    assert result.ret != 0
    assert f"cassette {path}: invalid JSON" in output
    assert "git checkout" in output
    # the message, not a traceback through vcrpy and the plugin
    assert "Traceback" not in output and "_format.py" not in output


def test_a_hand_edited_cassette_fails_with_the_place_not_a_traceback(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)[0].assert_outcomes(passed=1)
    path = _cassette(project)
    document = json.loads(path.read_text())
    document["interactions"][0]["response"]["status_code"] = "two hundred"
    path.write_text(json.dumps(document))
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    output = result.stdout.str()
    result.assert_outcomes(errors=1)
    assert "/interactions/0/response/status_code: expected an integer" in output
    assert "_format.py" not in output and "vcr/cassette.py" not in output


def test_a_failing_test_leaves_no_new_cassette(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(
        test_weather=TEST_MODULE + "\n\ndef test_fails(openai_adapter):\n"
        "    openai_adapter.evaluate(weather_prompt())\n    assert False\n"
    )
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())] * 2) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    assert (pytester.path / "cassettes" / "test_weather" / "test_weather.json").is_file()
    unsaved = pytester.path / "cassettes" / "test_weather" / "test_fails.json"
    assert not unsaved.exists()
    # the failure says so, or the recording seems lost
    output = result.stdout.str()
    assert f"{unsaved} not written: a test that fails writes no cassette" in output
    assert "test_weather.json not written" not in output


def test_new_episodes_that_would_leave_the_cassette_stale_saves_nothing_and_says_so(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)[0].assert_outcomes(passed=1)
    path = _cassette(project)
    recorded = path.read_bytes()
    monkeypatch.setenv("TT_DOMAINS", "noaa.gov")  # the request the test makes changes
    result, server = _record(project, monkeypatch, "--record-mode=new_episodes")
    result.assert_outcomes(failed=1)
    assert len(server.requests) == 1  # the new request was made, beside the unplayed one
    output = result.stdout.str()
    assert "this --record-mode=new_episodes run recorded new requests" in output
    assert "#0 POST /v1/responses" in output and "the cassette was not saved" in output
    assert "pytest --record-mode=rewrite test_weather.py::test_weather" in output
    assert path.read_bytes() == recorded  # no cassette that its next replay would fail

    result, _ = _record(project, monkeypatch, "--record-mode=rewrite")
    result.assert_outcomes(passed=1)
    project.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_an_unplayed_interaction_fails_the_test_as_stale(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _record(project, monkeypatch)[0].assert_outcomes(passed=1)
    path = _cassette(project)
    document = json.loads(path.read_text())
    document["interactions"].append(document["interactions"][0])
    path.write_text(json.dumps(document))
    result = project.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)  # the test fails; no teardown error
    output = result.stdout.str()
    assert "Stale cassette" in output
    assert (
        "OPENAI_API_KEY=<your key> pytest --record-mode=rewrite test_weather.py::test_weather"
        in output
    )


def test_a_key_in_headers_url_and_body_reaches_no_cassette(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(
        test_leaky=f"""
import openai
import pytest
from tooltape import MarkdownSection, Prompt
from tooltape.adapters.openai import OpenAIAdapter

KEY = {FAKE_KEY!r}

@pytest.mark.vcr
def test_leaky():
    client = openai.OpenAI(
        api_key=KEY,
        default_headers={{"x-api-key": KEY, "cookie": "session=" + KEY}},
        default_query={{"key": KEY}},
    )
    prompt = Prompt(ns="demo", key="leak", sections=[
        MarkdownSection(title="Task", template="Use the key {FAKE_KEY} please."),
    ])
    response = OpenAIAdapter("gpt-5", client=client).evaluate(prompt)
    assert response.text
"""
    )
    reply = LoopbackReply.json(real_web_search_body(), headers={"set-cookie": f"token={FAKE_KEY}"})
    with LoopbackProvider([reply]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    received = server.requests[0]
    assert FAKE_KEY in received.headers["x-api-key"]  # the key really was on the wire
    path = pytester.path / "cassettes" / "test_leaky" / "test_leaky.json"
    text = path.read_text()
    assert FAKE_KEY not in text
    assert "Zq9Zq9Zq9" not in text
    assert not find_secrets(load_cassette(path))


def test_twenty_tests_recorded_under_xdist_give_twenty_valid_cassettes(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = TEST_MODULE.replace("def test_weather(openai_adapter):", "def _check(openai_adapter):")
    tests = "\n".join(
        f"def test_weather_{i}(openai_adapter):\n    _check(openai_adapter)\n" for i in range(20)
    )
    pytester.makepyfile(test_weather=body + "\n" + tests)
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())] * 20) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess(
            "--record-mode=once", "-n", "2", "-p", "no:cacheprovider"
        )
    result.assert_outcomes(passed=20)
    files = sorted((pytester.path / "cassettes" / "test_weather").glob("*.json"))
    assert len(files) == 20
    for path in files:
        cassette = load_cassette(path)
        assert len(cassette.interactions) == 1
        assert cassette.header.source == "loopback"
    assert not list((pytester.path / "cassettes").rglob("*.tmp"))


def test_modules_with_one_file_name_in_two_folders_get_two_cassettes(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the two modules ask different questions, so a shared cassette would fail replay
    for folder, domain in (("a", "weather.gov"), ("b", "noaa.gov")):
        module = TEST_MODULE.replace('os.environ.get("TT_DOMAINS", "weather.gov")', f'"{domain}"')
        package = pytester.path / "tests" / folder
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("", encoding="utf-8")
        (package / "test_api.py").write_text(module, encoding="utf-8")
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())] * 2) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    for folder, domain in (("a", "weather.gov"), ("b", "noaa.gov")):
        path = pytester.path / "cassettes" / "tests" / folder / "test_api" / "test_weather.json"
        request = load_cassette(path).interactions[0].request.body
        assert isinstance(request, JsonBody)
        assert request.data["tools"][0]["filters"]["allowed_domains"] == [domain]  # type: ignore[index]
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL")
    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(passed=2)
