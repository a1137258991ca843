"""Spec snapshots of the client-executed kinds and of plain functions: the matrix's client rows.

``cassettes/specs/<row>.json`` holds ``{"kind", "codec", "tool", "spec"}`` for the
canonical tool of each row (``<kind>-client.json`` when a hosted kind of the
same name owns ``<kind>.json``), the same file ``tooltape check`` reads and
``pytest --snapshot-update`` rewrites. Each snapshot is also a valid member of
the OpenAPI ``Tool`` union.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from openapi_tools import assert_wire_valid

from tooltape.adapters.openai.codecs import default_client_tool_codecs, default_hosted_tool_codecs
from tooltape.testing.contracts import (
    PYTEST_UPDATE,
    check_spec,
    client_subjects,
    spec_document,
    spec_path,
)
from tooltape.testing.kinds import canonical_client_tools
from tooltape.tools.function_options import options_of

SPECS = Path(__file__).resolve().parents[2] / "cassettes" / "specs"


def test_every_client_kind_has_a_canonical_tool_and_a_codec() -> None:
    codecs = default_client_tool_codecs()
    for kind, tool in canonical_client_tools().items():
        # A namespace's member is a function tool placed in a namespace, not a provider tool.
        if kind == "namespace":
            assert options_of(tool).namespace is not None
        else:
            assert getattr(tool, "kind", None) == kind
        assert codecs[kind].kind == kind


def test_every_client_kind_and_function_is_a_row() -> None:
    rows = client_subjects()
    hosted = default_hosted_tool_codecs()
    expected = {f"{k}-client" if k in hosted else k for k in canonical_client_tools()}
    assert set(rows) == expected | {"function"}
    assert all(row.endswith("-client") == (s.codec.kind in hosted) for row, s in rows.items())


@pytest.mark.parametrize("row", sorted(client_subjects()))
def test_client_spec_matches_its_snapshot(row: str, request: pytest.FixtureRequest) -> None:
    subject = client_subjects()[row]
    assert_wire_valid("Tool", spec_document(subject)["spec"])
    assert spec_path(SPECS, subject).name == f"{row}.json"
    update = bool(request.config.getoption("--snapshot-update", default=False))
    outcome = check_spec(subject, SPECS, update=update, update_hint=PYTEST_UPDATE)
    assert outcome.ok, outcome.detail
