"""The on-disk format: layout, both readers, errors, atomic writes, speed."""

from __future__ import annotations

import gzip
import json
import os
import re
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from vcr.request import Request
from vcr.serialize import deserialize as vcr_deserialize
from vcr.serialize import serialize as vcr_serialize
from vcr.serializers import jsonserializer, yamlserializer

from tooltape.testing.cassette import (
    BinaryBody,
    Cassette,
    CassetteError,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    SseEvent,
    TextBody,
    cassette_to_vcr,
    dump_cassette,
    load_cassette,
    parse_cassette,
    response_to_vcr,
    save_cassette,
    tooltape_version,
)
from tooltape.testing.cassette import _format as cassette_format  # pyright: ignore[reportPrivateUsage]

# Real recordings of the live API from a public project, header secrets redacted (PROVENANCE.md).
REAL = Path(__file__).resolve().parents[1] / "data" / "real-cassettes" / "openai-responses"
REAL_FILES = sorted(REAL.glob("*.yaml"))

HEADER = CassetteHeader("0.1.0", "synthetic", "synthetic: written by test_cassette_format")


def _cassette(*interactions: Interaction) -> Cassette:
    return Cassette(header=HEADER, interactions=interactions)


def _interaction(
    response_body: object = None, *, content_type: str = "application/json"
) -> Interaction:
    return Interaction(
        RecordedRequest(
            "POST",
            "https://api.example.test/v1/responses",
            {"content-type": ("application/json",), "accept": ("*/*",)},
            JsonBody({"model": "gpt-5", "input": "hé"}),
        ),
        RecordedResponse(
            200,
            "OK",
            {"content-type": (content_type,)},
            JsonBody(response_body) if response_body is not None else EmptyBody(),
        ),
    )


def test_dump_layout_is_fixed() -> None:
    request = RecordedRequest(
        "POST",
        "https://api.example.test/v1/responses",
        # names arrive in any order; the file sorts them
        {"x-b": ("2",), "accept": ("*/*",), "Content-Type": ("application/json",)},
        JsonBody({"z": 1, "a": "é"}),
    )
    response = RecordedResponse(
        201,
        "Created",
        {"content-type": ("text/event-stream",)},
        SseBody((SseEvent("done", {"b": [1, 2], "a": None}),)),
    )
    text = dump_cassette(_cassette(Interaction(request, response)))
    assert text == (
        "{\n"
        '  "tooltape": {\n'
        '    "version": "0.1.0",\n'
        '    "source": "synthetic",\n'
        '    "provenance": "synthetic: written by test_cassette_format"\n'
        "  },\n"
        '  "interactions": [\n'
        "    {\n"
        '      "request": {\n'
        '        "method": "POST",\n'
        '        "uri": "https://api.example.test/v1/responses",\n'
        '        "headers": {\n'
        '          "accept": [\n'
        '            "*/*"\n'
        "          ],\n"
        '          "Content-Type": [\n'
        '            "application/json"\n'
        "          ],\n"
        '          "x-b": [\n'
        '            "2"\n'
        "          ]\n"
        "        },\n"
        '        "body": {\n'
        '          "json": {\n'
        '            "z": 1,\n'
        '            "a": "é"\n'
        "          }\n"
        "        }\n"
        "      },\n"
        '      "response": {\n'
        '        "status_code": 201,\n'
        '        "reason": "Created",\n'
        '        "headers": {\n'
        '          "content-type": [\n'
        '            "text/event-stream"\n'
        "          ]\n"
        "        },\n"
        '        "body": {\n'
        '          "sse": [\n'
        "            {\n"
        '              "event": "done",\n'
        '              "data": {\n'
        '                "b": [\n'
        "                  1,\n"
        "                  2\n"
        "                ],\n"
        '                "a": null\n'
        "              }\n"
        "            }\n"
        "          ]\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  ]\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("body", "on_disk"),
    [
        (JsonBody([1, {"b": 2, "a": 1}]), {"json": [1, {"b": 2, "a": 1}]}),
        (TextBody("plain\ntext"), {"text": "plain\ntext"}),
        (BinaryBody(b"\x89PNG\x00\xff"), {"base64": "iVBORwD/"}),
        (EmptyBody(), None),
        (
            SseBody((SseEvent("e", "[DONE]", raw_data=True),), line_ending="\r\n"),
            {"sse": [{"event": "e", "data": "[DONE]"}], "line_ending": "\r\n"},
        ),
    ],
)
def test_bodies_are_tagged_and_round_trip(body: object, on_disk: object) -> None:
    interaction = _interaction()
    response = RecordedResponse(200, "OK", {}, body)  # type: ignore[arg-type]
    cassette = _cassette(Interaction(interaction.request, response))
    text = dump_cassette(cassette)
    assert json.loads(text)["interactions"][0]["response"]["body"] == on_disk
    reread = parse_cassette(text)
    assert reread == cassette
    assert reread.format == "tooltape"
    assert reread.interactions[0].response.body.to_bytes() == response.body.to_bytes()


