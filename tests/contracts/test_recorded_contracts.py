"""One evaluation per tool kind, recorded by tooltape itself and replayed in CI.

Recording (``pytest tests/contracts --record-mode=rewrite`` with any
``OPENAI_API_KEY``) sends the adapter's real request to a loopback server
that answers with a real recorded response body (the imported cassettes) or,
for kinds no real recording covers, a labelled synthetic body. A
client-executed kind takes two replies: the call, then (after the request
that carries the client's answer) a final message. The cassettes land in
``cassettes/tests/contracts/test_recorded_contracts/``; replay needs neither key nor server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
import pytest
from openapi_tools import assert_output_items_valid

from tooltape import Prompt, Section, Session
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import default_client_tool_codecs
from tooltape.testing.cassette import JsonBody, load_cassette
from tooltape.testing.kinds import canonical_client_tools, canonical_companions, canonical_tools
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

REPO = Path(__file__).resolve().parents[2]

SOURCES: dict[str, tuple[str, int]] = {
    "web_search": ("cassettes/imported/model_web_search_tool.json", 0),
    "file_search": ("cassettes/imported/model_file_search_tool.json", 4),
    "code_interpreter": ("cassettes/imported/code_execution_return_image.json", 0),
    "image_generation": ("cassettes/imported/image_generation_jpeg.json", 0),
    "mcp": ("cassettes/imported/model_mcp_server_tool.json", 0),
    "shell": ("fixtures/responses/shell_completed.json", -1),
    "programmatic_tool_calling": ("fixtures/responses/program_completed.json", -1),
    "tool_search": ("fixtures/responses/tool_search_server.json", -1),
    "web_search_preview": ("fixtures/responses/web_search_preview_completed.json", -1),
}


CLIENT_CALLS: dict[str, str] = {
    "apply_patch": "fixtures/responses/apply_patch_calls.json",
    "shell": "fixtures/responses/local_shell_call.json",
    "computer": "fixtures/responses/computer_call.json",
    "computer_use_preview": "fixtures/responses/computer_use_preview_call.json",
    "custom": "fixtures/responses/custom_tool_call.json",
    "namespace": "fixtures/responses/namespace_function_call.json",
    "tool_search": "fixtures/responses/tool_search_client_call.json",
    "local_shell": "fixtures/responses/local_shell_exec_call.json",
}
CLIENT_ANSWERED = "fixtures/responses/client_tool_answered.json"
# The model each client kind is evaluated with, where gpt-5 cannot take it.
CLIENT_MODELS: dict[str, str] = {
    "apply_patch": "gpt-5.1",
    "local_shell": "codex-mini-latest",
    "shell": "gpt-5.1",
    "tool_search": "gpt-5.4",
}


def _synthetic(relative: str) -> dict[str, Any]:
    body = {
        k: v for k, v in json.loads((REPO / relative).read_text()).items() if k != "_provenance"
    }
    # A synthetic body must be a response the provider could send.
    assert_output_items_valid(body["output"])
    return body


def _reply_body(kind: str) -> dict[str, Any]:
    relative, index = SOURCES[kind]
    path = REPO / relative
    if index < 0:
        return _synthetic(relative)
    body = load_cassette(path).interactions[index].response.body
    assert isinstance(body, JsonBody)
    return dict(body.data)  # type: ignore[arg-type]


def _provenance(kind: str) -> str:
    relative, index = SOURCES[kind]
    what = "a synthetic body" if index < 0 else f"the real response body #{index}"
    return (
        f"recorded by tooltape against a loopback server that replayed {what} of {relative}; "
        "the request is this project's own"
    )


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=pytest.mark.tooltape(provenance=_provenance(k)))
        for k in sorted(SOURCES)
    ],
)
def test_hosted_kind_round_trip(kind: str, openai_client: openai.OpenAI) -> None:
    tool = canonical_tools()[kind]
    prompt = Prompt(
        ns="tooltape.contracts",
        key=f"record-{kind}",
        sections=[Section(title="Use the tool", hosted_tools=(tool,))],
    )
    with LoopbackProvider([LoopbackReply.json(_reply_body(kind))]) as server:
        client = openai.OpenAI(api_key=openai_client.api_key, base_url=server.base_url)
        session = Session()
        # capabilities={}: the codec's round trip is recorded here, not the model guard.
        adapter = OpenAIAdapter("gpt-5", client=client, capabilities={})
        response = adapter.evaluate(prompt, session=session)

    output = response.hosted_outputs[tool.name]
    assert type(output).__module__ == f"tooltape.tools.{kind}"
    calls = [e for e in session.tool_invocations if e.kind == kind]
    assert calls, f"no ToolInvoked for {kind}"
    assert all(e.source == "hosted" and e.provider == "openai" for e in calls)


def _client_provenance(kind: str) -> str:
    return (
        "recorded by tooltape against a loopback server that replayed the synthetic bodies "
        f"{CLIENT_CALLS[kind]} then {CLIENT_ANSWERED}; the requests, the client's answer "
        "included, are this project's own"
    )


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=pytest.mark.tooltape(provenance=_client_provenance(k)))
        for k in sorted(CLIENT_CALLS)
    ],
)
def test_client_kind_round_trip(kind: str, openai_client: openai.OpenAI) -> None:
    tool = canonical_client_tools()[kind]
    companions = canonical_companions().get(kind, ())
    prompt = Prompt(
        ns="tooltape.contracts",
        key=f"record-{kind}",
        sections=[Section(title="Use the tool", tools=(tool, *companions))],
    )
    replies = [
        LoopbackReply.json(_synthetic(CLIENT_CALLS[kind])),
        LoopbackReply.json(_synthetic(CLIENT_ANSWERED)),
    ]
    with LoopbackProvider(replies) as server:
        client = openai.OpenAI(api_key=openai_client.api_key, base_url=server.base_url)
        session = Session()
        adapter = OpenAIAdapter(CLIENT_MODELS.get(kind, "gpt-5"), client=client)
        response = adapter.evaluate(prompt, session=session)

    assert response.text == "Done."
    calls = [e for e in session.tool_invocations if e.name == tool.name]
    recorded = _synthetic(CLIENT_CALLS[kind])["output"]
    item_type = default_client_tool_codecs()[kind].call_item_type
    expected = sum(1 for item in recorded if item["type"] == item_type)
    assert len(calls) == expected, f"expected {expected} ToolInvoked for {kind}"
    # A namespace's members are function tools: their calls are function calls.
    source, recorded_kind = ("function", None) if kind == "namespace" else ("native", kind)
    for call in calls:
        assert (call.source, call.kind, call.provider) == (source, recorded_kind, "openai")
        assert call.result.success, call.result.message
