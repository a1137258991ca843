"""Which kind a recorded call belongs to when several kinds share a call item type."""

from __future__ import annotations

from typing import Any

import pytest

from tooltape.testing.contracts.attribution import claims, same_kind

WEB_SEARCH = {"type": "web_search"}
PREVIEW = {"type": "web_search_preview"}
HOSTED_SHELL = {"type": "shell", "environment": {"type": "container_auto"}}
LOCAL_SHELL = {"type": "shell", "environment": {"type": "local"}}
FUNCTION = {"type": "function", "name": "f", "parameters": {}}
NAMESPACE = {"type": "namespace", "name": "orders", "tools": []}


def _request(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-5", "input": "hi", "tools": list(tools)}


def test_a_dated_alias_is_its_kind() -> None:
    assert same_kind({"type": "web_search_preview_2025_03_11"}, PREVIEW)
    assert not same_kind({"type": "web_search_preview_2025_03_11"}, WEB_SEARCH)


@pytest.mark.parametrize(
    ("declared", "spec", "expected"),
    [
        (WEB_SEARCH, WEB_SEARCH, True),
        (WEB_SEARCH, PREVIEW, False),
        (PREVIEW, WEB_SEARCH, False),
        (HOSTED_SHELL, LOCAL_SHELL, False),
        (LOCAL_SHELL, LOCAL_SHELL, True),
        ({"type": "tool_search", "execution": "client"}, {"type": "tool_search"}, False),
        (FUNCTION, NAMESPACE, False),
    ],
)
def test_a_request_claims_only_the_kind_it_offered(
    declared: dict[str, Any], spec: dict[str, Any], expected: bool
) -> None:
    assert claims(_request(declared), spec) is expected


def test_a_request_offering_both_kinds_is_claimed_by_both() -> None:
    request = _request(WEB_SEARCH, PREVIEW)
    assert claims(request, WEB_SEARCH) and claims(request, PREVIEW)


def test_a_request_with_no_tools_list_goes_to_the_kind_its_items_are_named_after() -> None:
    bare = {"model": "gpt-5", "input": "hi"}
    assert claims(bare, WEB_SEARCH) and claims(bare, HOSTED_SHELL) and claims(bare, FUNCTION)
    assert not claims(bare, PREVIEW)
    assert not claims(bare, LOCAL_SHELL)
    assert not claims(bare, NAMESPACE)
    assert claims(None, WEB_SEARCH)