def test_save_and_load(tmp_path: Path) -> None:
    cassette = _cassette(_interaction({"id": "resp_1", "output": []}))
    path = tmp_path / "nested" / "dir" / "test_x.json"
    save_cassette(path, cassette)
    assert load_cassette(path) == cassette
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert [p.name for p in path.parent.iterdir()] == ["test_x.json"]  # no temp file left


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "test_x.json"
    old = _cassette(_interaction({"n": 1}))
    save_cassette(path, old)
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="No space"):
        save_cassette(path, _cassette(_interaction({"n": 2})))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["test_x.json"]


@pytest.mark.parametrize("path", REAL_FILES, ids=[p.name for p in REAL_FILES])
def test_reads_real_vcrpy_yaml(path: Path) -> None:
    with path.open(encoding="utf-8") as handle:
        raw = yaml.load(handle, Loader=yaml.CSafeLoader)
    cassette = load_cassette(path)
    assert cassette.format == "vcrpy"
    assert len(cassette.interactions) == len(raw["interactions"])
    for interaction, original in zip(cassette.interactions, raw["interactions"], strict=True):
        for recorded, source in (
            (interaction.request, original["request"]),
            (interaction.response, original["response"]),
        ):
            if "parsed_body" in source:
                assert isinstance(recorded.body, JsonBody)
                assert recorded.body.data == source["parsed_body"]
            assert set(recorded.headers) == {name.lower() for name in source["headers"]}
        assert interaction.request.uri == original["request"]["uri"]
        assert interaction.response.status_code == original["response"]["status"]["code"]
    # and the tooltape file written from it reads back equal
    assert parse_cassette(dump_cassette(cassette)) == cassette


def test_real_request_bodies_that_are_not_json() -> None:
    cassette = load_cassette(REAL / "model_file_search_tool.yaml")
    upload, *_, delete_store = cassette.interactions
    assert isinstance(upload.request.body, TextBody)
    assert 'name="purpose"' in upload.request.body.text
    assert isinstance(delete_store.request.body, EmptyBody)
    assert delete_store.request.method == "DELETE"


def _vcrpy_yaml(
    body: bytes, headers: dict[str, list[str]], *, serializer: object = yamlserializer
) -> str:
    request = Request("GET", "http://127.0.0.1:1/x", None, {"accept": "*/*"})
    response = {
        "status": {"code": 200, "message": "OK"},
        "headers": headers,
        "body": {"string": body},
    }
    return vcr_serialize({"requests": [request], "responses": [response]}, serializer)


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate
    ],
)
def test_compressed_bodies_are_decoded(encoding: str, compress: Callable[[bytes], bytes]) -> None:
    payload = json.dumps({"output": [{"type": "message", "text": "héllo"}]}).encode()
    compressed = compress(payload)
    text = _vcrpy_yaml(
        compressed,
        {
            "Content-Type": ["application/json"],
            "Content-Encoding": [encoding],
            "Content-Length": [str(len(compressed))],
        },
    )
    response = parse_cassette(text).interactions[0].response
    assert response.body == JsonBody(json.loads(payload))
    assert "content-encoding" not in response.headers
    replay = response_to_vcr(response)
    replayed = replay["body"]["string"]  # type: ignore[index]
    assert json.loads(replayed) == json.loads(payload)
    assert replay["headers"]["content-length"] == [str(len(replayed))]  # type: ignore[index]


