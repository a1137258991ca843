"""Scripted provider faults, and how the OpenAI adapter behaves under each of them."""

from __future__ import annotations

import asyncio
import gzip
import importlib.util
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import openai
import pytest
import respx
import vcr

from tooltape import MarkdownSection, Prompt, PromptEvaluationError
from tooltape.testing.provider.faults import (
    PLACEHOLDER_API_KEY,
    ProviderFaults,
    Reply,
    ScriptExhausted,
    TransportFault,
    rate_limited,
    response_events,
    response_json,
    server_error,
    truncated_sse,
)
from tooltape.testing.provider.faults import (
    provider_faults as provider_faults,  # the fixture under test
)

pytest_plugins = ["pytester"]

# The SDK's own first backoff is 0.5 s minus up to 25 % jitter.
SDK_FIRST_BACKOFF = 0.375


@pytest.fixture(autouse=True)
def _no_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault tests must never open a socket: the transport is a mock."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a fault test tried to open a socket")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _prompt() -> Prompt[Any]:
    return Prompt(
        ns="tests/faults",
        key="greet",
        sections=[MarkdownSection(title="Task", key="task", template="Say hi.")],
    )


def _adapter(faults: ProviderFaults, *, max_retries: int = 2) -> Any:
    from tooltape.adapters.openai import OpenAIAdapter

    return OpenAIAdapter("gpt-4o", client=faults.client(max_retries=max_retries))


def _evaluation_error(faults: ProviderFaults, *, max_retries: int = 2) -> PromptEvaluationError:
    with pytest.raises(PromptEvaluationError) as caught:
        _adapter(faults, max_retries=max_retries).evaluate(_prompt())
    return caught.value


# --- the adapter under each fault ---------------------------------------------


def test_rate_limited_then_ok_succeeds_after_one_retry_honouring_retry_after(
    provider_faults: ProviderFaults,
) -> None:
    provider_faults.responses.rate_limited(retry_after=0.05).ok(response_json("hi there"))
    response = _adapter(provider_faults).evaluate(_prompt())

    assert response.text == "hi there"
    first, second = provider_faults.calls
    assert (first.status, second.status) == (429, 200)
    assert (first.header("x-stainless-retry-count"), second.header("x-stainless-retry-count")) == (
        "0",
        "1",
    )
    waited = second.at - first.at
    assert 0.05 <= waited < SDK_FIRST_BACKOFF, waited  # the header's wait, not the SDK's backoff
    assert first.json() == second.json()
    assert first.json()["model"] == "gpt-4o"


def test_rate_limited_beyond_the_retries_fails_in_the_request_phase_with_the_payload(
    provider_faults: ProviderFaults,
) -> None:
    provider_faults.responses.rate_limited(times=2)
    error = _evaluation_error(provider_faults, max_retries=1)
    assert error.phase == "request"
    assert error.prompt_name == "greet"
    assert error.provider_payload == {
        "message": "Rate limit reached for requests (scripted fault).",
        "type": "requests",
        "param": None,
        "code": "rate_limit_exceeded",
    }
    assert "HTTP 429" in error.message and "rate_limit_exceeded" in error.message
    assert [c.status for c in provider_faults.calls] == [429, 429]


def test_server_errors_beyond_max_retries_raise_with_the_provider_payload(
    provider_faults: ProviderFaults,
) -> None:
    provider_faults.responses.server_error(502, times=3)
    error = _evaluation_error(provider_faults, max_retries=2)

    assert error.phase == "request"
    assert isinstance(error.provider_payload, dict)
    assert error.provider_payload["type"] == "server_error"
    assert "HTTP 502" in error.message
    assert [c.status for c in provider_faults.calls] == [502, 502, 502]
    first, *_, last = provider_faults.calls
    assert last.at - first.at < SDK_FIRST_BACKOFF  # retry-after-ms kept both retries fast


def test_a_server_error_once_is_retried_away(provider_faults: ProviderFaults) -> None:
    provider_faults.script(server_error(503), provider_faults.ok(response_json("fine")))
    assert _adapter(provider_faults).evaluate(_prompt()).text == "fine"
    assert [c.status for c in provider_faults.calls] == [503, 200]


