"""What replay hands vcrpy from a tooltape cassette: the recorded interactions, in order.

Checked on every real recording in ``cassettes/imported/`` (and the contract
cassettes), against ``cassette_to_vcr``, vcrpy's serialised data; then played
by every HTTP client vcrpy patches (a synthetic cassette), each response
written only when it is played.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import httpx
import httpx2
import pytest
import requests
import vcr

from tooltape.testing.cassette import (
    BinaryBody,
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
from tooltape.testing.cassette._errors import CassetteSecretError
from tooltape.testing.cassette._vcrpy_format import SCANNED
from tooltape.testing.cassette_run import CassetteRun
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.run_persister import RunPersister
from tooltape.testing.vcr import loaded
from tooltape.testing.vcr.loaded import vcr_interactions
from tooltape.testing.vcr.recorder import configure_vcr

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


def _built(request: Any) -> dict[str, Any]:
    """Everything a vcrpy ``Request`` holds, its headers' store included."""
    return {**vars(request), "_headers": vars(request._headers)}


@pytest.mark.parametrize("path", CASSETTES, ids=lambda p: p.stem)
def test_each_request_is_what_vcrpys_own_constructor_builds(path: Path) -> None:
    requests, _ = vcr_interactions(load_cassette(path))
    for request in requests:
        assert type(request) is vcr.request.Request
        headers = {name: value for name, value in request.headers.items()}
        rebuilt = vcr.request.Request(request.method, request.uri, request.body, headers)
        assert _built(request) == _built(rebuilt)
        assert (request.path, request.query, request.host) == (
            rebuilt.path,
            rebuilt.query,
            rebuilt.host,
        )


def test_header_names_differing_only_in_case_are_merged_as_vcrpy_merges_them() -> None:
    headers = {"X-Trace": "1", "x-trace": "2", "accept": "*/*"}
    args = ("POST", "https://api.openai.com/v1/responses", b"{}", headers)
    assert _built(loaded._direct_request(*args)) == _built(vcr.request.Request(*args))


def test_a_vcrpy_whose_request_is_built_another_way_keeps_its_constructor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert loaded._request_builder() is loaded._direct_request

    class Newer(vcr.request.Request):  # an __init__ that keeps one more attribute
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            self.stream_id = None

    monkeypatch.setattr(loaded, "_Request", Newer)
    monkeypatch.setattr(loaded, "make_request", Newer)
    assert loaded._request_builder() is Newer


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


def test_a_request_header_recorded_with_no_value_is_not_sent() -> None:
    # vcrpy keeps one value per request header; a header with none has no first one.
    headers = {"accept": (), "content-type": ("application/json",)}
    request = RecordedRequest("POST", "https://api.openai.com/v1/responses", headers, JsonBody({}))
    response = RecordedResponse(200, "OK", {}, JsonBody({"id": "resp_1"}))
    cassette = Cassette(CassetteHeader("0.1.0", "live"), (Interaction(request, response),))
    (replayed,), _ = vcr_interactions(cassette)
    assert dict(replayed.headers) == {"content-type": "application/json"}


# Synthetic cassette: one interaction per kind of body, played by every HTTP client
# vcrpy patches that is installed here (aiohttp is not).
_URI = "https://api.example.test/v1/responses"
_STREAM = (
    b'event: response.created\ndata: {"type":"response.created"}\n\n'
    b'event: response.completed\ndata: {"type":"response.completed","n":2}\n\n'
)
_PLAYED: list[tuple[str, int, dict[str, object], dict[str, object], bytes]] = [
    (
        "json",
        200,
        {"content-type": ["application/json"], "content-length": ["999"]},
        {"json": {"id": "resp_1", "text": "caf\u00e9"}},
        '{"id":"resp_1","text":"caf\u00e9"}'.encode(),
    ),
    (
        "stream",
        200,
        {"content-type": ["text/event-stream"], "transfer-encoding": ["chunked"]},
        {
            "sse": [
                {"event": "response.created", "data": {"type": "response.created"}},
                {"event": "response.completed", "data": {"type": "response.completed", "n": 2}},
            ]
        },
        _STREAM,
    ),
    (
        "error",
        400,
        {"content-type": ["application/json"], "content-length": ["40"]},
        {"json": {"error": {"message": "bad input"}}},
        b'{"error":{"message":"bad input"}}',
    ),
    ("text", 200, {"content-type": ["text/plain"]}, {"text": "plain words"}, b"plain words"),
]


