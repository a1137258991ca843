"""What replay hands vcrpy from a tooltape cassette: the recorded interactions, in order.

Checked on every real recording in ``cassettes/imported/`` (and the contract
cassettes), against ``cassette_to_vcr``, vcrpy's serialised data.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooltape.testing.cassette import (
    Cassette,
    CassetteHeader,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    SseEvent,
    cassette_to_vcr,
    load_cassette,
)
from tooltape.testing.cassette._vcrpy_format import SCANNED
from tooltape.testing.vcr.loaded import vcr_interactions

ROOT = Path(__file__).resolve().parents[2] / "cassettes"
CASSETTES = sorted((ROOT / "imported").glob("*.json")) + sorted(
    (ROOT / "tests" / "contracts" / "test_recorded_contracts").glob("*.json")
)


def _json_or_bytes(body: bytes) -> object:
    try:
        return json.loads(body) if body else body
    except ValueError:
        return body


@pytest.mark.parametrize("path", CASSETTES, ids=lambda p: p.stem)
def test_replay_gets_each_recorded_interaction(path: Path) -> None:
    cassette = load_cassette(path)
    requests, responses = vcr_interactions(cassette)
    expected = cassette_to_vcr(cassette)["interactions"]
    assert isinstance(expected, list) and len(requests) == len(responses) == len(expected)
    for request, response, pair in zip(requests, responses, expected, strict=True):
        want_request, want_response = pair["request"], pair["response"]
        assert (request.method, request.uri) == (want_request["method"], want_request["uri"])
        assert _json_or_bytes(request.body) == _json_or_bytes(want_request["body"])
        assert response["status"] == want_response["status"]
        assert response.get(SCANNED) == want_response.get(SCANNED)
        assert _json_or_bytes(response["body"]["string"]) == _json_or_bytes(
            want_response["body"]["string"]
        )
        # content-length always matches the bytes replayed
        if request.body and "content-length" in request.headers:
            assert request.headers["content-length"] == str(len(request.body))
        length = response["headers"].get("content-length")
        if length and response["body"]["string"]:
            assert length == [str(len(response["body"]["string"]))]


# Synthetic stream: every kind of event block the cassette format keeps.
_EVENTS = (
    SseEvent("response.created", {"type": "response.created", "text": "é 😀 \u2028 </x>"}),
    SseEvent(None, {"no": "event name"}),
    SseEvent("delta", {"n": 1}, comments=("keep-alive",), id="7", retry="100"),
    SseEvent("text", "not json\nover two lines", raw_data=True),
    SseEvent("spaced", {"a": [1, 2]}, json_style="spaced"),
    SseEvent("ping", None),
    SseEvent("lone", {"half": "\ud83d"}),
    SseEvent(None, None, raw=": exact block\r\n\r\n"),
)


@pytest.mark.parametrize("ending", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_a_stream_replays_as_the_cassette_writes_it(ending: str) -> None:
    body = SseBody(_EVENTS, line_ending=ending)
    headers = {"content-type": ("text/event-stream",), "content-length": ("0",)}
    response = RecordedResponse(200, "OK", headers, body)
    request = RecordedRequest("POST", "https://api.openai.com/v1/responses", {}, JsonBody({}))
    cassette = Cassette(CassetteHeader("0.1.0", "live"), (Interaction(request, response),))
    _, (replayed,) = vcr_interactions(cassette)
    want = cassette_to_vcr(cassette)["interactions"][0]["response"]  # type: ignore[index]
    assert replayed["body"]["string"] == want["body"]["string"] == body.to_bytes()
    assert replayed["headers"]["content-length"] == [str(len(body.to_bytes()))]
