"""Spec snapshots of the client-executed kinds, in the layout of the hosted ones.

``cassettes/specs/<kind>.json`` holds ``{"kind", "codec", "tool", "spec"}`` for the
canonical client tool of each kind (``<kind>-client.json`` when a hosted kind
of the same name owns ``<kind>.json``); ``pytest --snapshot-update`` rewrites
them. Each snapshot is also a valid member of the OpenAPI ``Tool`` union.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openapi_tools import assert_wire_valid

from tooltape.adapters.openai.codecs import default_client_tool_codecs, default_hosted_tool_codecs
from tooltape.testing.kinds import canonical_client_tools
from tooltape.tools.function_options import options_of

SPECS = Path(__file__).resolve().parents[2] / "cassettes" / "specs"


def snapshot_path(kind: str) -> Path:
    """Where the client kind's spec snapshot lives."""
    clash = kind in default_hosted_tool_codecs()
    return SPECS / (f"{kind}-client.json" if clash else f"{kind}.json")


def test_every_client_kind_has_a_canonical_tool_and_a_codec() -> None:
    codecs = default_client_tool_codecs()
    for kind, tool in canonical_client_tools().items():
        # A namespace's member is a function tool placed in a namespace, not a provider tool.
        if kind == "namespace":
            assert options_of(tool).namespace is not None
        else:
            assert getattr(tool, "kind", None) == kind
        assert codecs[kind].kind == kind


@pytest.mark.parametrize("kind", sorted(canonical_client_tools()))
def test_client_spec_matches_its_snapshot(kind: str, request: pytest.FixtureRequest) -> None:
    tool = canonical_client_tools()[kind]
    codec = default_client_tool_codecs()[kind]
    spec = codec.serialize(tool)
    assert_wire_valid("Tool", spec)
    codec_name = f"{type(codec).__module__}.{type(codec).__qualname__}"
    document = {"kind": kind, "codec": codec_name, "spec": spec, "tool": tool.name}
    path = snapshot_path(kind)
    if request.config.getoption("--snapshot-update", default=False):
        path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    assert path.is_file(), f"no snapshot {path}: run pytest --snapshot-update and review it"
    assert json.loads(path.read_text(encoding="utf-8")) == document
