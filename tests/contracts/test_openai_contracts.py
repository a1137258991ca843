"""The contract suite over every kind the OpenAI adapter registers, on the project's cassettes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tooltape import HostedTool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.testing.contracts import (
    HostedToolCodecContract,
    check_kind,
    load_corpus,
    run_contracts,
)
from tooltape.testing.kinds import canonical_tools

REPO = Path(__file__).resolve().parents[2]
CASSETTES = REPO / "cassettes"

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def corpus() -> Any:
    return load_corpus(CASSETTES)


@pytest.mark.parametrize("kind", sorted(OpenAIAdapter("gpt-5").hosted_tool_codecs))
def test_every_registered_kind_keeps_its_contract(kind: str, corpus: Any) -> None:
    registry = OpenAIAdapter("gpt-5").hosted_tool_codecs
    report = check_kind(registry[kind], canonical_tools()[kind], corpus, registry=registry)
    assert report.spec.ok, report.spec.detail
    assert report.replay.ok, report.replay.detail
    assert report.failure.ok, report.failure.detail


@dataclass(frozen=True, slots=True)
class PoliteSearchConfig:
    pass


class PoliteSearchCodec(WebSearchCodec):
    """A third-party kind nobody recorded yet (reuses web search's wire for brevity)."""

    @property
    def kind(self) -> str:
        return "polite_search"

    @property
    def item_types(self) -> tuple[str, ...]:
        return ("polite_search_call",)

    def serialize(self, tool: HostedTool[Any]) -> dict[str, Any]:
        return {"type": "polite_search"}


def test_a_registered_kind_without_cassette_or_snapshot_fails_saying_how_to_add_them(
    tmp_path: Path,
) -> None:
    tool = HostedTool(
        kind="polite_search", name="polite", description="Search.", config=PoliteSearchConfig()
    )
    report = run_contracts(
        tmp_path,
        codecs={"polite_search": PoliteSearchCodec()},
        tools={"polite_search": tool},
    )
    (row,) = report.kinds
    assert not report.ok
    assert not row.spec.ok and "--update-specs" in row.spec.detail
    assert not row.replay.ok
    assert "record-mode=once" in row.replay.detail and "tooltape import" in row.replay.detail


def test_a_kind_without_a_representative_tool_fails_with_the_fix(tmp_path: Path) -> None:
    report = run_contracts(tmp_path, codecs={"polite_search": PoliteSearchCodec()})
    (row,) = report.kinds
    assert not row.spec.ok and "tools={'polite_search'" in row.spec.detail


def test_a_drifted_spec_is_reported_field_by_field(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    original = (CASSETTES / "specs" / "web_search.json").read_text()
    (specs / "web_search.json").write_text(original.replace("python.org", "example.org"))
    codec = WebSearchCodec()
    report = check_kind(
        codec, canonical_tools()["web_search"], load_corpus(tmp_path), spec_dir=specs
    )
    assert not report.spec.ok
    assert "filters.allowed_domains[1]" in report.spec.detail
    assert "example.org" in report.spec.detail and "python.org" in report.spec.detail


def test_third_parties_reuse_the_suite_by_subclassing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_mine=f"""
from pathlib import Path
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.testing.contracts import HostedToolCodecContract
from tooltape.testing.kinds import canonical_tools


class TestWebSearchCodec(HostedToolCodecContract):
    codec = WebSearchCodec()
    tool = canonical_tools()["web_search"]
    cassette_dir = Path({str(CASSETTES)!r})


class TestUnrecordedCodec(HostedToolCodecContract):
    codec = WebSearchCodec()
    tool = canonical_tools()["web_search"]
    cassette_dir = Path("empty")
"""
    )
    (pytester.path / "empty").mkdir()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=2)
    output = result.stdout.str()
    assert "TestUnrecordedCodec::test_spec_matches_snapshot" in output
    assert "no spec snapshot" in output and "no cassette under empty" in output


def test_the_suite_is_exported_for_reuse() -> None:
    assert {
        "test_spec_matches_snapshot",
        "test_recordings_replay_into_typed_outputs",
        "test_failure_semantics",
    } <= set(dir(HostedToolCodecContract))
