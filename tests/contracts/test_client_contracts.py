"""The client rows of the contract matrix: client-executed kinds and plain function tools.

Run over this project's recordings (each client kind recorded by
``test_recorded_contracts`` through a loopback server, plain functions in a
real imported recording), and over copies broken on purpose.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tooltape.adapters.openai.codecs import default_client_tool_codecs
from tooltape.adapters.openai.codecs.apply_patch import ApplyPatchCodec
from tooltape.prompt import ToolResult
from tooltape.testing.contracts import (
    ClientSubject,
    check_client_kind,
    client_subjects,
    load_corpus,
    run_contracts,
)

REPO = Path(__file__).resolve().parents[2]
CASSETTES = REPO / "cassettes"
RECORDED = CASSETTES / "tests" / "contracts" / "test_recorded_contracts"
APPLY_PATCH = RECORDED / "test_client_kind_round_trip[apply_patch].json"


def _registry() -> dict[str, Any]:
    return dict(default_client_tool_codecs())


@pytest.mark.parametrize("row", sorted(client_subjects()))
def test_every_client_row_keeps_its_contract_on_this_projects_recordings(row: str) -> None:
    report = check_client_kind(
        client_subjects()[row], load_corpus(CASSETTES), registry=_registry(), required=True
    )
    assert report.ok, (report.spec, report.replay, report.failure)
    assert report.replay.detail.endswith("cassette(s)")
    assert report.failure.detail == "raising hook, unsendable tool"


def _project_with(tmp_path: Path, cassette: Path, text: str | None = None) -> Path:
    folder = tmp_path / "cassettes" / "tests" / "test_edit"
    folder.mkdir(parents=True)
    target = folder / "test_edit.json"
    shutil.copy(cassette, target)
    if text is not None:
        target.write_text(text, encoding="utf-8")
    return tmp_path / "cassettes"


def test_a_project_that_records_only_apply_patch_covers_that_row_alone(tmp_path: Path) -> None:
    report = run_contracts(_project_with(tmp_path, APPLY_PATCH))
    assert report.ok
    assert [kind.kind for kind in report.covered] == ["apply_patch"]
    assert report.covered[0].replay.detail == "3 call(s) in 1 cassette(s)"


def test_arguments_the_kind_cannot_take_fail_replay_naming_the_item(tmp_path: Path) -> None:
    text = APPLY_PATCH.read_text(encoding="utf-8").replace('"create_file"', '"rename_file"')
    corpus = load_corpus(_project_with(tmp_path, APPLY_PATCH, text))
    report = check_client_kind(client_subjects()["apply_patch"], corpus, registry=_registry())
    assert not report.ok
    assert "test_edit.json #0 output[0]" in report.replay.detail
    assert "do not fit the apply_patch tool" in report.replay.detail


class _ForgetfulCodec(ApplyPatchCodec):
    """Answers every call under another call's id: the provider could not match it."""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        return {**super().output_item(item, result), "call_id": "call_someone_else"}


def test_a_codec_that_does_not_answer_the_failed_call_breaks_the_failure_semantics(
    tmp_path: Path,
) -> None:
    corpus = load_corpus(_project_with(tmp_path, APPLY_PATCH))
    builtin = client_subjects()["apply_patch"]
    subject = ClientSubject("apply_patch", _ForgetfulCodec(), builtin.tool)
    report = check_client_kind(subject, corpus, registry=_registry())
    assert report.replay.ok
    assert not report.failure.ok
    assert report.failure.detail == "the failed call was not answered in the next request"


def test_a_recorded_call_without_a_call_id_fails_replay(tmp_path: Path) -> None:
    text = APPLY_PATCH.read_text(encoding="utf-8").replace('"call_ap_1"', '""', 1)
    corpus = load_corpus(_project_with(tmp_path, APPLY_PATCH, text))
    report = check_client_kind(client_subjects()["apply_patch"], corpus, registry=_registry())
    assert "the apply_patch_call has no call_id" in report.replay.detail
