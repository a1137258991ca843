"""The synthetic example cassette in ``fixtures/cassettes/``: a golden file for the format."""

from __future__ import annotations

from pathlib import Path

from tooltape.testing.cassette import SseBody, dump_cassette, find_secrets, load_cassette

FIXTURE = (
    Path(__file__).resolve().parents[2]
    / "fixtures"
    / "cassettes"
    / "synthetic_web_search_stream.json"
)


def test_the_example_is_exactly_what_the_writer_produces() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    cassette = load_cassette(FIXTURE)
    assert cassette.format == "tooltape"
    assert cassette.header.source == "synthetic"
    assert "synthetic" in (cassette.header.provenance or "")
    # a change to the on-disk format shows up here as a diff of this file
    assert dump_cassette(cassette) == text
    assert find_secrets(cassette) == []


def test_the_example_stream_replays_as_server_sent_events() -> None:
    (interaction,) = load_cassette(FIXTURE).interactions
    body = interaction.response.body
    assert isinstance(body, SseBody)
    wire = body.to_bytes().decode("utf-8")
    assert wire.startswith(": synthetic stream\n\nevent: response.created\ndata: {")
    assert wire.endswith('"annotations":[]}]}]}}\n\n')
    assert "Il fait beau à Paris." in wire
    assert [event.event for event in body.events] == [
        None,
        "response.created",
        "response.output_item.done",
        "response.output_text.delta",
        "response.completed",
    ]
