"""``configure_vcr``: plain vcrpy, outside pytest-recording, records and replays the tooltape way.

The provider is a real HTTP server on loopback; its replies are synthetic.
"""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
import vcr
from vcr.errors import CannotOverwriteExistingCassetteException

from tooltape.testing.cassette import JsonBody, load_cassette
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.vcr import TooltapeSerializer
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