def test_a_timeout_fails_in_the_request_phase(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.timeout()
    error = _evaluation_error(provider_faults, max_retries=0)
    assert error.phase == "request"
    assert "APITimeoutError" in error.message
    assert isinstance(error.__cause__, openai.APITimeoutError)
    (call,) = provider_faults.calls
    assert (call.status, call.error) == (None, "ReadTimeout")


def test_a_timeout_is_retried_after_the_sdk_backoff(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.timeout().ok(response_json("late"))
    assert _adapter(provider_faults, max_retries=1).evaluate(_prompt()).text == "late"
    first, second = provider_faults.calls
    assert first.error == "ReadTimeout" and second.status == 200
    assert SDK_FIRST_BACKOFF <= second.at - first.at < 1.0  # no header: the SDK's own wait


def test_a_refused_connection_fails_in_the_request_phase(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.connection_error()
    error = _evaluation_error(provider_faults, max_retries=0)
    assert error.phase == "request"
    assert isinstance(error.__cause__, openai.APIConnectionError)
    assert provider_faults.calls[0].error == "ConnectError"


def test_malformed_json_fails_in_the_parse_phase(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.malformed_json()
    error = _evaluation_error(provider_faults)
    assert error.phase == "parse"
    assert "not JSON" in error.message
    assert error.provider_payload == '{"id": "resp_tooltape", "object": "response", "output": ['
    assert len(provider_faults.calls) == 1  # a 200 is never retried


def test_a_failed_response_fails_in_the_response_phase(provider_faults: ProviderFaults) -> None:
    failure = {"code": "server_error", "message": "The model crashed."}
    provider_faults.responses.ok(response_json(status="failed", error=failure))
    error = _evaluation_error(provider_faults)
    assert error.phase == "response"
    assert error.provider_payload == failure
    assert "server_error: The model crashed." in error.message


# --- streams ------------------------------------------------------------------


def _stream_types(client: openai.OpenAI) -> list[str]:
    stream = client.responses.create(model="gpt-4o", input="hi", stream=True)
    return [event.type for event in stream]


def test_a_full_event_stream_reaches_response_completed(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.sse(response_events("hello world"))
    client = provider_faults.client()
    types = _stream_types(client)
    assert types[0] == "response.created" and types[-1] == "response.completed"
    assert types.count("response.output_text.delta") == 2

    provider_faults.responses.sse()
    with client.responses.stream(model="gpt-4o", input="hi") as stream:
        assert stream.get_final_response().output_text == "ok"


def test_a_dropped_event_stream_raises_a_connection_error_after_the_events_it_got(
    provider_faults: ProviderFaults,
) -> None:
    events = response_events("hello")
    provider_faults.responses.truncated_sse(events, keep=3)
    stream = provider_faults.client().responses.create(model="gpt-4o", input="hi", stream=True)
    seen: list[str] = []
    with pytest.raises(openai.APIConnectionError) as caught:
        seen.extend(event.type for event in stream)
    assert seen == [e["type"] for e in events[:3]]
    assert isinstance(caught.value.__cause__, httpx2.RemoteProtocolError)
    assert "peer closed connection" in str(caught.value.__cause__)


def test_a_stream_that_just_stops_is_silent_unless_the_final_response_is_asked_for(
    provider_faults: ProviderFaults,
) -> None:
    # What the SDK does: a half event without its blank line is dropped, the
    # iteration ends quietly, and only the stream helper notices.
    provider_faults.responses.truncated_sse(disconnect=False).truncated_sse(disconnect=False)
    client = provider_faults.client()
    types = _stream_types(client)
    assert types == [e["type"] for e in response_events()[:-1]]
    assert "response.completed" not in types

    with (
        pytest.raises(RuntimeError, match=r"Didn't receive a `response\.completed` event"),
        client.responses.stream(model="gpt-4o", input="hi") as stream,
    ):
        stream.get_final_response()


def test_truncated_stream_bytes_end_mid_event(provider_faults: ProviderFaults) -> None:
    events = response_events("hi")
    provider_faults.responses.truncated_sse(events, keep=1, disconnect=False)
    with httpx2.Client(transport=provider_faults.transport) as client:
        body = client.post(f"{provider_faults.base_url}/responses").text
    blocks = body.split("\n\n")
    assert json.loads(blocks[0].split("data: ", 1)[1]) == events[0]
    assert blocks[1].startswith("event: response.output_item.added")
    assert len(blocks) == 2  # the second event never got its blank line


# --- scripts, calls and the router --------------------------------------------


def test_calls_record_what_was_sent(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.ok()
    provider_faults.client().responses.create(model="gpt-4o", input="hello", temperature=0.5)
    (call,) = provider_faults.calls
    assert (call.method, call.path, call.url) == (
        "POST",
        "/v1/responses",
        "http://tooltape.invalid/v1/responses",
    )
    assert call.json() == {"model": "gpt-4o", "input": "hello", "temperature": 0.5}
    assert call.header("Authorization") == f"Bearer {PLACEHOLDER_API_KEY}"
    assert call.header("no-such-header") is None


def test_script_replaces_what_was_left_and_is_used_in_order(
    provider_faults: ProviderFaults,
) -> None:
    provider_faults.responses.server_error(times=5)
    script = provider_faults.script(rate_limited(0.001), provider_faults.ok(response_json("a")))
    assert [f.label for f in script.remaining] == ["429 rate limited", "200 ok"]
    text = provider_faults.client().responses.with_raw_response.create(model="m", input="x")
    assert text.http_response.json()["output"][0]["content"][0]["text"] == "a"
    assert script.remaining == ()
    assert [f.label for f in script.played] == ["429 rate limited", "200 ok"]


def test_a_call_beyond_the_script_fails_loudly(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.ok()
    client = provider_faults.client()
    client.responses.create(model="gpt-4o", input="hi")
    with pytest.raises(
        ScriptExhausted, match=r"POST .*/v1/responses: call 2 has no scripted reply"
    ):
        client.responses.create(model="gpt-4o", input="hi")


def test_an_unscripted_endpoint_is_not_mocked(provider_faults: ProviderFaults) -> None:
    with pytest.raises(respx.models.AllMockedAssertionError, match="/v1/models"):
        provider_faults.client().models.list()


def test_other_endpoints_can_be_scripted(provider_faults: ProviderFaults) -> None:
    provider_faults.endpoint("GET", "/models").ok({"object": "list", "data": []})
    assert provider_faults.client().models.list().data == []


def test_plain_respx_routes_work_with_httpx_errors_and_encoded_bodies(
    provider_faults: ProviderFaults,
) -> None:
    zipped = gzip.compress(b'{"object": "list", "data": []}')
    provider_faults.router.get("/files").mock(
        side_effect=[
            httpx.ConnectTimeout("slow"),
            httpx.Response(200, content=zipped, headers={"content-encoding": "gzip"}),
        ]
    )
    with httpx2.Client(transport=provider_faults.transport) as client:
        with pytest.raises(httpx2.ConnectTimeout, match="slow"):
            client.get(f"{provider_faults.base_url}/files")
        assert client.get(f"{provider_faults.base_url}/files").json() == {
            "object": "list",
            "data": [],
        }
    assert [c.error or c.status for c in provider_faults.calls] == ["ConnectTimeout", 200]


def test_the_async_client_is_scripted_too(provider_faults: ProviderFaults) -> None:
    provider_faults.responses.rate_limited(0.001).sse(response_events("async"))

    async def run() -> list[str]:
        client = provider_faults.async_client()
        stream = await client.responses.create(model="gpt-4o", input="hi", stream=True)
        types = [event.type async for event in stream]
        await client.close()
        return types

    assert asyncio.run(run())[-1] == "response.completed"
    assert [c.status for c in provider_faults.calls] == [429, 200]


def test_faults_bypass_an_active_vcr_cassette(
    tmp_path: Path, provider_faults: ProviderFaults
) -> None:
    provider_faults.responses.ok(response_json("not recorded"))
    cassette = tmp_path / "never.yaml"
    with vcr.VCR(record_mode="none").use_cassette(str(cassette)):
        raw = provider_faults.client().responses.with_raw_response.create(model="m", input="x")
    assert raw.http_response.json()["output"][0]["content"][0]["text"] == "not recorded"
    assert not cassette.exists()


def test_verify_names_unused_replies() -> None:
    faults = ProviderFaults()
    faults.verify()
    faults.responses.ok().timeout()
    with pytest.raises(AssertionError, match=r"never requested:\n  POST .*: 200 ok, read timeout"):
        faults.verify()


# --- reply values -------------------------------------------------------------


def test_rate_limit_headers_carry_milliseconds_and_whole_seconds() -> None:
    headers = dict(rate_limited(0.25).headers)
    assert headers["retry-after-ms"] == "250"
    assert headers["retry-after"] == "1"
    assert "retry-after-ms" not in dict(rate_limited(None).headers)


@pytest.mark.parametrize("bad", [0, -1, 121])
def test_retry_after_outside_what_the_sdk_honours_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="retry_after"):
        rate_limited(bad)


def test_reply_constructors_check_their_arguments() -> None:
    with pytest.raises(ValueError, match="5xx"):
        server_error(404)
    with pytest.raises(ValueError, match="keep must be between 0 and 7"):
        truncated_sse(keep=8)


def test_replies_are_frozen_values() -> None:
    reply = server_error(500)
    assert isinstance(reply, Reply)
    assert isinstance(ProviderFaults.timeout(), TransportFault)
    with pytest.raises(AttributeError):
        reply.status = 200  # type: ignore[misc]
    assert reply == server_error(500)


def test_response_events_build_a_completed_stream() -> None:
    events = response_events("a b c", id="resp_x")
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    assert (
        "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta") == "a b c"
    )
    assert events[-1]["response"] == response_json("a b c", id="resp_x")


# --- the fixture --------------------------------------------------------------

_PLUGIN_ARGS: tuple[str, ...] = (
    () if importlib.util.find_spec("tooltape.testing.plugin") else ("-p", "no:tooltape")
)


@pytest.fixture(params=["conftest", "plugin"])
def fault_project(
    pytester: pytest.Pytester, request: pytest.FixtureRequest
) -> Iterator[pytest.Pytester]:
    if request.param == "conftest":  # a project that does not load tooltape's plugin
        pytester.makeconftest(
            "from tooltape.testing.provider.faults import provider_faults  # noqa: F401\n"
        )
    elif _PLUGIN_ARGS:
        pytest.fail("the plugin must be installed for its provider_faults fixture to be tested")
    pytester.makepyfile(
        test_uses_faults="""
        def test_leaves_a_reply(provider_faults):
            provider_faults.responses.ok()

        def test_fails_and_leaves_a_reply(provider_faults):
            provider_faults.responses.ok()
            assert False, "the test's own failure"

        def test_allows_leftovers(provider_faults):
            provider_faults.assert_all_played = False
            provider_faults.responses.ok()

        def test_uses_everything(provider_faults):
            provider_faults.responses.ok()
            provider_faults.client().responses.create(model="m", input="x")
        """
    )
    yield pytester


def test_fixture_reports_unused_replies_only_for_tests_that_passed(
    fault_project: pytest.Pytester,
) -> None:
    # A subprocess: an in-process run would take over syrupy's module-level session.
    skipped = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:xdist")
    result = fault_project.runpytest_subprocess(*_PLUGIN_ARGS, *skipped)
    result.assert_outcomes(passed=3, failed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_leaves_a_reply*",
            "*Scripted replies were never requested:*",
        ]
    )
    assert "ERROR at teardown of test_fails_and_leaves_a_reply" not in result.stdout.str()


def test_the_plugin_loads_the_fault_script_and_the_adapter_only_when_a_test_uses_them() -> None:
    # A fresh interpreter: this one has imported both already. respx and the
    # adapter's codecs take about 0.2 s to import, at every session start.
    heavy = ("respx", "tooltape.adapters.openai", "tooltape.testing.provider.faults")
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, tooltape.testing.plugin\n"
            f"print(sorted(name for name in {heavy!r} if name in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"
