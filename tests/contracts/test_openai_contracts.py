"""The contract suite over the kinds the OpenAI adapter registers, on the project's cassettes,
and in projects that cover only some kinds or bring their own codecs."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tooltape import HostedTool
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.testing.contracts import (
    ContractSetupError,
    ContractSubject,
    HostedToolCodecContract,
    builtin_subjects,
    check_kind,
    client_subjects,
    load_corpus,
    load_subject,
    run_contracts,
    snapshot_stem,
)
from tooltape.testing.kinds import canonical_tools
from tooltape.tools.web_search import DomainFilter, WebSearchConfig, web_search_tool

REPO = Path(__file__).resolve().parents[2]
CASSETTES = REPO / "cassettes"
WEB_SEARCH_CASSETTE = CASSETTES / "imported" / "model_web_search_tool.json"

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def corpus() -> Any:
    return load_corpus(CASSETTES)


@pytest.mark.parametrize("kind", sorted(OpenAIAdapter("gpt-5").hosted_tool_codecs))
def test_every_registered_kind_keeps_its_contract(kind: str, corpus: Any) -> None:
    registry = OpenAIAdapter("gpt-5").hosted_tool_codecs
    report = check_kind(builtin_subjects()[kind], corpus, registry=registry, required=True)
    assert report.coverage == "required"
    assert report.spec.ok, report.spec.detail
    assert report.replay.ok, report.replay.detail
    assert report.failure.ok, report.failure.detail


# web_search_preview reads the same web_search_call items as web_search: until the matrix
# tells the two apart by the request's tool type, a web search recording covers both.


def _web_search_only(tmp_path: Path) -> Path:
    folder = tmp_path / "cassettes"
    (folder / "tests" / "test_w").mkdir(parents=True)
    shutil.copy(WEB_SEARCH_CASSETTE, folder / "tests" / "test_w" / "test_weather.json")
    return folder


def test_a_project_covers_the_kinds_its_cassettes_hold(tmp_path: Path) -> None:
    folder = _web_search_only(tmp_path)
    report = run_contracts(folder)
    by_kind = {kind.kind: kind for kind in report.kinds}
    assert report.ok
    # web_search_preview answers with the same web_search_call items, but these requests
    # offered web_search: the recording covers that kind alone
    assert [kind.kind for kind in report.covered] == ["web_search"]
    assert by_kind["web_search"].coverage == "recorded"
    assert by_kind["web_search"].replay.ok and by_kind["web_search"].failure.ok
    # no spec snapshot yet: shown with how to write it, not a failure
    spec = by_kind["web_search"].spec
    assert spec.neutral and "--snapshot-update" in spec.detail
    every_row = {**builtin_subjects(), **client_subjects()}
    assert {kind.kind for kind in report.not_covered} == set(every_row) - {"web_search"}
    assert all(kind.ok for kind in report.not_covered)


def test_a_required_kind_without_a_recording_fails_saying_how_to_add_one(tmp_path: Path) -> None:
    folder = _web_search_only(tmp_path)
    report = run_contracts(folder, required={"mcp"}, update_hint="`the update command`")
    mcp = next(kind for kind in report.kinds if kind.kind == "mcp")
    assert not report.ok
    assert mcp.coverage == "required"
    assert not mcp.spec.ok and "`the update command`" in mcp.spec.detail
    assert not mcp.replay.ok and "record-mode=once" in mcp.replay.detail
    assert "tooltape import" in mcp.replay.detail
    # failure semantics are never derived from a synthetic sample of an unrecorded kind
    assert not mcp.failure.ok and "mcp_call" in mcp.failure.detail


def test_an_unregistered_required_kind_is_a_setup_error(tmp_path: Path) -> None:
    with pytest.raises(ContractSetupError, match=r"'nope'.*registered kinds are"):
        run_contracts(_web_search_only(tmp_path), required={"nope"})


def test_a_drifted_spec_is_reported_field_by_field(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    original = (CASSETTES / "specs" / "web_search.json").read_text()
    (specs / "web_search.json").write_text(original.replace("python.org", "example.org"))
    report = check_kind(builtin_subjects()["web_search"], load_corpus(tmp_path), spec_dir=specs)
    assert report.coverage == "snapshot"  # the snapshot alone covers the kind
    assert not report.spec.ok
    assert "filters.allowed_domains[1]" in report.spec.detail
    assert "example.org" in report.spec.detail and "python.org" in report.spec.detail
    assert report.replay.neutral and report.ok is False


@dataclass(frozen=True, slots=True)
class PoliteSearchConfig:
    pass


POLITE = HostedTool(
    kind="polite_search", name="polite", description="Search.", config=PoliteSearchConfig()
)


class PoliteSearchCodec(WebSearchCodec):
    """A third-party kind nobody recorded yet (reuses web search's wire for brevity)."""

    canonical_tool = POLITE

    @property
    def kind(self) -> str:
        return "polite_search"

    @property
    def item_types(self) -> tuple[str, ...]:
        return ("polite_search_call",)

    def serialize(self, tool: HostedTool[Any]) -> dict[str, Any]:
        return {"type": "polite_search"}


def test_snapshot_files_are_one_per_codec_and_tool() -> None:
    builtin = builtin_subjects()["web_search"]
    assert snapshot_stem(builtin) == "web_search"
    other_tool = web_search_tool(WebSearchConfig(domain_filter=DomainFilter(allowed=("a.b",))))
    assert (
        snapshot_stem(ContractSubject(WebSearchCodec(), other_tool)) == "web_search.WebSearchCodec"
    )
    declared = ContractSubject(WebSearchCodec(), other_tool, owner="TestMine")
    assert snapshot_stem(declared) == "web_search.TestMine"
    assert snapshot_stem(ContractSubject(PoliteSearchCodec(), POLITE)) == (
        "polite_search.PoliteSearchCodec"
    )


PROJECT_CODECS = """
from dataclasses import dataclass
from typing import Any

from tooltape import HostedTool
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.testing.contracts import HostedToolCodecContract


@dataclass(frozen=True)
class PoliteSearchConfig:
    region: str = "eu"


class PoliteSearchCodec(WebSearchCodec):
    canonical_tool = HostedTool(
        kind="polite_search", name="polite", description="Search.", config=PoliteSearchConfig()
    )

    @property
    def kind(self):
        return "polite_search"

    @property
    def item_types(self):
        return ("polite_search_call",)

    def serialize(self, tool):
        return {"type": "polite_search", "region": tool.config.region}


class TestPoliteSearch(HostedToolCodecContract):
    codec = PoliteSearchCodec()
    tool = HostedTool(
        kind="polite_search", name="polite", description="Search.",
        config=PoliteSearchConfig(region="us"),
    )
"""


def test_project_codecs_load_from_module_attr(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(acme_codecs=PROJECT_CODECS)
    by_codec = load_subject("acme_codecs:PoliteSearchCodec", pytester.path)
    assert by_codec.kind == "polite_search" and by_codec.owner is None
    assert by_codec.codec.serialize(by_codec.tool) == {"type": "polite_search", "region": "eu"}
    by_contract = load_subject("acme_codecs:TestPoliteSearch", pytester.path)
    assert by_contract.owner == "TestPoliteSearch"
    assert by_contract.codec.serialize(by_contract.tool)["region"] == "us"
    for spec, says in (
        ("acme_codecs", "is not module:attr"),
        ("acme_codecs:Missing", "has no 'Missing'"),
        ("no_such_module:X", "importing no_such_module failed"),
        ("acme_codecs:PoliteSearchConfig", "not a hosted tool codec"),
    ):
        with pytest.raises(ContractSetupError, match=says):
            load_subject(spec, pytester.path)


def test_the_suite_and_check_share_one_snapshot_and_never_overwrite_each_other(
    pytester: pytest.Pytester,
) -> None:
    """A contract subclass and `tooltape check` over the same project."""
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "__init__.py").write_text("")
    (pytester.path / "tests" / "test_contracts.py").write_text(
        PROJECT_CODECS + "\n\nclass TestWebSearch(HostedToolCodecContract):\n"
        "    codec = WebSearchCodec()\n"
    )
    pytester.makepyprojecttoml(
        '[tool.tooltape]\ncodecs = ["tests.test_contracts:TestPoliteSearch"]\n'
    )
    folder = pytester.path / "cassettes"
    (folder / "tests" / "test_w").mkdir(parents=True)
    shutil.copy(WEB_SEARCH_CASSETTE, folder / "tests" / "test_w" / "test_weather.json")

    first = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--snapshot-update")
    # polite_search has no recording: its replay and failure checks fail, saying so
    first.assert_outcomes(passed=4, failed=2)
    assert "no cassette under" in first.stdout.str()
    specs = folder / "specs"
    assert sorted(p.name for p in specs.iterdir()) == [
        "polite_search.TestPoliteSearch.json",
        "web_search.json",
    ]
    written = {p.name: p.read_bytes() for p in specs.iterdir()}
    assert json.loads(written["web_search.json"]) == json.loads(
        (CASSETTES / "specs" / "web_search.json").read_text()
    )

    check = pytester.run("tooltape", "check", "--update-specs")
    assert check.ret == 0, check.stdout.str()
    assert "unread:" not in check.stdout.str()  # check reads the named class's snapshot
    # check rewrote what it covers with the very same bytes
    rewritten = {p.name: p.read_bytes() for p in specs.iterdir()}
    assert set(rewritten) == set(written)
    assert {name: rewritten[name] for name in written} == written
    second = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    second.assert_outcomes(passed=4, failed=2)


def test_failing_subclass_tests_name_the_pytest_command(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_mine="""
from pathlib import Path
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.testing.contracts import HostedToolCodecContract


class TestUnrecordedCodec(HostedToolCodecContract):
    codec = WebSearchCodec()
    cassette_dir = Path("empty")
"""
    )
    (pytester.path / "empty").mkdir()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=3)
    output = result.stdout.str()
    assert "no spec snapshot" in output and "`pytest --snapshot-update`" in output
    assert "--update-specs" not in output
    assert "no cassette under empty" in output


def test_the_suite_is_exported_for_reuse() -> None:
    assert {
        "test_spec_matches_snapshot",
        "test_recordings_replay_into_typed_outputs",
        "test_failure_semantics",
    } <= set(dir(HostedToolCodecContract))
    assert canonical_tools()  # the built-in kinds have representatives