def test_unknown_encoding_is_kept_as_binary() -> None:
    text = _vcrpy_yaml(b"\x00\xffzz", {"content-encoding": ["zstd"]})
    response = parse_cassette(text).interactions[0].response
    assert response.body == BinaryBody(b"\x00\xffzz")
    assert response.headers["content-encoding"] == ("zstd",)


def test_reads_vcrpy_json_serializer_files() -> None:
    text = _vcrpy_yaml(
        b'{"a":1}', {"content-type": ["application/json"]}, serializer=jsonserializer
    )
    cassette = parse_cassette(text)
    assert cassette.format == "vcrpy"
    assert cassette.interactions[0].response.body == JsonBody({"a": 1})


def test_reads_plain_string_bodies_and_old_python_tags() -> None:
    text = """\
interactions:
- request:
    body: !!python/unicode '{"q": 1}'
    headers:
      Content-Type: [application/json]
    method: POST
    uri: http://127.0.0.1:1/x
  response:
    body: {string: "data: hi\\n\\n"}
    headers:
      content-type: [text/event-stream]
    status: {code: 200, message: OK}
- request:
    body: null
    headers: {}
    method: GET
    uri: http://127.0.0.1:1/y
  response:
    body: '2024-01-01'
    headers:
      content-type: [text/plain]
    status: {code: '204', message: No Content}
version: 1
"""
    first, second = parse_cassette(text).interactions
    assert first.request.body == JsonBody({"q": 1})
    assert first.request.headers == {"content-type": ("application/json",)}
    assert first.response.body.to_bytes() == b"data: hi\n\n"
    assert isinstance(first.response.body, SseBody)
    assert second.request.body == EmptyBody()
    assert second.response.body == TextBody("2024-01-01")
    assert second.response.status_code == 204


def test_replay_fixes_content_length_of_reserialised_json() -> None:
    response = RecordedResponse(
        200,
        "OK",
        {"content-length": ("999",), "content-type": ("application/json",)},
        JsonBody({"a": [1, 2]}),
    )
    replay = response_to_vcr(response)
    assert replay["body"] == {"string": b'{"a":[1,2]}'}
    assert replay["headers"]["content-length"] == ["11"]  # type: ignore[index]


BAD_FILES = [
    ("", "the file is empty", None),
    ("   \n", "the file is empty", None),
    ('{"tooltape": {"version": "1", "source": "live"},\n "interactions": [}', "invalid JSON", 2),
    (
        "interactions:\n  - a: 1\n   b: 2\nversion: 1\n",
        "invalid YAML: did not find expected '-' indicator, while parsing a block collection",
        3,
    ),
    ("just a string\n", "not a cassette", None),
    ("[1, 2]\n", "not a cassette", None),
    (
        '{"tooltape": {"version": "1", "source": "radio"}, "interactions": []}',
        "/tooltape/source: expected one of live, import, loopback, synthetic",
        None,
    ),
    (
        '{"tooltape": {"version": "1", "source": "live"}, "interactions": '
        '[{"request": {"method": "GET", "uri": "x", "headers": {}, "body": null},'
        ' "response": {"status_code": "abc", "reason": "OK", "headers": {}, "body": null}}]}',
        "/interactions/0/response/status_code: expected an integer, got str 'abc'",
        None,
    ),
    (
        '{"tooltape": {"version": "1", "source": "live"}, "interactions": '
        '[{"request": {"method": "GET", "uri": "x", "headers": {"a": [1]}, "body": null},'
        ' "response": {"status_code": 200, "reason": "OK", "headers": {}, "body": null}}]}',
        "/interactions/0/request/headers/a/0: expected a string",
        None,
    ),
    (
        '{"tooltape": {"version": "1", "source": "live"}, "interactions": '
        '[{"request": {"method": "GET", "uri": "x", "headers": {}, "body": {"xml": "<a/>"}},'
        ' "response": {"status_code": 200, "reason": "OK", "headers": {}, "body": null}}]}',
        "/interactions/0/request/body: expected exactly one body encoding",
        None,
    ),
    (
        '{"tooltape": {"version": "1", "source": "live"}, "interactions": '
        '[{"request": {"method": "GET", "uri": "x", "headers": {}, "body": null},'
        ' "response": {"status_code": 200, "reason": "OK", "headers": {},'
        ' "body": {"base64": "not base64!"}}}]}',
        "/interactions/0/response/body/base64: invalid base64",
        None,
    ),
    (
        "interactions:\n- request: {method: GET, uri: x}\n  response: {status: {message: OK}}\n",
        "/interactions/0/response/status/code: expected an integer, got null",
        None,
    ),
    (
        '{\n  "tooltape": {},\n<<<<<<< HEAD\n  "interactions": []\n=======\n>>>>>>> b\n}\n',
        "merge conflict markers",
        3,
    ),
    ("version https://git-lfs.github.com/spec/v1\noid sha256:abc\n", "Git LFS pointer", None),
]


