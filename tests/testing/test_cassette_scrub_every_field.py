"""Every text a cassette holds is scrubbed and scanned, not only bodies, headers and URIs.

A hostile server writes what it likes in a stream's ``retry`` field, and a
hand-edited cassette may hold a key in its request method or its header's
version: the scanner (lint, the recorder's write gate) must find what is
there, and scrubbing (recording, import) must leave nothing. Every key below is synthetic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooltape.testing.cassette import (
    Cassette,
    CassetteError,
    CassetteHeader,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    dump_cassette,
    find_secrets,
    import_cassette,
    load_cassette,
    parse_sse,
    save_cassette,
    scrub_cassette,
)

OPENAI_KEY = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" * 2 + "T3BlbkFJ" + "Qr7sT0uV"


def _cassette(
    *, method: str = "POST", version: str = "0.1.0", stream: str = "data: {}\n\n"
) -> Cassette:
    request = RecordedRequest(method, "https://api.example.test/v1/responses", {}, JsonBody({}))
    response = RecordedResponse(
        200, "OK", {"content-type": ("text/event-stream",)}, parse_sse(stream)
    )
    header = CassetteHeader(version, "synthetic", "synthetic: test_cassette_scrub_every_field")
    return Cassette(header, (Interaction(request, response),))


PLACES = {
    "/interactions/0/request/method": {"method": OPENAI_KEY},
    "/tooltape/version": {"version": OPENAI_KEY},
    "/interactions/0/response/body/sse/0/retry": {"stream": f"retry: {OPENAI_KEY}\ndata: {{}}\n\n"},
}


@pytest.mark.parametrize("place", PLACES)
def test_a_key_anywhere_in_a_cassette_is_found_where_it_is(place: str) -> None:
    findings = find_secrets(_cassette(**PLACES[place]))

    assert [finding.location for finding in findings] == [place]
    assert all(OPENAI_KEY not in finding.excerpt for finding in findings)


@pytest.mark.parametrize("place", PLACES)
def test_scrubbing_leaves_no_key_anywhere(place: str) -> None:
    scrubbed = scrub_cassette(_cassette(**PLACES[place]))

    assert find_secrets(scrubbed) == []
    assert OPENAI_KEY not in repr(scrubbed)


@pytest.mark.parametrize("place", PLACES)
def test_an_imported_cassette_holds_no_key_anywhere(place: str, tmp_path: Path) -> None:
    source = tmp_path / "edited.json"
    save_cassette(source, _cassette(**PLACES[place]))
    edited = source.read_bytes()

    imported = import_cassette(source)

    assert find_secrets(imported) == []
    assert OPENAI_KEY not in dump_cassette(imported)
    assert source.read_bytes() == edited


def test_an_ordinary_cassette_scrubs_to_itself() -> None:
    cassette = _cassette(stream="retry: 3000\ndata: {}\n\n")

    assert scrub_cassette(cassette) is cassette
    assert find_secrets(cassette) == []


def test_a_stream_line_ending_no_stream_uses_is_refused_naming_the_place(tmp_path: Path) -> None:
    path = tmp_path / "cassette.json"
    save_cassette(path, _cassette())
    text = path.read_text(encoding="utf-8")
    edited = text.replace('"sse": [', f'"line_ending": "{OPENAI_KEY}",\n"sse": [', 1)
    path.write_text(edited, encoding="utf-8")

    with pytest.raises(CassetteError) as caught:
        load_cassette(path)

    message = str(caught.value)
    assert "/interactions/0/response/body/line_ending" in message
    assert str(path) in message
    assert OPENAI_KEY not in message
    assert path.read_text(encoding="utf-8") == edited


def test_a_stream_with_each_line_ending_reads_back(tmp_path: Path) -> None:
    for ending in ("\n", "\r\n", "\r"):
        path = tmp_path / f"{len(ending)}{ending == chr(13)}.json"
        save_cassette(path, _cassette(stream=f"data: {{}}{ending}{ending}"))

        assert load_cassette(path).interactions[0].response.body == parse_sse(
            f"data: {{}}{ending}{ending}"
        )
