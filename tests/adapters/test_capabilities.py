"""The capability table: matched by model family, every refusal sourced."""

from __future__ import annotations

import pytest
from openapi_tools import document

from tooltape.adapters.openai import CAPABILITY_TABLE, DEFAULT_CAPABILITIES, model_family
from tooltape.adapters.openai.capabilities import KNOWN_KINDS, refusal


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("gpt-5-nano", "gpt-5-nano"),
        ("gpt-5-nano-2025-08-07", "gpt-5-nano"),
        ("gpt-5.1-2025-11-13", "gpt-5.1"),
        ("gpt-5-chat-latest", "gpt-5-chat-latest"),
        ("ft:gpt-4o-mini-2024-07-18:acme::abc123", "gpt-4o-mini"),
    ],
)
def test_a_model_id_names_its_family_without_snapshot_or_fine_tune(model: str, family: str) -> None:
    assert model_family(model) == family


def test_small_and_chat_gpt5_models_do_not_inherit_what_later_families_take() -> None:
    for model in ("gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-chat-latest"):
        assert {"shell", "apply_patch"}.isdisjoint(DEFAULT_CAPABILITIES[model]), model
        assert "web_search" in DEFAULT_CAPABILITIES[model]
    assert {"shell", "apply_patch"} <= DEFAULT_CAPABILITIES["gpt-5.1"]
    assert refusal("gpt-5.1", "tool_search") is not None
    assert refusal("gpt-5.4-2026-03-05", "tool_search") is None
    assert refusal("codex-mini-latest", "local_shell") is None
    assert refusal("gpt-5.5", "local_shell") is not None


def test_every_refusal_cites_a_documentation_page_and_what_it_says() -> None:
    assert CAPABILITY_TABLE
    for family in CAPABILITY_TABLE:
        assert family.refuses, f"{family.name} is in the table without a documented refusal"
        for kind, evidence in family.refuses.items():
            assert kind in KNOWN_KINDS
            assert evidence.url.startswith("https://developers.openai.com/api/docs/")
            assert len(evidence.says) > 20
            reason = refusal(family.name, kind)
            assert reason is not None and evidence.url in reason


def _api_tool_types() -> set[str]:
    """The ``type`` of every member of the OpenAPI ``Tool`` union (dated aliases left out)."""
    schemas = document()["components"]["schemas"]
    names = (branch["$ref"].rsplit("/", 1)[-1] for branch in schemas["Tool"]["oneOf"])
    return {schemas[name]["properties"]["type"]["enum"][0] for name in names}


def test_the_table_speaks_of_every_tool_type_by_its_api_name() -> None:
    # Every tool type but function tools, which the table never limits.
    assert _api_tool_types() - {"function"} == KNOWN_KINDS


def test_a_kind_no_page_limits_is_never_refused() -> None:
    assert refusal("gpt-4o", "my_project_kind") is None
    assert refusal("gpt-4o", "custom") is None
    assert refusal("an-unknown-model", "shell") is None