@pytest.mark.parametrize(("content", "problem", "line"), BAD_FILES)
def test_unreadable_files_say_where_what_and_how_to_fix(
    tmp_path: Path, content: str, problem: str, line: int | None
) -> None:
    # a vcrpy cassette in YAML is a .yaml file; JSON ones are .json
    suffix = ".json" if content.lstrip().startswith("{") else ".yaml"
    path = tmp_path / f"test_bad{suffix}"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    message = str(caught.value)
    assert str(path) in message
    assert problem in message
    assert caught.value.path == path
    assert caught.value.line == line
    if line is not None:
        assert f"(line {line}" in message
    assert "git" in message or "record" in message  # what to do about it


def test_invalid_json_reports_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "test_bad.json"
    path.write_text('{\n  "tooltape": {\n    "version": 1,,\n', encoding="utf-8")
    with pytest.raises(CassetteError, match=r"line 3, column 18\)") as caught:
        load_cassette(path)
    assert "re-record it with `pytest --record-mode=rewrite" in str(caught.value)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "test_bad.yaml"
    path.write_bytes(b"interactions:\n- \xff\xfe\n")
    with pytest.raises(CassetteError, match=r"not UTF-8 text \(byte 0xff at offset 16\) \(line 2"):
        load_cassette(path)


@pytest.mark.parametrize(
    ("bad", "byte"), [(b"\xff", "0xff"), (b"\xed\xa0\x80", "0xed")], ids=["invalid", "surrogate"]
)
def test_a_json_cassette_with_bytes_that_are_not_utf8_says_so(
    tmp_path: Path, bad: bytes, byte: str
) -> None:
    # JSON read straight from the file's bytes must refuse what decoding would.
    path = tmp_path / "test_bad.json"
    path.write_bytes(b'{"tooltape": {"version": "0.1.0", "source": "live", "provenance": "' + bad)
    path.write_bytes(path.read_bytes() + b'"}, "interactions": []}\n')
    with pytest.raises(CassetteError, match=rf"not UTF-8 text \(byte {byte} at offset 67\)"):
        load_cassette(path)


def test_missing_file_says_how_to_record(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match="no such file; record it with `pytest --record-mode"):
        load_cassette(tmp_path / "nope.json")


def test_half_written_file_is_reported(tmp_path: Path) -> None:
    text = dump_cassette(_cassette(_interaction({"id": "resp_1"})))
    path = tmp_path / "test_cut.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(CassetteError, match="invalid JSON"):
        load_cassette(path)


def _best_of(runs: int, action: Callable[[], object]) -> float:
    timings: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return min(timings)


