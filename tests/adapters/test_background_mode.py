"""Response status: unfinished responses are never answers; background mode polls them.

The acceptance test replays a real recording (``cassettes/imported/
background_mode_with_tool.json``, imported with ``tooltape import`` from
``tests/data/real-cassettes/openai-responses/background_mode_with_tool.yaml``;
see its PROVENANCE.md) through vcrpy configured by tooltape. The recording
was made by another client, so requests match on method and path only, as
the plugin does for imported cassettes. The other tests script the provider
with synthetic minimal bodies.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai
import pytest
import vcr
from openapi_wire import assert_valid_request_body

from tooltape import MarkdownSection, Prompt, PromptEvaluationError, Session, Tool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.sending import ResponseSender
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.testing.vcr.recorder import configure_vcr

REPO = Path(__file__).resolve().parents[2]
IMPORTED = REPO / "cassettes" / "imported"


def get_weather(city: str) -> str:
    """Get current weather for a city."""
    return f"Sunny and 72F in {city}"


def weather_prompt() -> Prompt[Any]:
    section = MarkdownSection(
        title="Task",
        template="What is the weather in Paris? Use the get_weather tool.",
        tools=[Tool.from_function(get_weather)],
    )
    return Prompt(ns="t", key="weather", sections=[section])


def method_and_path_only(current: Any, recorded: Any) -> None:
    """Another client made the recorded requests: their bodies and queries (its polls
    asked ``?stream=false``) say nothing about ours."""


def test_a_real_background_recording_replays_to_its_final_answer_and_function_call() -> None:
    recorder = configure_vcr(
        vcr.VCR(record_mode="none"),
        body_matcher=method_and_path_only,
        query_matcher=method_and_path_only,
    )
    session = Session()
    with recorder.use_cassette(str(IMPORTED / "background_mode_with_tool.json")) as cassette:
        client = openai.OpenAI(api_key="tooltape-replay", max_retries=0)
        adapter = OpenAIAdapter("gpt-4o", client=client, poll_interval_s=0)
        response = adapter.evaluate(weather_prompt(), session=session, background=True)
        played = [(r.method, r.path) for r in cassette.requests]
        assert cassette.all_played

    assert response.text == "The weather in Paris is currently sunny with a temperature of 72°F."
    assert response.response_id == "resp_0e6b15873828668f00698b9df63cb08196a7f29ecc4788d6b6"
    (call,) = session.tool_invocations
    assert (call.name, call.call_id) == ("get_weather", "call_JcaYgcpgGGTn4GjzjNDDB1xE")
    assert call.rendered_output == "Sunny and 72F in Paris"
    assert [method for method, _ in played] == ["POST", "GET", "POST", "GET", "GET"]


def queued(response_id: str = "resp_bg", status: str = "queued") -> dict[str, Any]:
    return {"id": response_id, "object": "response", "status": status, "output": []}


def test_background_sends_the_flag_and_polls_until_a_final_status() -> None:
    faults = ProviderFaults()
    faults.script(faults.ok(queued()))
    polls = faults.endpoint("GET", "/responses/resp_bg")
    polls.ok(queued(status="in_progress")).ok(faults.response_json("done", id="resp_bg"))
    adapter = OpenAIAdapter("gpt-5", client=faults.client(), poll_interval_s=0)

    response = adapter.evaluate(weather_prompt(), background=True)

    assert response.text == "done"
    sent = faults.calls[0].json()
    assert sent["background"] is True
    assert_valid_request_body(sent)
    assert [(c.method, c.path) for c in faults.calls] == [
        ("POST", "/v1/responses"),
        ("GET", "/v1/responses/resp_bg"),
        ("GET", "/v1/responses/resp_bg"),
    ]


@pytest.mark.parametrize("status", ["queued", "in_progress"])
def test_an_unfinished_response_is_never_reported_as_an_answer(status: str) -> None:
    faults = ProviderFaults()
    faults.script(faults.ok(queued(status=status)))
    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=faults.client()).evaluate(weather_prompt())
    assert raised.value.phase == "response"
    assert f"is {status}, not finished" in str(raised.value)
    assert "background=True" in str(raised.value)


@dataclass
class FakeTime:
    now: float = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def clock(self) -> float:
        return self.now


def test_polling_gives_up_after_the_timeout() -> None:
    faults = ProviderFaults(assert_all_played=False)
    faults.script(faults.ok(queued()))
    faults.endpoint("GET", "/responses/resp_bg").then(
        faults.ok(queued(status="in_progress")), times=5
    )
    client = faults.client()
    fake = FakeTime()
    # The sender's clock and sleep are its seams: the test waits no real second.
    sender = ResponseSender(lambda: client, 2, 5, sleep=fake.sleep, clock=fake.clock)
    with pytest.raises(PromptEvaluationError, match=r"still in_progress after 5 s") as raised:
        sender.create({"model": "gpt-5", "input": "hi", "background": True}, "weather")
    assert raised.value.phase == "response"
    assert len([c for c in faults.calls if c.method == "GET"]) == 3
    assert fake.now == 6


def test_cancelled_and_failed_background_responses_are_errors() -> None:
    faults = ProviderFaults()
    faults.script(faults.ok(queued()))
    faults.endpoint("GET", "/responses/resp_bg").ok(queued(status="cancelled"))
    adapter = OpenAIAdapter("gpt-5", client=faults.client(), poll_interval_s=0)
    with pytest.raises(PromptEvaluationError, match="resp_bg is cancelled"):
        adapter.evaluate(weather_prompt(), background=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"poll_interval_s": -1}, "poll_interval_s=-1"),
        ({"poll_timeout_s": 0}, "poll_timeout_s=0"),
        ({"poll_timeout_s": float("inf")}, "poll_timeout_s=inf"),
    ],
)
def test_polling_bounds_are_checked_when_the_adapter_is_built(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        OpenAIAdapter("gpt-5", **options)


def test_a_compaction_item_neither_breaks_evaluate_nor_is_taken_for_text() -> None:
    recorder = configure_vcr(
        vcr.VCR(record_mode="none"),
        body_matcher=method_and_path_only,
        query_matcher=method_and_path_only,
    )
    prompt = Prompt(
        ns="t", key="story", sections=[MarkdownSection(title="T", template="Tell a story.")]
    )
    with recorder.use_cassette(str(IMPORTED / "compact_stateful_mode.json")):
        client = openai.OpenAI(api_key="tooltape-replay", max_retries=0)
        adapter = OpenAIAdapter("gpt-4.1", client=client)
        # The third recorded response carries the compaction item after its message.
        responses = [adapter.evaluate(prompt) for _ in range(3)]
    third = responses[2]
    assert third.text.startswith("In the silent hush of early evening")
    assert third.response_id is not None and third.response_id.startswith("resp_")
    assert third.tool_invocations == ()
