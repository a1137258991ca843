"""The reason phrase a client saw while recording is the one it sees on replay.

A server may send a status line with an empty reason (``HTTP/1.1 200 ``, which
HTTP/1.1 allows). httpx shows it as ``response.reason_phrase == ""`` and
requests as ``response.reason == ""``; vcrpy's httpx stub replayed such a
recording as ``"OK"`` (it takes an empty phrase for "none recorded"). A small
project (``pytester``) records through httpx, the OpenAI SDK (httpx2) and
requests against a loopback server sending such status lines (synthetic
bodies), writes what each client saw, then replays with the server stopped,
no key and ``--block-network``: each client sees what it saw live.

A cassette holding no reason at all (one written by hand, or vcrpy's from an
HTTP/2 response, which has none) reads as the status code's own phrase, which
httpx showed for it before, and now requests does too.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from tooltape.testing.cassette import parse_cassette

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Rz4" * 12
BODY = json.dumps(
    {"id": "resp_reason", "object": "response", "status": "completed", "output": []}
).encode()

TESTS = """
import json
import os
from pathlib import Path

import httpx
import openai
import pytest
import requests

URL = os.environ["OPENAI_BASE_URL"] + "/responses"
OUT = Path(os.environ["TT_OUT"])


def _saw(name, reason):
    seen = json.loads(OUT.read_text()) if OUT.exists() else {}
    seen[name] = reason
    OUT.write_text(json.dumps(seen))


@pytest.mark.vcr
@pytest.mark.parametrize("status", [200, 404])
def test_httpx(status):
    answer = httpx.post(URL, json={"model": "gpt-5", "input": str(status)})
    assert answer.status_code == status
    _saw(f"httpx {status}", answer.reason_phrase)


@pytest.mark.vcr
def test_sdk():
    raw = openai.OpenAI(max_retries=0).responses.with_raw_response.create(
        model="gpt-5", input="200"
    )
    assert raw.parse().id == "resp_reason"
    _saw("sdk", raw.http_response.reason_phrase)


@pytest.mark.vcr
@pytest.mark.parametrize("status", [200, 404])
def test_requests(status):
    answer = requests.post(URL, json={"model": "gpt-5", "input": str(status)})
    assert answer.status_code == status
    _saw(f"requests {status}", answer.reason)
"""


class _EmptyReason(BaseHTTPRequestHandler):
    """Answers every POST with the status its JSON ``input`` names and an empty reason."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        status = int(json.loads(self.rfile.read(length))["input"])
        head = (
            f"HTTP/1.1 {status} \r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(BODY)}\r\n\r\n"
        )
        self.wfile.write(head.encode("ascii") + BODY)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def empty_reason_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmptyReason)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_an_empty_reason_phrase_replays_empty(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    empty_reason_server: str,
) -> None:
    pytester.makepyfile(test_reasons=TESTS)
    pytester.makeini("[pytest]\n")
    out = tmp_path / "seen.json"
    monkeypatch.setenv("TT_OUT", str(out))
    monkeypatch.setenv("OPENAI_BASE_URL", empty_reason_server)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=5)
    live = json.loads(out.read_text())
    assert live == {name: "" for name in live} and len(live) == 5
    out.unlink()

    monkeypatch.delenv("OPENAI_API_KEY")
    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    replay.assert_outcomes(passed=5)
    assert json.loads(out.read_text()) == live


def _tooltape_document(response: dict[str, object]) -> str:
    request = {"method": "GET", "uri": "http://127.0.0.1:9/v1/models", "headers": {}}
    return json.dumps(
        {
            "tooltape": {"version": "0.1.0", "source": "synthetic", "provenance": "synthetic"},
            "interactions": [{"request": request, "response": response}],
        }
    )


def _vcrpy_document(status: dict[str, object]) -> str:
    request = {"method": "GET", "uri": "http://127.0.0.1:9/v1/models", "headers": {}, "body": None}
    response = {"status": status, "headers": {}, "body": {"string": ""}}
    return yaml.safe_dump(
        {"version": 1, "interactions": [{"request": request, "response": response}]}
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (_tooltape_document({"status_code": 404}), "Not Found"),
        (_tooltape_document({"status_code": 404, "reason": ""}), ""),
        (_tooltape_document({"status_code": 599}), ""),
        (_vcrpy_document({"code": 404, "message": None}), "Not Found"),
        (_vcrpy_document({"code": 404, "message": ""}), ""),
        (_vcrpy_document({"code": 404}), "Not Found"),
    ],
    ids=[
        "tooltape-none",
        "tooltape-empty",
        "tooltape-unnamed",
        "vcrpy-null",
        "vcrpy-empty",
        "vcrpy-none",
    ],
)
def test_a_cassette_without_a_reason_reads_the_status_codes_own(text: str, reason: str) -> None:
    (interaction,) = parse_cassette(text).interactions
    assert interaction.response.reason == reason