def test_loading_is_at_least_five_times_faster_than_vcrpy_yaml() -> None:
    interactions = tuple(
        interaction for path in REAL_FILES for interaction in load_cassette(path).interactions
    )
    cassette = _cassette(*interactions)
    data = cassette_to_vcr(cassette)
    pairs = data["interactions"]
    assert isinstance(pairs, list)
    requests = [Request._from_dict(pair["request"]) for pair in pairs]  # type: ignore[index]
    responses = [pair["response"] for pair in pairs]  # type: ignore[index]
    yaml_text = vcr_serialize({"requests": requests, "responses": responses}, yamlserializer)
    json_text = dump_cassette(cassette)
    assert parse_cassette(json_text) == cassette
    ratios: list[float] = []
    for _ in range(3):  # a busy machine slows one side at random: keep the best attempt
        vcrpy_time = _best_of(15, lambda: vcr_deserialize(yaml_text, yamlserializer))
        tooltape_time = _best_of(15, lambda: parse_cassette(json_text))
        ratios.append(vcrpy_time / tooltape_time)
        if ratios[-1] >= 5:
            break
    assert max(ratios) >= 5, f"tooltape load only {max(ratios):.1f}x faster than vcrpy YAML"


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("test_list.json", "[1, 2", "invalid JSON: Expecting ','"),
        ("pyproject.toml", '[tool.x]\nkey = "a: b: c"\n', "not a cassette"),
        ("notes.txt", "a: b: c\n", "not a cassette: neither JSON nor YAML"),
        ("test_v.yaml", "a: [1\n", "invalid YAML"),
    ],
)
def test_a_file_is_reported_in_the_format_its_name_says(
    tmp_path: Path, name: str, text: str, says: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CassetteError, match=re.escape(says)):
        load_cassette(path)


_UNREADABLE_BODY = (
    '"interactions": [{"request": {"method": "GET", "uri": "x", "headers": {},'
    ' "body": {"zstd": "KLUv/QA="}}, "response": {"status_code": 200, "reason": "OK",'
    ' "headers": {}, "body": null}}]}'
)
"""An interaction with a body encoding this tooltape does not know."""


def test_a_cassette_a_newer_tooltape_wrote_says_to_upgrade_when_it_cannot_be_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "test_newer.json"
    header = '{"tooltape": {"version": "999.0.0", "source": "live"}, '
    path.write_text(header + _UNREADABLE_BODY, encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    message = str(caught.value)
    assert "/interactions/0/request/body: expected exactly one body encoding" in message
    assert f"written by tooltape 999.0.0, newer than this tooltape {tooltape_version()}" in message
    assert "upgrade tooltape (`pip install -U tooltape`)" in message


@pytest.mark.parametrize(
    "written",
    [
        "0.0.1",
        "{installed}",  # this very version
        "{installed}+dirty",  # a local build of it: no newer
        "not a version",
        "1" * 5000,  # more digits than Python turns into an int
        7,
    ],
)
def test_a_cassette_an_older_or_unknown_writer_wrote_gets_the_repair_hint(
    tmp_path: Path, written: object
) -> None:
    if isinstance(written, str):
        written = written.format(installed=tooltape_version())
    path = tmp_path / "test_older.json"
    header = '{"tooltape": {"version": ' + json.dumps(written) + ', "source": "live"}, '
    path.write_text(header + _UNREADABLE_BODY, encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    assert "newer" not in str(caught.value)
    assert "upgrade" not in str(caught.value)
    assert "git checkout" in str(caught.value)


def test_without_a_known_installed_version_nothing_is_called_newer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cassette_format, "tooltape_version", lambda: "0+unknown")
    path = tmp_path / "test_uninstalled.json"
    header = '{"tooltape": {"version": "999.0.0", "source": "live"}, '
    path.write_text(header + _UNREADABLE_BODY, encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    assert "upgrade" not in str(caught.value)


def test_a_readable_cassette_from_a_newer_tooltape_loads_without_complaint(
    tmp_path: Path,
) -> None:
    path = tmp_path / "test_newer_ok.json"
    text = dump_cassette(_cassette(_interaction({"id": "resp_1"})))
    assert '"version": "0.1.0"' in text
    path.write_text(text.replace('"version": "0.1.0"', '"version": "999.0.0"'), encoding="utf-8")
    assert load_cassette(path).header.tooltape_version == "999.0.0"
