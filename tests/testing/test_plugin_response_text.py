"""Response text past ASCII replays, through the plugin, with httpx2.

vcrpy's httpx stub replays header values as text that httpx encodes as ASCII,
so a header such as ``content-disposition: attachment; filename="résumé.pdf"``
(UTF-8 on the wire) failed its own replay. A small project (``pytester``)
records one call against a loopback server that sends such headers, then
replays it with the server stopped and no key: the client sees the same text.

The stub encodes the reason phrase as ASCII too: a cassette whose reason is
past ASCII (another client's recording, or one edited by hand) failed replay.
The client now sees the reason httpx reads from such a status line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Hd7" * 12
DISPOSITION = 'attachment; filename="résumé.pdf"'
SERVER = "Ünïcode-Server/1.0"

TEST_MODULE = """
import json
import os
from pathlib import Path

import openai


def test_headers(openai_client):
    raw = openai_client.responses.with_raw_response.create(model="gpt-5", input="hi")
    headers = raw.http_response.headers
    seen = {
        "disposition": headers["content-disposition"],
        "server": headers["x-served-by"],
        "reason": raw.http_response.reason_phrase,
    }
    Path(os.environ["TT_OUT"]).write_text(json.dumps(seen), encoding="utf-8")
    assert raw.parse().id == "resp_header_text"
"""


def _wire(text: str) -> str:
    # http.server writes header values as Latin-1: this sends the text's UTF-8 bytes.
    return text.encode("utf-8").decode("latin-1")


def _record(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, out: Path, headers: dict[str, str]
) -> None:
    """Record the project's one call against a loopback server answering with ``headers``,
    then leave no key set (the test writes what the client saw to ``out``)."""
    pytester.makepyfile(test_headers=TEST_MODULE)
    # Header values outside the safe set are redacted as they are recorded: these two are kept.
    pytester.makepyprojecttoml(
        "[tool.pytest.ini_options]\n"
        "[tool.tooltape.scrub]\n"
        'safe_headers = ["content-disposition", "x-served-by"]\n'
    )
    body = {"id": "resp_header_text", "object": "response", "status": "completed", "output": []}
    monkeypatch.setenv("TT_OUT", str(out))
    with LoopbackProvider([LoopbackReply.json(body, headers=headers)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        pytester.runpytest_subprocess("--record-mode=once", timeout=60).assert_outcomes(passed=1)
    monkeypatch.delenv("OPENAI_API_KEY")


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_a_header_past_ascii_replays_as_it_was_recorded(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, encoding: str
) -> None:
    sent = {
        "content-disposition": _wire(DISPOSITION) if encoding == "utf-8" else DISPOSITION,
        "x-served-by": _wire(SERVER) if encoding == "utf-8" else SERVER,
    }
    out = tmp_path / "seen.json"
    _record(pytester, monkeypatch, out, sent)
    at_recording = json.loads(out.read_text(encoding="utf-8"))
    if encoding == "utf-8":  # httpx decodes UTF-8 bytes as UTF-8
        assert at_recording == {"disposition": DISPOSITION, "server": SERVER, "reason": "OK"}
    out.unlink()

    replayed = pytester.runpytest_subprocess("--record-mode=none", "--block-network", timeout=60)
    output = replayed.stdout.str()
    replayed.assert_outcomes(passed=1)
    assert "UnicodeEncodeError" not in output
    assert json.loads(out.read_text(encoding="utf-8")) == at_recording


def test_a_reason_past_ascii_replays_as_httpx_reads_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "seen.json"
    _record(pytester, monkeypatch, out, {"content-disposition": DISPOSITION, "x-served-by": "a"})
    (cassette,) = (pytester.path / "cassettes").rglob("*.json")
    document = json.loads(cassette.read_text(encoding="utf-8"))
    document["interactions"][0]["response"]["reason"] = "Très bien"
    cassette.write_text(json.dumps(document), encoding="utf-8")

    replayed = pytester.runpytest_subprocess("--record-mode=none", "--block-network", timeout=60)
    assert "UnicodeEncodeError" not in replayed.stdout.str()
    replayed.assert_outcomes(passed=1)
    # httpx drops what is past ASCII from a status line's reason; so does its replay.
    assert json.loads(out.read_text(encoding="utf-8"))["reason"] == "Trs bien"
