"""The contract suite reads what replay reads: a ``<test>.yaml`` left beside the
``<test>.json`` that ``pytest --record-mode=rewrite`` wrote is not read (replay reads the
``.json``), unless a test names the ``.yaml`` itself as a shared cassette
(``@pytest.mark.vcr("x.yaml")``), which replay reads too.

The ``.json`` is a real recording; the ``.yaml`` beside it is synthetic: the same
recording with its call's ``id`` broken, as an old recording the codec no longer reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from contract_project import WEB_SEARCH_CASSETTE, contract_project

from tooltape.testing.contracts import load_corpus, replayed_cassettes, superseded_cassettes

pytest_plugins = ["pytester"]


def _stale_copy(path: Path) -> None:
    """The real web search recording with each call's ``id`` a number (synthetic)."""
    document = json.loads(WEB_SEARCH_CASSETTE.read_text())
    for interaction in document["interactions"]:
        body = interaction["response"]["body"]
        for item in body.get("json", {}).get("output", []) if isinstance(body, dict) else []:
            if item.get("type") == "web_search_call":
                item["id"] = 5
    document["tooltape"]["provenance"] = "synthetic: a real recording with its call ids broken"
    path.write_text(json.dumps(document))


@pytest.fixture
def rerecorded(pytester: pytest.Pytester) -> Path:
    """A project whose cassette folder holds a re-recorded test: its ``.json`` and the
    older ``.yaml`` beside it; the folder."""
    folder = contract_project(pytester, "tests/test_weather/test_today.json")
    folder = folder / "tests" / "test_weather"
    _stale_copy(folder / "test_today.yaml")
    return folder


def test_the_suite_does_not_read_a_yaml_replay_passes_over(
    pytester: pytest.Pytester, rerecorded: Path
) -> None:
    result = pytester.runpytest_subprocess(
        "test_contracts.py", "-p", "no:cacheprovider", "-k", "replay"
    )
    result.assert_outcomes(passed=1)


def test_the_suite_reads_a_yaml_a_test_names_as_a_shared_cassette(
    pytester: pytest.Pytester, rerecorded: Path
) -> None:
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_weather.py").write_text(
        'import pytest\n\n\n@pytest.mark.vcr("test_today.yaml")\ndef test_tomorrow():\n    pass\n'
    )
    result = pytester.runpytest_subprocess(
        "test_contracts.py", "-p", "no:cacheprovider", "-k", "replay"
    )
    result.assert_outcomes(failed=1)
    assert "test_today.yaml #0 output[1].id: a number, not a string" in result.stdout.str()


def test_only_a_yaml_beside_a_json_of_its_name_is_superseded(tmp_path: Path) -> None:
    files = [
        tmp_path / "a.json",
        tmp_path / "a.yaml",
        tmp_path / "a.yml",
        tmp_path / "b.yaml",
        tmp_path / "other" / "a.yaml",
    ]
    assert [item.path.name for item in superseded_cassettes(files)] == ["a.yaml", "a.yml"]
    kept, left_out = replayed_cassettes(files)
    assert kept == [tmp_path / "a.json", tmp_path / "b.yaml", tmp_path / "other" / "a.yaml"]
    assert [item.replayed for item in left_out] == [tmp_path / "a.json"] * 2


def test_load_corpus_reads_what_replay_reads(rerecorded: Path) -> None:
    corpus = load_corpus(rerecorded)
    assert {exchange.path.name for exchange in corpus.exchanges} == {"test_today.json"}
