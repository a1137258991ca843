"""Numbers JSON has no word for (NaN, Infinity, past a double) never enter or leave a cassette.

Every payload here is synthetic: a small Responses-shaped body edited the way
a hand-edit (or a non-conforming server) would, with one such number in it.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import httpx2
import pytest
import vcr
from vcr.request import Request
from vcr.serialize import serialize as vcr_serialize
from vcr.serializers import jsonserializer, yamlserializer

from tooltape.testing.cassette import (
    Cassette,
    CassetteError,
    CassetteHeader,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    dump_cassette,
    load_cassette,
    parse_cassette,
    save_cassette,
)
from tooltape.testing.cassette._limits import NonFiniteNumberError
from tooltape.testing.cassette_run import CassetteRun
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.run_persister import RunPersister
from tooltape.testing.vcr import configure_vcr
from tooltape.testing.vcr.loaded import vcr_interactions

_URI = "http://127.0.0.1:9/v1/responses"

# Each spelling, as it sits in the file, and the word a message names it by.
_SPELLINGS = [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"), ("1e400", "")]
_IDS = ["NaN", "Infinity", "-Infinity", "past a double"]


def _document_text(number: str) -> str:
    """A synthetic tooltape cassette whose response says ``usage.input_tokens`` is ``number``."""
    document = {
        "tooltape": {"version": "0.1.0", "source": "synthetic", "provenance": "synthetic"},
        "interactions": [
            {
                "request": {"method": "POST", "uri": _URI, "headers": {}, "body": {"json": {}}},
                "response": {
                    "status_code": 200,
                    "reason": "OK",
                    "headers": {"content-type": ["application/json"]},
                    "body": {"json": {"id": "resp_1", "usage": {"input_tokens": 7}}},
                },
            }
        ],
    }
    return json.dumps(document, indent=2).replace('"input_tokens": 7', f'"input_tokens": {number}')


_POINTER = "/interactions/0/response/body/json/usage/input_tokens"


@pytest.mark.parametrize(("number", "word"), _SPELLINGS, ids=_IDS)
def test_a_tooltape_cassette_holding_a_number_json_has_not_is_refused_naming_where(
    tmp_path: Path, number: str, word: str
) -> None:
    path = tmp_path / "edited.json"
    path.write_text(_document_text(number), encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    message = str(caught.value)
    assert str(path) in message
    assert _POINTER in message
    assert word in message
    assert "write null, a finite number" in message  # what to write instead


def _vcrpy_text(body: bytes, content_type: str, serializer: object = yamlserializer) -> str:
    request = Request("POST", _URI, b"{}", {"content-type": "application/json"})
    response = {
        "status": {"code": 200, "message": "OK"},
        "headers": {"Content-Type": [content_type]},
        "body": {"string": body},
    }
    return vcr_serialize({"requests": [request], "responses": [response]}, serializer)


@pytest.mark.parametrize("serializer", [yamlserializer, jsonserializer], ids=["yaml", "json"])
@pytest.mark.parametrize(
    "body", [b'{"usage": {"input_tokens": NaN}}', b'{"usage": {"input_tokens": 1e400}}']
)
def test_a_vcrpy_cassette_body_holding_one_is_refused_naming_where(
    body: bytes, serializer: object
) -> None:
    text = _vcrpy_text(body, "application/json", serializer)
    with pytest.raises(CassetteError) as caught:
        parse_cassette(text, path="cassettes/old.yaml")
    message = str(caught.value)
    assert "cassettes/old.yaml" in message
    assert "/interactions/0/response/body" in message
    assert "/usage/input_tokens" in message
    assert "write null" in message


def test_a_stream_event_holding_one_is_refused() -> None:
    stream = b'data: {"delta":NaN}\n\ndata: {"delta":1}\n\n'
    with pytest.raises(CassetteError) as caught:
        parse_cassette(_vcrpy_text(stream, "text/event-stream"), path="s.yaml")
    assert "/interactions/0/response/body" in str(caught.value)
    assert "/delta" in str(caught.value)


def test_a_yaml_parsed_body_holding_nan_is_refused() -> None:
    text = """\
interactions:
- request: {method: POST, uri: 'http://127.0.0.1:9/v1/responses', body: null, headers: {}}
  response:
    status: {code: 200, message: OK}
    headers: {}
    parsed_body: {usage: {input_tokens: .nan}}
version: 1
"""
    with pytest.raises(CassetteError) as caught:
        parse_cassette(text, path="p.yaml")
    assert "/interactions/0/response/parsed_body/usage/input_tokens" in str(caught.value)


def _cassette_with(value: float) -> Cassette:
    request = RecordedRequest("POST", _URI, {}, JsonBody({}))
    response = RecordedResponse(200, "OK", {}, JsonBody({"usage": {"input_tokens": value}}))
    return Cassette(CassetteHeader("0.1.0", "synthetic"), (Interaction(request, response),))


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_tooltape_never_writes_one(tmp_path: Path, value: float) -> None:
    with pytest.raises(NonFiniteNumberError) as caught:
        dump_cassette(_cassette_with(value))
    assert caught.value.where == _POINTER
    path = tmp_path / "out.json"
    with pytest.raises(CassetteError, match="input_tokens"):
        save_cassette(path, _cassette_with(value))
    assert not path.exists()
    with pytest.raises(ValueError):  # nor the bytes a replay would send
        _cassette_with(value).interactions[0].response.body.to_bytes()


def test_replay_refuses_a_number_past_a_double_when_the_response_is_played(
    tmp_path: Path,
) -> None:
    path = tmp_path / "edited.json"
    path.write_text(_document_text("1e400"), encoding="utf-8")
    # Replay loads without walking every value; the played body is where it is found.
    _, (response,) = vcr_interactions(load_cassette(path, check_numbers=False), str(path))
    with pytest.raises(CassetteError) as caught:
        response["body"]
    assert str(path) in str(caught.value)
    assert _POINTER in str(caught.value)


def test_a_test_replaying_such_a_cassette_fails_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "edited.json"
    path.write_text(_document_text("1e400"), encoding="utf-8")
    state = CassetteRun(nodeid="t.py::t", module=PurePosixPath("t"), record_mode="none")
    recorder = configure_vcr(vcr.VCR(record_mode="none"), persister=RunPersister(state, ()))
    with (
        recorder.use_cassette(str(path)),
        httpx2.Client() as client,
        pytest.raises(CassetteError, match="input_tokens"),
    ):
        client.post(_URI, content=b"{}")


def test_recording_a_provider_body_holding_nan_is_refused_not_changed(tmp_path: Path) -> None:
    path = tmp_path / "recorded.json"
    state = CassetteRun(nodeid="t.py::t", module=PurePosixPath("t"), record_mode="once")
    recorder = configure_vcr(vcr.VCR(record_mode="once"), persister=RunPersister(state, ()))
    # synthetic: a server that writes Python's json.dumps default (NaN) into its answer
    reply = LoopbackReply(200, b'{"id":"resp_1","usage":{"input_tokens":NaN}}')
    with (
        LoopbackProvider([reply]) as provider,
        recorder.use_cassette(str(path)),
        httpx2.Client() as client,
    ):
        client.post(f"{provider.base_url}/v1/responses", content=b"{}")
    assert isinstance(state.save_error, CassetteError)
    message = str(state.save_error)
    assert "/interactions/0/response/body" in message and "/usage/input_tokens" in message
    assert "write null" in message
    assert not path.exists()