def _synthetic_cassette(path: Path) -> Path:
    interactions = [
        {
            "request": {
                "method": "POST",
                "uri": _URI,
                "headers": {"content-type": ["application/json"]},
                "body": {"json": {"input": name}},
            },
            "response": {"status_code": status, "reason": "", "headers": headers, "body": body},
        }
        for name, status, headers, body, _ in _PLAYED
    ]
    document = {
        "tooltape": {"version": "0.1.0", "source": "synthetic", "provenance": "synthetic"},
        "interactions": interactions,
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _replayer() -> Any:
    state = CassetteRun(nodeid="t.py::t", module=PurePosixPath("t"), record_mode="none")
    persister = RunPersister(state, ())
    return configure_vcr(vcr.VCR(record_mode="none"), persister=persister)


def _request_body(name: str) -> bytes:
    return json.dumps({"input": name}).encode()


def _httpx2(name: str) -> tuple[int, bytes, str | None]:
    with httpx2.Client() as client:
        reply = client.post(_URI, content=_request_body(name))
    return reply.status_code, reply.content, reply.headers.get("content-length")


def _httpx2_async(name: str) -> tuple[int, bytes, str | None]:
    async def post() -> tuple[int, bytes, str | None]:
        async with httpx2.AsyncClient() as client:
            reply = await client.post(_URI, content=_request_body(name))
        return reply.status_code, reply.content, reply.headers.get("content-length")

    return asyncio.run(post())


def _httpx(name: str) -> tuple[int, bytes, str | None]:
    with httpx.Client() as client:
        reply = client.post(_URI, content=_request_body(name))
    return reply.status_code, reply.content, reply.headers.get("content-length")


def _requests(name: str) -> tuple[int, bytes, str | None]:
    reply = requests.post(_URI, data=_request_body(name), timeout=5)
    return reply.status_code, reply.content, reply.headers.get("content-length")


def _http_client(name: str) -> tuple[int, bytes, str | None]:
    connection = http.client.HTTPSConnection("api.example.test")
    connection.request("POST", "/v1/responses", _request_body(name))
    reply = connection.getresponse()
    return reply.status, reply.read(), reply.getheader("content-length")


CLIENTS: dict[str, Callable[[str], tuple[int, bytes, str | None]]] = {
    "httpx2": _httpx2,
    "httpx2 async": _httpx2_async,
    "httpx": _httpx,
    "requests": _requests,
    "http.client": _http_client,
}


@pytest.mark.parametrize("client", CLIENTS.values(), ids=CLIENTS.keys())
def test_every_client_plays_the_recorded_bytes(
    tmp_path: Path, client: Callable[[str], tuple[int, bytes, str | None]]
) -> None:
    path = _synthetic_cassette(tmp_path / "played.json")
    with _replayer().use_cassette(str(path)) as played:
        for name, status, headers, _, body in reversed(_PLAYED):
            length = str(len(body)) if "content-length" in headers else None
            assert client(name) == (status, body, length), name
        assert played.all_played


@pytest.mark.parametrize(
    "options",
    [{}, {"decode_compressed_response": True}],
    ids=["tooltape's options", "decoding asked for too"],
)
def test_loading_writes_no_response_and_playing_writes_the_one_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]
) -> None:
    written: list[object] = []
    original = loaded._body_bytes

    def counting(body: Any) -> bytes:
        written.append(body)
        return original(body)

    monkeypatch.setattr(loaded, "_body_bytes", counting)
    path = _synthetic_cassette(tmp_path / "played.json")
    cassette = load_cassette(path)
    requests_bodies = [i.request.body for i in cassette.interactions]
    stream = cassette.interactions[1].response.body
    with _replayer().use_cassette(str(path), allow_playback_repeats=True, **options) as played:
        # vcrpy has deep-copied every response and run the recording hook on it
        assert written == requests_bodies
        assert _httpx2("stream")[1] == _STREAM
        assert written == [*requests_bodies, stream]
        assert played.play_count == 1


# Synthetic, key-shaped (not a real key).
_KEY = "sk-proj-" + "DeFeRrEd0123456789abcdefABCDEF"


def test_a_vcrpy_cassettes_response_is_still_scrubbed_as_it_loads(tmp_path: Path) -> None:
    path = tmp_path / "foreign.yaml"
    path.write_text(
        "interactions:\n- request: {method: POST, uri: '"
        + _URI
        + '\', body: \'{"input": "json"}\','
        " headers: {}}\n  response: {status: {code: 200, message: OK}, headers:"
        " {x-upstream-auth: ['" + _KEY + "']}, body: {string: '{}'}}\n",
        encoding="utf-8",
    )
    with _replayer().use_cassette(str(tmp_path / "foreign.json")), httpx2.Client() as client:
        reply = client.post(_URI, content=_request_body("json"))
    assert reply.headers["x-upstream-auth"] == "REDACTED"


def test_a_key_written_into_a_tooltape_cassette_by_hand_is_refused_when_it_is_saved(
    tmp_path: Path,
) -> None:
    path = _synthetic_cassette(tmp_path / "edited.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    document["interactions"][3]["response"]["body"] = {"text": f"the key is {_KEY}"}
    path.write_text(json.dumps(document), encoding="utf-8")
    state = CassetteRun(nodeid="t.py::t", module=PurePosixPath("t"), record_mode="new_episodes")
    recorder = configure_vcr(vcr.VCR(record_mode="new_episodes"), persister=RunPersister(state, ()))
    provider = LoopbackProvider([LoopbackReply.json({"id": "resp_new"})])
    with provider, recorder.use_cassette(str(path)), httpx2.Client() as client:
        # the edited response is never played: it is read when the cassette is saved
        assert client.post(_URI, content=_request_body("json")).content == _PLAYED[0][4]
        client.post(f"{provider.base_url}/v1/responses", content=_request_body("new"))
    assert isinstance(state.save_error, CassetteSecretError)
    assert "/interactions/3/response/body" in str(state.save_error)
    assert _KEY not in str(state.save_error)
    assert json.loads(path.read_text(encoding="utf-8")) == document  # not written


def test_a_response_that_kept_its_content_encoding_is_written_now_and_marked_scanned() -> None:
    # tooltape keeps the encoding of a body it cannot decode (synthetic: zstd, unknown here)
    headers = {"content-encoding": ("zstd",), "content-length": ("3",)}
    response = RecordedResponse(200, "OK", headers, BinaryBody(b"\x28\xb5\x2f"))
    request = RecordedRequest("POST", _URI, {}, JsonBody({}))
    cassette = Cassette(CassetteHeader("0.1.0", "synthetic"), (Interaction(request, response),))
    _, (loaded_response,) = vcr_interactions(cassette)
    assert type(loaded_response) is dict
    assert loaded_response == {
        "status": {"code": 200, "message": "OK"},
        "headers": {"content-encoding": ["zstd"], "content-length": ["3"]},
        "body": {"string": b"\x28\xb5\x2f"},
        SCANNED: True,
    }
