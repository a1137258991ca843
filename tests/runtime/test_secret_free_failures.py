"""A tool's failure goes back to the model without the credentials its exception holds.

A tool calling another API fails with that client's exception, and its text
is what the model reads: httpx's ``HTTPStatusError`` names the URL, query
key and all; a hook's or a library's error may quote a token the process
holds. The text is sent to the provider and recorded in ``ToolInvoked``, so
credentials of the environment (by value) and the credentials a URL
carries (its password, a ``key=`` / ``token=`` query value) are replaced
there; what failed, and where, is still said. The weather API and the
model are both loopback servers; every body here is synthetic.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import openai
import pytest

from tooltape import MarkdownSection, Prompt, Session, Tool, ToolResult
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.runtime.secret_free import without_secrets
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

ENV_KEY = "wx-9f8e7d6c5b4a39281706f5e4d3c2b1a0"
INLINE_KEY = "inline0123456789abcdefSECRET"
PASSWORD = "hunter2-correct-horse"


def answer(*output: dict[str, Any]) -> LoopbackReply:
    return LoopbackReply.json({"id": "resp_1", "status": "completed", "output": list(output)})


def function_call(name: str, call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps({"city": "Oslo"}),
        "status": "completed",
    }


DONE = {
    "type": "message",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "done", "annotations": []}],
}


@pytest.fixture
def weather_api() -> Iterator[LoopbackProvider]:
    """A weather API that refuses every key."""
    with LoopbackProvider(
        responder=lambda request: LoopbackReply.json({"error": "bad key"}, status=401)
    ) as server:
        yield server


def test_a_failing_tool_call_reaches_the_model_without_credentials(
    weather_api: LoopbackProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEATHER_API_KEY", ENV_KEY)
    base = f"http://127.0.0.1:{weather_api.port}"

    def forecast(city: str) -> str:
        """Get the forecast."""
        key = __import__("os").environ["WEATHER_API_KEY"]
        response = httpx.get(f"{base}/forecast", params={"q": city, "appid": key})
        response.raise_for_status()
        return response.text

    def archive(city: str) -> str:
        """Get past weather."""
        url = f"http://meteo:{PASSWORD}@127.0.0.1:{weather_api.port}/archive"
        response = httpx.get(url, params={"q": city, "api_key": INLINE_KEY})
        response.raise_for_status()
        return response.text

    def guard(ctx: Any, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
        if ctx.tool_name == "alerts":
            raise PermissionError(f"token {ENV_KEY} may not read alerts")
        return call_next(args)

    def alerts(city: str) -> str:
        """Get weather alerts."""
        return "none"

    tools = [Tool.from_function(fn) for fn in (forecast, archive, alerts)]
    prompt = Prompt(
        ns="tests",
        key="weather",
        tool_hooks=[guard],
        sections=[MarkdownSection(title="Task", template="Weather?", tools=tools)],
    )
    calls = [function_call("forecast", "c1"), function_call("archive", "c2")]
    calls.append(function_call("alerts", "c3"))
    session = Session()
    with LoopbackProvider([answer(*calls), answer(DONE)]) as model:
        client = openai.OpenAI(base_url=model.base_url, api_key="sk-test", max_retries=0)
        OpenAIAdapter("gpt-5", client=client).evaluate(prompt, session=session)

    sent = model.requests[1].body.decode()
    messages = [event.result.message for event in session.tool_invocations]
    for text in (sent, *messages):
        for secret in (ENV_KEY, INLINE_KEY, PASSWORD):
            assert secret not in text
    forecast_message, archive_message, alerts_message = messages
    # still says what failed and where
    assert "401 Unauthorized" in forecast_message
    assert f"127.0.0.1:{weather_api.port}/forecast?q=Oslo&appid=***'" in forecast_message
    assert f"meteo:***@127.0.0.1:{weather_api.port}/archive?q=Oslo&api_key=***'" in archive_message
    assert "PermissionError: token [WEATHER_API_KEY] may not read alerts" in alerts_message


def test_ordinary_text_and_urls_are_left_as_they_are() -> None:
    environ = {"PATH": "/usr/local/bin:/usr/bin:/bin", "SHORT_TOKEN": "abc123", "HOME": "/root"}
    text = (
        "GET https://api.example/v1/search?q=weather&page=2 failed for /usr/local/bin:/usr/bin:/bin"
        " (token abc123)"
    )
    assert without_secrets(text, environ) == text


def test_a_credential_is_found_by_value_also_percent_encoded_and_named() -> None:
    value = "s3cr3t/with+slash=0123456789"
    environ = {"SERVICE_PASSWORD": value}
    text = f"denied {value} at https://h.example/login?next=/home&password=%2Fx and https://h.example/?p=s3cr3t%2Fwith%2Bslash%3D0123456789"
    cleaned = without_secrets(text, environ)
    assert "s3cr3t" not in cleaned
    assert cleaned.startswith(
        "denied [SERVICE_PASSWORD] at https://h.example/login?next=/home&password=***"
    )
