"""Importing the real recordings: scrubbed, faithful, and the sources left alone."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from real_recordings import (
    CANARIES,
    ENCRYPTED_CANARY,
    MCP_HEADER_CANARY,
    REAL,
    canary_tree,
    raw_recording,
    with_canaries,
)

from tooltape.testing.cassette import (
    JsonBody,
    SseBody,
    dump_cassette,
    find_secrets,
    import_cassette,
    load_cassette,
    save_cassette,
)

REAL_FILES = sorted(REAL.glob("*.yaml"))
IDS = [path.name for path in REAL_FILES]
REDACTED_AT = re.compile(r"(/encrypted_content|/tools/\d+/headers/[^/]+|/tools/\d+/authorization)$")


def _differences(original: object, imported: object, at: str = "") -> list[str]:
    """JSON pointers where two trees differ; raises if their structure differs."""
    if isinstance(original, dict):
        assert isinstance(imported, dict), at
        assert set(original) == set(imported), at
        return [
            path
            for key in original
            for path in _differences(original[key], imported[key], f"{at}/{key}")
        ]
    if isinstance(original, list):
        assert isinstance(imported, list) and len(original) == len(imported), at
        return [
            path
            for index, (old, new) in enumerate(zip(original, imported, strict=True))
            for path in _differences(old, new, f"{at}/{index}")
        ]
    return [] if original == imported else [at]


def _at(tree: object, pointer: str) -> object:
    for step in pointer.split("/")[1:]:
        tree = tree[int(step)] if isinstance(tree, list) else tree[step]  # type: ignore[index]
    return tree


@pytest.mark.parametrize("path", REAL_FILES, ids=IDS)
def test_import_leaves_no_secrets(path: Path, tmp_path: Path) -> None:
    hostile = with_canaries(path, tmp_path)
    digest = hashlib.sha256(hostile.read_bytes()).hexdigest()
    before = load_cassette(hostile)
    assert find_secrets(before), "the canaries are secrets to scrub"
    imported = import_cassette(hostile)
    assert find_secrets(imported) == []
    for interaction in imported.interactions:
        for headers in (interaction.request.headers, interaction.response.headers):
            assert not {"cookie", "set-cookie", "openai-organization", "openai-project"} & set(
                headers
            )
    text = dump_cassette(imported)
    for secret in (*CANARIES.values(), "__cf_bm=", MCP_HEADER_CANARY, ENCRYPTED_CANARY):
        assert secret not in text
    assert hashlib.sha256(hostile.read_bytes()).hexdigest() == digest


def test_the_repositorys_copies_hold_no_secret() -> None:
    """The copies of the real recordings are what ``tooltape lint`` accepts."""
    for path in REAL_FILES:
        assert find_secrets(load_cassette(path)) == [], path.name


@pytest.mark.parametrize("path", REAL_FILES, ids=IDS)
def test_import_keeps_bodies_except_redacted_fields(path: Path, tmp_path: Path) -> None:
    raw = canary_tree(path)["interactions"]
    assert isinstance(raw, list)
    imported = import_cassette(with_canaries(path, tmp_path))
    redactions = 0
    for interaction, original in zip(imported.interactions, raw, strict=True):
        for recorded, source in (
            (interaction.request, original["request"]),
            (interaction.response, original["response"]),
        ):
            if "parsed_body" not in source:
                continue
            assert isinstance(recorded.body, JsonBody)
            changed = _differences(source["parsed_body"], recorded.body.data)
            for pointer in changed:
                assert REDACTED_AT.search(pointer), pointer
                assert _at(recorded.body.data, pointer) == "REDACTED"
            redactions += len(changed)
        assert interaction.request.uri == original["request"]["uri"]
        assert interaction.request.method == original["request"]["method"]
        assert interaction.response.status_code == original["response"]["status"]["code"]
    if "encrypted_content: REDACTED" in path.read_text(encoding="utf-8"):
        assert redactions > 0


def test_imported_stream_replays_the_original_bytes(tmp_path: Path) -> None:
    path = with_canaries(REAL / "model_web_search_tool_stream.yaml", tmp_path)
    original = raw_recording(path)["interactions"][0]["response"]["body"]["string"]  # type: ignore[index]
    expected, blobs = re.subn(
        r'"encrypted_content":"[^"]*"', '"encrypted_content":"REDACTED"', original
    )
    assert blobs > 0 and ENCRYPTED_CANARY in original
    body = import_cassette(path).interactions[0].response.body
    assert isinstance(body, SseBody)
    assert body.to_bytes() == expected.encode("utf-8")
    assert len(body.events) == original.count("\n\n")
    # without scrubbing, the very same bytes
    unscrubbed = load_cassette(path).interactions[0].response.body
    assert unscrubbed.to_bytes() == original.encode("utf-8")


def test_provenance(tmp_path: Path) -> None:
    imported = import_cassette(REAL / "model_http_error.yaml")
    assert imported.header.source == "import"
    provenance = imported.header.provenance or ""
    assert provenance.startswith("imported from model_http_error.yaml; see ../PROVENANCE.md: ")
    assert "pydantic/pydantic-ai" in provenance  # the licence note travels with the data

    explicit = import_cassette(REAL / "model_http_error.yaml", provenance="from a friend")
    assert explicit.header.provenance == "from a friend"

    lonely = tmp_path / "lonely" / "x.yaml"
    lonely.parent.mkdir()
    shutil.copy(REAL / "model_http_error.yaml", lonely)
    assert import_cassette(lonely).header.provenance == "imported from x.yaml"

    # a tooltape cassette imported again keeps where it came from
    saved = tmp_path / "lonely" / "again.json"
    save_cassette(saved, imported)
    again = import_cassette(saved)
    assert again.header.provenance == (f"imported from again.json; before that: {provenance}")
    assert again.interactions == imported.interactions


@pytest.mark.parametrize("path", REAL_FILES, ids=IDS)
def test_imported_cassettes_survive_the_disk(path: Path, tmp_path: Path) -> None:
    imported = import_cassette(path)
    target = tmp_path / f"{path.stem}.json"
    save_cassette(target, imported)
    reread = load_cassette(target)
    assert reread == imported
    assert reread.format == "tooltape"
    assert import_cassette(target).interactions == imported.interactions  # idempotent
