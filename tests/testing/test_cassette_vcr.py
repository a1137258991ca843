"""vcrpy bridge: record through httpx2 against a loopback server, replay with it stopped."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sys
import threading
import traceback
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx2
import pytest
import vcr
from vcr.errors import CannotOverwriteExistingCassetteException
from vcr.persisters.filesystem import CassetteNotFoundError
from vcr.serialize import deserialize as vcr_deserialize

from tooltape.testing.cassette import (
    BinaryBody,
    CassetteEncodedError,
    CassetteError,
    CassetteSecretError,
    CassetteWriteError,
    JsonBody,
    SseBody,
    TextBody,
    load_cassette,
)
from tooltape.testing.vcr import (
    CombinedTooltapePersister,
    TooltapePersister,
    TooltapeSerializer,
    before_record_request,
    before_record_response,
    use_cassette_safely,
)

# Real recordings of the live API from a public project, header secrets redacted (PROVENANCE.md).
REAL = Path(__file__).resolve().parents[1] / "data" / "real-cassettes" / "openai-responses"

API_KEY = "sk-proj-" + "q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6" * 2
STREAM = (
    ": stream opened\n"
    "retry: 1500\n\n"
    "id: 1\n"
    "event: response.created\n"
    'data: {"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}\n\n'
    "event: response.output_text.delta\n"
    'data: {"type":"response.output_text.delta","delta":"Héllo"}\n\n'
    "event: odd\n"
    'data: {"spaced": true}\n\n'
    "data: first line\n"
    "data: second line\n\n"
    "event: response.completed\n"
    'data: {"type":"response.completed","response":{"id":"resp_1","status":"completed"}}\n\n'
    "data: [DONE]\n\n"
)
COMPACT = '{"id":"resp_1","output":[{"type":"message","text":"héllo"}]}'.encode()
PRETTY = json.dumps({"id": "resp_2", "output": [], "nested": {"b": 1, "a": 2}}, indent=2).encode()
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"
GZIPPED = gzip.compress(b'{"id":"resp_3","zipped":true}')
LEAKY = json.dumps({"id": "resp_4", "echo": f"your key is {API_KEY}"}).encode()

ROUTES: dict[str, tuple[str, bytes, dict[str, str]]] = {
    "/v1/compact": ("application/json", COMPACT, {}),
    "/v1/pretty": ("application/json", PRETTY, {}),
    "/v1/stream": ("text/event-stream; charset=utf-8", STREAM.encode(), {}),
    "/v1/image": ("image/png", PNG, {}),
    "/v1/gzip": ("application/json", GZIPPED, {"Content-Encoding": "gzip"}),
    "/v1/leaky": ("application/json", LEAKY, {}),
    # zlib data sent as br (the test hides any brotli module: nothing reads it)
    "/v1/brotli": ("application/json", zlib.compress(LEAKY), {"Content-Encoding": "br"}),
}


class _Handler(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        content_type, body, extra = ROUTES[self.path.split("?", 1)[0]]
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Set-Cookie", "__cf_bm=abcdefghijklmnop; path=/; HttpOnly")
        self.send_header("OpenAI-Organization", "acme-org-1234")
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@dataclass
class Server:
    url: str
    httpd: ThreadingHTTPServer
    thread: threading.Thread

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.thread.join()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    running = Server(f"http://127.0.0.1:{httpd.server_address[1]}", httpd, thread)
    yield running
    running.stop()


def _vcr(*, record_mode: str, scrub: bool = True) -> vcr.VCR:
    hooks = (
        {
            "before_record_request": before_record_request,
            "before_record_response": before_record_response,
        }
        if scrub
        else {}
    )
    recorder = vcr.VCR(record_mode=record_mode, **hooks)
    recorder.register_serializer(
        "tooltape", TooltapeSerializer(source="loopback", provenance="synthetic loopback server")
    )
    recorder.register_persister(TooltapePersister)
    return recorder


def _exchange(base: str) -> dict[str, httpx2.Response]:
    headers = {"Authorization": f"Bearer {API_KEY}", "OpenAI-Project": "proj_123"}
    responses: dict[str, httpx2.Response] = {}
    with httpx2.Client(trust_env=False, headers=headers) as client:
        responses["compact"] = client.get(f"{base}/v1/compact")
        responses["pretty"] = client.get(f"{base}/v1/pretty")
        responses["stream"] = client.post(
            f"{base}/v1/stream", json={"model": "gpt-5", "stream": True, "input": "hi"}
        )
        responses["image"] = client.get(f"{base}/v1/image")
        responses["gzip"] = client.get(f"{base}/v1/gzip")
        with client.stream("POST", f"{base}/v1/stream", json={"again": True}) as streamed:
            streamed.read()
            responses["streamed"] = streamed
    return responses


def test_record_then_replay_offline(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "cassettes" / "test_roundtrip.json"
    with _vcr(record_mode="once").use_cassette(str(path), serializer="tooltape"):
        live = _exchange(server.url)
    server.stop()

    assert live["stream"].content == STREAM.encode()
    assert live["gzip"].json() == {"id": "resp_3", "zipped": True}

    # what reached the disk
    text = path.read_text(encoding="utf-8")
    assert API_KEY not in text and "acme-org-1234" not in text and "abcdefghijklmnop" not in text
    cassette = load_cassette(path)
    assert cassette.format == "tooltape"
    assert cassette.header.source == "loopback"
    assert len(cassette.interactions) == 6
    compact, pretty, stream, image, zipped, _ = cassette.interactions
    assert compact.request.headers["authorization"] == ("REDACTED",)
    assert compact.request.headers["openai-project"] == ("REDACTED",)
    assert compact.response.headers["set-cookie"] == ("REDACTED",)
    assert compact.response.headers["openai-organization"] == ("REDACTED",)
    assert stream.request.body == JsonBody({"model": "gpt-5", "stream": True, "input": "hi"})
    assert isinstance(stream.response.body, SseBody)
    assert [event.event for event in stream.response.body.events] == [
        None,
        "response.created",
        "response.output_text.delta",
        "odd",
        None,
        "response.completed",
        None,
    ]
    assert isinstance(pretty.response.body, JsonBody)
    assert image.response.body == BinaryBody(PNG)
    assert zipped.response.body == JsonBody({"id": "resp_3", "zipped": True})
    assert "content-encoding" not in zipped.response.headers

    # replay: the server is gone, so any network access would fail
    with _vcr(record_mode="none").use_cassette(str(path), serializer="tooltape") as played:
        replayed = _exchange(server.url)
        assert played.all_played
    for name in ("compact", "stream", "image", "gzip", "streamed"):
        assert replayed[name].content == live[name].content, name
        assert replayed[name].status_code == live[name].status_code
        assert replayed[name].headers["content-type"] == live[name].headers["content-type"]
    # re-serialised JSON: same document, and a content-length that tells the truth
    assert replayed["pretty"].json() == live["pretty"].json()
    assert replayed["pretty"].headers["content-length"] == str(len(replayed["pretty"].content))
    assert path.read_text(encoding="utf-8") == text  # replay never rewrites the file


def test_a_cassette_holding_a_key_is_refused(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "test_leaky.json"
    original_transport = httpx2.HTTPTransport.handle_request
    recorder = _vcr(record_mode="once", scrub=False)
    with (
        pytest.raises(CassetteSecretError) as caught,
        use_cassette_safely(recorder, path, serializer="tooltape"),
        httpx2.Client(trust_env=False) as client,
    ):
        assert httpx2.HTTPTransport.handle_request is not original_transport  # recording
        assert client.get(f"{server.url}/v1/leaky").json()["echo"].endswith(API_KEY)
    # vcrpy's patches are gone although saving failed
    assert httpx2.HTTPTransport.handle_request is original_transport
    message = str(caught.value)
    assert str(path) in message
    assert "/interactions/0/response/body/json/echo" in message
    assert "/interactions/0/response/headers/set-cookie/0" in message
    assert API_KEY not in message
    assert f"… ({len(API_KEY)} chars)" in message  # its length, never a character of it
    # vcrpy's frames (their locals hold the refused interactions) are not in its traceback
    vcrpy = os.path.dirname(vcr.__file__)
    frames = traceback.extract_tb(caught.value.__traceback__)
    assert not any(frame.filename.startswith(vcrpy) for frame in frames)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []  # no temp file either


def test_a_body_tooltape_cannot_decode_is_refused(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in ("brotli", "brotlicffi"):
        monkeypatch.setitem(sys.modules, module, None)  # imports of it fail
    path = tmp_path / "test_brotli.json"
    with (
        pytest.raises(CassetteEncodedError) as caught,
        use_cassette_safely(_vcr(record_mode="once"), path, serializer="tooltape"),
        httpx2.Client(trust_env=False) as client,
    ):
        client.get(f"{server.url}/v1/brotli")
    assert str(caught.value) == (
        f"cassette {path}: not written, 1 body still encoded, never scanned for secrets:\n"
        f"  /interactions/0/response: GET {server.url}/v1/brotli, content-encoding br: "
        "no decoder for 'br' is installed (brotli or brotlicffi)\n"
        "; tooltape writes only bodies it has read for secrets: install the decoder named, have "
        "the client ask for a coding tooltape reads (`Accept-Encoding: gzip`) or have the server "
        "encode the body as it says, then record again"
    )
    assert not path.exists()


def test_with_hooks_the_same_response_is_recorded_scrubbed(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "test_leaky.json"
    with (
        _vcr(record_mode="once").use_cassette(str(path), serializer="tooltape"),
        httpx2.Client(trust_env=False) as client,
    ):
        client.get(f"{server.url}/v1/leaky")
    body = load_cassette(path).interactions[0].response.body
    assert body == JsonBody({"id": "resp_4", "echo": "your key is sk-REDACTED"})


def test_a_cassette_that_cannot_be_written_names_the_file(server: Server, tmp_path: Path) -> None:
    (tmp_path / "cassettes").write_text("a file where the folder should be")
    path = tmp_path / "cassettes" / "test_x.json"
    with (
        pytest.raises(CassetteWriteError) as caught,
        use_cassette_safely(_vcr(record_mode="once"), path, serializer="tooltape"),
        httpx2.Client(trust_env=False) as client,
    ):
        client.get(f"{server.url}/v1/leaky")
    assert f"could not write {path}" in str(caught.value)
    vcrpy = os.path.dirname(vcr.__file__)
    frames = traceback.extract_tb(caught.value.__traceback__)
    assert not any(frame.filename.startswith(vcrpy) for frame in frames)


def test_plain_vcrpy_yaml_cassettes_replay_through_the_persister(tmp_path: Path) -> None:
    path = tmp_path / "test_http_error.yaml"
    shutil.copy(REAL / "model_http_error.yaml", path)
    with (
        _vcr(record_mode="none").use_cassette(str(path)) as played,
        httpx2.Client(trust_env=False) as client,
    ):
        response = client.post(
            "https://api.openai.com/v1/responses",
            json={"model": "gpt-4o", "input": "What is the capital of France?"},
        )
        assert played.all_played
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "decimal_below_min_value"
    assert response.headers["content-length"] == str(len(response.content))


def test_missing_and_empty_cassettes_are_not_found(tmp_path: Path) -> None:
    with pytest.raises(CassetteNotFoundError):
        TooltapePersister.load_cassette(tmp_path / "missing.json", serializer=None)
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    with pytest.raises(CassetteNotFoundError):
        TooltapePersister.load_cassette(empty, serializer=None)
    with (
        _vcr(record_mode="none").use_cassette(str(tmp_path / "missing.json")),
        httpx2.Client(trust_env=False) as client,
        pytest.raises(CannotOverwriteExistingCassetteException),
    ):
        client.get("http://127.0.0.1:9/never")


def test_a_corrupt_cassette_is_an_error_not_a_rerecording(tmp_path: Path) -> None:
    path = tmp_path / "test_corrupt.json"
    path.write_text('{"tooltape": {"version": "1", "source": "live"}, "interactions": [', "utf-8")
    with (
        pytest.raises(CassetteError, match=r"test_corrupt.json: invalid JSON"),
        _vcr(record_mode="once").use_cassette(str(path), serializer="tooltape"),
    ):
        pass
    assert path.read_text("utf-8").endswith('"interactions": [')


def test_serializer_reads_both_formats_for_vcrpy() -> None:
    serializer = TooltapeSerializer()
    text = (REAL / "model_simple_response_with_tool_call.yaml").read_text(encoding="utf-8")
    requests, responses = vcr_deserialize(text, serializer)
    assert [request.method for request in requests] == ["POST", "POST"]
    assert json.loads(requests[1].body)["input"][2]["output"] == "Potato City"
    assert json.loads(responses[0]["body"]["string"])["output"][0]["name"] == "get_capital"
    again = vcr_deserialize(serializer.serialize(serializer.deserialize(text)), serializer)
    assert [r.body for r in again[0]] == [r.body for r in requests]
    # Read back from tooltape JSON, each response is marked as scanned when written.
    assert all(response.pop("tooltape_scanned") is True for response in again[1])
    assert again[1] == responses


def test_combined_persister_reads_extra_cassettes(tmp_path: Path) -> None:
    shared = tmp_path / "shared.yaml"
    shared.write_text(
        "interactions:\n"
        "- request: {method: GET, uri: 'http://127.0.0.1:9/a', body: null, headers: {}}\n"
        "  response:\n"
        "    status: {code: 200, message: OK}\n"
        "    headers: {content-type: [text/plain]}\n"
        "    body: {string: shared}\n"
        "version: 1\n",
        encoding="utf-8",
    )
    persister = CombinedTooltapePersister(extra_paths=(str(shared),))
    requests, responses = persister.load_cassette(tmp_path / "main.json", serializer=None)
    assert [request.uri for request in requests] == ["http://127.0.0.1:9/a"]
    assert responses[0]["body"] == {"string": b"shared"}
    with pytest.raises(CassetteNotFoundError):
        CombinedTooltapePersister().load_cassette(tmp_path / "main.json", serializer=None)
    cassette = load_cassette(shared)
    assert cassette.interactions[0].response.body == TextBody("shared")
