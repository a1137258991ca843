"""JSON held in a string (a function call's ``arguments``, a tool's output) is read as JSON:
its secret fields are redacted and found as a JSON body's are, in the JSON a stream's
deltas reassemble to too.

A model calling a ``connect`` tool sends ``{"password": "..."}`` as a string (streamed:
spread over several events); the next request sends that call back. Every secret
below is synthetic.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from tooltape.testing.cassette import (
    REDACTED,
    Cassette,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    TextBody,
    find_secrets,
    parse_sse,
    scrub_body,
    scrub_tree,
)
from tooltape.testing.cassette._scrub import might_need_scrubbing
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

PASSWORD = "hunter2-" + "Qx7Lm2Zp9Wd4"


def _call(arguments: str) -> dict[str, object]:
    return {"type": "function_call", "call_id": "call_1", "name": "connect", "arguments": arguments}


def _cassette(tree: object, answer: SseBody | None = None) -> Cassette:
    request = RecordedRequest("POST", "https://api.example.test/v1/responses", {}, JsonBody(tree))
    response = RecordedResponse(200, "OK", {}, EmptyBody() if answer is None else answer)
    header = CassetteHeader("0.1.0", "synthetic", "synthetic: test_scrub_nested_json")
    return Cassette(header, (Interaction(request, response),))


def _event(data: dict[str, object]) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _streamed_call(arguments: str, cuts: tuple[int, ...]) -> SseBody:
    """A function call's arguments streamed in pieces cut at ``cuts``, then done."""
    bounds = (0, *cuts, len(arguments))
    pieces = [arguments[a:b] for a, b in itertools.pairwise(bounds)]
    kind = "response.function_call_arguments"
    at: dict[str, object] = {"item_id": "fc_1", "output_index": 0}
    deltas = [
        _event({"type": f"{kind}.delta", **at, "delta": piece, "sequence_number": number})
        for number, piece in enumerate(pieces)
    ]
    done = {"type": f"{kind}.done", **at, "arguments": arguments, "sequence_number": len(pieces)}
    return parse_sse("".join(deltas) + _event(done))


def _reassembled(body: SseBody) -> tuple[str, str]:
    """The arguments the deltas reassemble to, and those of the done event."""
    deltas = [e.data for e in body.events if e.event and e.event.endswith(".delta")]
    [done] = [e.data for e in body.events if e.event and e.event.endswith(".done")]
    joined = "".join(str(data["delta"]) for data in deltas if isinstance(data, dict))
    assert isinstance(done, dict)
    return joined, str(done["arguments"])


@pytest.mark.parametrize(
    "arguments",
    [
        json.dumps({"host": "db", "password": PASSWORD}),
        json.dumps({"host": "db", "password": PASSWORD}, separators=(",", ":")),
        json.dumps({"login": {"user": "bob", "password": PASSWORD}}, indent=2),
        json.dumps({"payload": json.dumps({"password": PASSWORD})}),  # and in it, again
    ],
    ids=["arguments", "compact", "nested object", "twice"],
)
def test_a_secret_field_in_json_held_in_a_string_is_redacted_and_found(arguments: str) -> None:
    tree = {"input": [_call(arguments)]}

    [finding] = find_secrets(_cassette(tree))
    scrubbed = scrub_tree(tree)

    assert finding.kind == "secret body field"
    assert finding.location.startswith("/interactions/0/request/body/json/input/0/arguments")
    assert PASSWORD not in json.dumps(scrubbed)
    assert REDACTED in json.dumps(scrubbed)
    assert find_secrets(_cassette(scrubbed)) == []
    assert scrub_tree(scrubbed) is scrubbed
    assert might_need_scrubbing(json.dumps(tree).encode())


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"host": "db", "port": 5432}),
        "{not json, but says password: x}",
        '["password", "is a word here"]',
        "plain text about a password",
    ],
)
def test_a_string_with_nothing_to_redact_is_kept_as_it_is(text: str) -> None:
    tree = {"input": [_call(text)]}

    assert scrub_tree(tree) is tree
    assert find_secrets(_cassette(tree)) == []


ARGUMENTS = json.dumps({"host": "db", "password": PASSWORD}, separators=(",", ":"))


@pytest.mark.parametrize(
    "cuts",
    [(30, 40), (13,), (18,)],
    ids=["value split over events", "field whole in one event", "name split, value whole"],
)
def test_a_secret_field_a_stream_spreads_over_its_deltas_is_redacted_and_found(
    cuts: tuple[int, ...],
) -> None:
    stream = _streamed_call(ARGUMENTS, cuts)

    findings = find_secrets(_cassette({}, stream))
    scrubbed = scrub_body(stream)

    assert isinstance(scrubbed, SseBody)
    assert findings
    assert all(finding.kind.startswith("secret body field") for finding in findings)
    assert any(finding.location.endswith("/data/delta") for finding in findings)
    assert PASSWORD not in scrubbed.to_text()
    for piece in (PASSWORD[:8], PASSWORD[8:]):
        assert piece not in scrubbed.to_text()
    joined, done = _reassembled(scrubbed)
    assert joined == done == ARGUMENTS.replace(PASSWORD, REDACTED)  # one layout, both ways
    assert find_secrets(_cassette({}, scrubbed)) == []


def test_a_json_text_body_keeps_its_layout_when_a_field_is_redacted() -> None:
    text = '{"a":1,"client_secret":"' + PASSWORD + '",\n "n": {"password": 1234}}'

    assert scrub_body(TextBody(text)) == TextBody(
        '{"a":1,"client_secret":"REDACTED",\n "n": {"password": "REDACTED"}}'
    )


ROUND_TRIP = """
import json
import openai
import pytest


@pytest.mark.vcr
def test_round_trip():
    call = {{
        "type": "function_call",
        "call_id": "call_1",
        "name": "connect",
        "arguments": json.dumps({{"host": "db", "password": "{password}"}}),
    }}
    output = {{"type": "function_call_output", "call_id": "call_1", "output": "connected"}}
    response = openai.OpenAI(max_retries=0).responses.create(
        model="gpt-5", input=[{{"role": "user", "content": "connect"}}, call, output]
    )
    assert response.status == "completed"
"""


def test_a_tool_calls_password_never_reaches_the_cassette_and_it_replays(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_round_trip=ROUND_TRIP.format(password=PASSWORD))
    answer = {"id": "resp_1", "object": "response", "status": "completed", "output": []}
    with LoopbackProvider([LoopbackReply.json(answer)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-" + "Wd4" * 12)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    assert PASSWORD in server.requests[0].body.decode()  # really on the wire
    [cassette] = Path(pytester.path, "cassettes").rglob("*.json")
    assert PASSWORD not in cassette.read_text(encoding="utf-8")

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens
    monkeypatch.delenv("OPENAI_API_KEY")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
