"""``configure_vcr``: plain vcrpy, outside pytest-recording, records and replays the tooltape way.

The provider is a real HTTP server on loopback; its replies are synthetic.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
import vcr
from vcr.errors import CannotOverwriteExistingCassetteException

from tooltape.testing.cassette import JsonBody, load_cassette
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.settings import ScrubSettings
from tooltape.testing.vcr import TooltapeSerializer, record_hooks
from tooltape.testing.vcr.options import VcrOptionError
from tooltape.testing.vcr.recorder import configure_vcr

# Synthetic, key-shaped (not a real key).
FAKE_KEY = "sk-proj-" + "synthetic0123456789abcdefABCDEF"
REPLY = {"id": "resp_synthetic", "object": "response", "status": "completed", "output": []}


def _post(base_url: str, body: dict[str, object]) -> httpx2.Response:
    with httpx2.Client(base_url=base_url) as client:
        return client.post("/responses", json=body, headers={"authorization": f"Bearer {FAKE_KEY}"})


def _record(path: Path, body: dict[str, object]) -> str:
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as provider:
        recorder = configure_vcr(
            vcr.VCR(record_mode="once"),
            serializer=TooltapeSerializer("loopback", "synthetic: test_recorder"),
        )
        with recorder.use_cassette(str(path)):
            assert _post(provider.base_url, body).json() == REPLY
        return provider.base_url


def test_records_scrubbed_tooltape_json(tmp_path: Path) -> None:
    path = tmp_path / "exchange.json"
    _record(path, {"model": "gpt-5", "input": "hi"})

    text = path.read_text(encoding="utf-8")
    assert FAKE_KEY not in text
    cassette = load_cassette(path)
    assert cassette.header.source == "loopback"
    assert cassette.header.provenance == "synthetic: test_recorder"
    (interaction,) = cassette.interactions
    assert interaction.request.body == JsonBody({"model": "gpt-5", "input": "hi"})
    assert interaction.response.body == JsonBody(REPLY)
    assert interaction.request.headers["authorization"] == ("REDACTED",)


def test_replay_ignores_volatile_fields_and_refuses_a_changed_body(tmp_path: Path) -> None:
    path = tmp_path / "exchange.json"
    base_url = _record(path, {"model": "gpt-5", "input": "hi", "metadata": {"run_id": "1"}})
    # The server is stopped: only the cassette can answer from here on.

    lenient = configure_vcr(vcr.VCR(record_mode="none"), volatile=["metadata.run_id"])
    with lenient.use_cassette(str(path)) as played:
        changed_run = {"model": "gpt-5", "input": "hi", "metadata": {"run_id": "2"}}
        assert _post(base_url, changed_run).json() == REPLY
        assert played.all_played

    strict = configure_vcr(vcr.VCR(record_mode="none"))
    with (
        strict.use_cassette(str(path)),
        pytest.raises(CannotOverwriteExistingCassetteException) as refused,
    ):
        _post(base_url, {"model": "gpt-5-mini", "input": "hi", "metadata": {"run_id": "1"}})
    assert '~ model: "gpt-5" -> "gpt-5-mini"' in str(refused.value)


def test_the_projects_scrub_settings_are_applied(tmp_path: Path) -> None:
    path = tmp_path / "exchange.json"
    settings = ScrubSettings(safe_headers=("x-trace-id",), secret_body_fields=("pin",))
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as provider:
        recorder = configure_vcr(vcr.VCR(record_mode="once"), scrub=settings)
        with recorder.use_cassette(str(path)), httpx2.Client(base_url=provider.base_url) as client:
            client.post(
                "/responses",
                json={"input": "hi", "pin": "4321"},
                headers={"x-trace-id": "trace-9", "x-tenant": "acme"},
            )
    (interaction,) = load_cassette(path).interactions
    assert interaction.request.headers["x-trace-id"] == ("trace-9",)
    assert interaction.request.headers["x-tenant"] == ("REDACTED",)
    assert interaction.request.body == JsonBody({"input": "hi", "pin": "REDACTED"})


def test_a_projects_own_hooks_run_first_and_what_they_return_is_scrubbed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "exchange.json"
    sent: list[str] = []
    received: list[object] = []

    def mark_request(request: Any) -> Any:
        sent.append(request.headers["authorization"])
        request.headers["x-trace-id"] = "set-by-hook"
        return request

    def mark_response(response: Any) -> Any:
        received.append(json.loads(response["body"]["string"])["note"])
        response["headers"]["x-reviewed"] = ["yes"]
        return response

    settings = ScrubSettings(safe_headers=("x-trace-id", "x-reviewed"))
    reply = {**REPLY, "note": "revoked " + FAKE_KEY}
    with LoopbackProvider([LoopbackReply.json(reply)]) as provider:
        # on the recorder and on the cassette; configured twice, the hooks do not stack
        recorder = vcr.VCR(record_mode="once", before_record_request=mark_request)
        recorder = configure_vcr(configure_vcr(recorder), scrub=settings)
        with recorder.use_cassette(str(path), before_record_response=mark_response):
            _post(provider.base_url, {"model": "gpt-5", "input": "hi"})

    # The project's hook sees what was sent (vcrpy also runs the hooks again on their output).
    assert sent[0] == f"Bearer {FAKE_KEY}"
    assert received == ["revoked " + FAKE_KEY]
    (interaction,) = load_cassette(path).interactions
    assert interaction.request.headers["x-trace-id"] == ("set-by-hook",)
    assert interaction.request.headers["authorization"] == ("REDACTED",)
    assert interaction.response.headers["x-reviewed"] == ("yes",)
    assert interaction.response.body == JsonBody({**REPLY, "note": "revoked sk-REDACTED"})
    assert FAKE_KEY not in path.read_text(encoding="utf-8")


def test_responses_read_from_a_tooltape_cassette_are_not_scrubbed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "exchange.json"
    reply = {**REPLY, "note": "your key sk-REDACTED was revoked"}  # "sk-": a literal hit
    with LoopbackProvider([LoopbackReply.json(reply)]) as provider:
        with configure_vcr(vcr.VCR(record_mode="once")).use_cassette(str(path)):
            _post(provider.base_url, {"model": "gpt-5", "input": "hi"})
        base_url = provider.base_url
    scrubbed: list[object] = []
    original = record_hooks.scrub_response

    def counting(response: Any, policy: Any) -> Any:
        scrubbed.append(response)
        return original(response, policy)

    monkeypatch.setattr(record_hooks, "scrub_response", counting)
    with configure_vcr(vcr.VCR(record_mode="none")).use_cassette(str(path)) as played:
        assert _post(base_url, {"model": "gpt-5", "input": "hi"}).json() == reply
        assert played.all_played
    assert scrubbed == []  # scanned when it was written, never again on replay

    foreign = tmp_path / "exchange.yaml"
    foreign.write_text(
        "interactions:\n- request: {method: POST, uri: 'http://x.test/v1/responses', body: null,"
        " headers: {}}\n  response: {status: {code: 200, message: OK}, headers:"
        " {x-tenant: [acme]}, body: {string: '{}'}}\n"
    )
    with configure_vcr(vcr.VCR(record_mode="none")).use_cassette(str(foreign)):
        pass
    assert len(scrubbed) == 1  # a vcrpy cassette was never scanned: it is, as it loads


def test_a_replayed_body_is_scanned_once_though_vcrpy_asks_three_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "exchange.json"
    base_url = _record(path, {"model": "gpt-5", "input": "hi"})
    checked: list[bytes] = []
    original = record_hooks.might_need_scrubbing

    def counting(raw: bytes, policy: Any) -> bool:
        checked.append(raw)
        return original(raw, policy)

    monkeypatch.setattr(record_hooks, "might_need_scrubbing", counting)
    with configure_vcr(vcr.VCR(record_mode="none")).use_cassette(str(path)):
        assert _post(base_url, {"model": "gpt-5", "input": "hi"}).json() == REPLY
    # once, for the recorded request as it loads: the one this test sent has its body
    assert len(checked) == 1


def test_the_default_serializer_tells_a_loopback_recording_from_a_live_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "default.json"
    with LoopbackProvider([LoopbackReply.json(REPLY)]) as provider:
        recorder = configure_vcr(vcr.VCR(record_mode="once"))
        with recorder.use_cassette(str(path)):
            _post(provider.base_url, {"model": "gpt-5", "input": "hi"})
    assert load_cassette(path).header.source == "loopback"
    live = TooltapeSerializer().to_cassette(
        {
            "interactions": [
                {
                    "request": {
                        "uri": "https://api.openai.com/v1/responses",
                        "method": "POST",
                        "body": b"",
                        "headers": {},
                    },
                    "response": {
                        "status": {"code": 200, "message": "OK"},
                        "headers": {},
                        "body": {"string": b""},
                    },
                }
            ]
        }
    )
    assert live.header.source == "live"


@pytest.mark.parametrize(
    "sent",
    [gzip.compress(json.dumps(REPLY).encode()), json.dumps(REPLY).encode()],
    ids=["gzip", "labelled gzip, sent plain"],
)
def test_a_compressed_reply_is_recorded_decoded_as_vcrpy_decodes_it(
    tmp_path: Path, sent: bytes
) -> None:
    path = tmp_path / "compressed.json"
    reply = LoopbackReply(200, sent, "application/json", {"content-encoding": "gzip"})
    with LoopbackProvider([reply]) as provider:
        recorder = configure_vcr(vcr.VCR(record_mode="once"))
        with recorder.use_cassette(str(path)), httpx2.Client() as client:
            try:
                response = client.post(f"{provider.base_url}/responses", json={"input": "hi"})
            except httpx2.DecodingError:
                assert sent[:1] == b"{"  # the client refuses it; vcrpy records it all the same
            else:
                assert response.json() == REPLY
        base_url = provider.base_url
    (interaction,) = load_cassette(path).interactions
    assert "content-encoding" not in interaction.response.headers
    assert interaction.response.body == JsonBody(REPLY)
    with configure_vcr(vcr.VCR(record_mode="none")).use_cassette(str(path)):
        replayed = _post(base_url, {"input": "hi"})
    assert replayed.json() == REPLY
    assert replayed.headers["content-length"] == str(len(replayed.content))


def test_decode_compressed_response_turned_off_is_refused_by_name(tmp_path: Path) -> None:
    recorder = configure_vcr(vcr.VCR(record_mode="once"))
    with (
        pytest.raises(VcrOptionError, match=r"decode_compressed_response=False.*remove"),
        recorder.use_cassette(str(tmp_path / "exchange.json"), decode_compressed_response=False),
    ):
        pass
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "match_on",
    [("method", "path", "body"), ("method", "uri", "raw_body")],
    ids=["body", "raw_body"],
)
def test_a_projects_body_matcher_is_tooltapes_field_diff(
    tmp_path: Path, match_on: tuple[str, ...]
) -> None:
    path = tmp_path / "exchange.json"
    base_url = _record(path, {"model": "gpt-5", "input": "hi", "metadata": {"run_id": "r1"}})
    recorder = configure_vcr(vcr.VCR(record_mode="none", match_on=match_on))
    # run_id is volatile for tooltape's body comparison, on the recorder and on a cassette
    with recorder.use_cassette(str(path)):
        _post(base_url, {"model": "gpt-5", "input": "hi", "metadata": {"run_id": "r2"}})
    with (
        recorder.use_cassette(str(path), match_on=match_on),
        pytest.raises(CannotOverwriteExistingCassetteException) as refused,
    ):
        _post(base_url, {"model": "gpt-5-mini", "input": "hi"})
    assert '~ model: "gpt-5" -> "gpt-5-mini"' in str(refused.value)
