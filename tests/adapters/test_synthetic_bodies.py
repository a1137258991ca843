"""Synthetic response bodies of the kinds no real recording covers are responses the provider
could send: every output item is valid for the official OpenAPI ``OutputItem`` union and for
the installed SDK's ``ResponseOutputItem`` union."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import ResponseOutputItem
from openapi_tools import assert_output_items_valid
from pydantic import TypeAdapter

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "responses"
SDK_ITEM: TypeAdapter[Any] = TypeAdapter(ResponseOutputItem)

# The bodies the contract cassettes of the newer kinds were recorded from.
SPEC_VALID = [
    "client_tool_answered.json",
    "computer_call.json",
    "computer_use_preview_call.json",
    "custom_tool_call.json",
    "local_shell_exec_call.json",
    "namespace_function_call.json",
    "program_calls_function.json",
    "program_completed.json",
    "shell_completed.json",
    "tool_search_client_call.json",
    "tool_search_server.json",
    "web_search_preview_completed.json",
]


@pytest.mark.parametrize("name", SPEC_VALID)
def test_synthetic_body_is_a_valid_response(name: str) -> None:
    body = json.loads((FIXTURES / name).read_text())
    assert body["_provenance"].startswith("synthetic: ")
    assert_output_items_valid(body["output"])
    for item in body["output"]:
        assert SDK_ITEM.validate_python(item).type == item["type"]
