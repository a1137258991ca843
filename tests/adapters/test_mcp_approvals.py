"""Hosted MCP approvals: the approver decides, hooks see it, the loop answers and goes on.

The provider is scripted (``ProviderFaults``); the first response is the
labelled synthetic fixture ``fixtures/responses/mcp_approval_request.json``,
the follow-ups are synthetic minimal bodies. Every request sent is checked
against the official request schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openapi_wire import assert_valid_request_body

from tooltape import (
    MarkdownSection,
    Prompt,
    PromptEvaluationError,
    PromptValidationError,
    Session,
    Tool,
    ToolResult,
)
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.cards import CardError, read_card
from tooltape.runtime.hooks import ToolHookContext
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.mcp import (
    HostedMcpConfig,
    HostedMcpSection,
    McpApprovalDecision,
    McpApprovalRequest,
    hosted_mcp_tool,
)

REPO = Path(__file__).resolve().parents[2]
MCP_URL = "https://mcp.deepwiki.com/mcp"


def approval_response() -> dict[str, Any]:
    body = json.loads((REPO / "fixtures/responses/mcp_approval_request.json").read_text())
    return {k: v for k, v in body.items() if k != "_provenance"}


def message(text: str) -> dict[str, Any]:
    return {
        "id": "msg_synth_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def mcp_call_response() -> dict[str, Any]:
    return {
        "id": "resp_synthetic_after_approval",
        "object": "response",
        "status": "completed",
        "output": [
            {
                "id": "mcp_synth_1",
                "type": "mcp_call",
                "server_label": "deepwiki",
                "name": "read_wiki_structure",
                "arguments": '{"repoName":"openai/openai-python"}',
                "output": "1. Overview",
                "approval_request_id": "mcpr_synth_1",
            },
            message("It has an overview."),
        ],
    }


def prompt(approver: Any = None) -> Prompt[Any]:
    config = HostedMcpConfig("deepwiki", server_url=MCP_URL)
    return Prompt(
        ns="t",
        key="wiki",
        sections=[
            MarkdownSection(title="T", template="What is in the wiki?"),
            HostedMcpSection(config, approver=approver),
        ],
    )


@pytest.fixture
def faults() -> ProviderFaults:
    return ProviderFaults()


def test_require_approval_is_sent_as_the_api_default_unless_configured() -> None:
    adapter = OpenAIAdapter("gpt-5")
    body = adapter.build_request(prompt())
    assert body["tools"][0]["require_approval"] == "always"
    never = HostedMcpConfig("deepwiki", server_url=MCP_URL, require_approval="never")
    explicit = Prompt(ns="t", key="n", sections=[HostedMcpSection(never)])
    assert adapter.build_request(explicit)["tools"][0]["require_approval"] == "never"
    unset = HostedMcpConfig("deepwiki", server_url=MCP_URL, require_approval=None)
    assert unset.require_approval == "always"


def test_an_approved_request_is_answered_and_the_loop_goes_on(faults: ProviderFaults) -> None:
    asked: list[McpApprovalRequest] = []

    def approve(request: McpApprovalRequest) -> McpApprovalDecision:
        asked.append(request)
        return McpApprovalDecision.approved("read-only tool")

    faults.script(faults.ok(approval_response()), faults.ok(mcp_call_response()))
    session = Session()
    response = OpenAIAdapter("gpt-5", client=faults.client()).evaluate(
        prompt(approve), session=session
    )

    assert response.text == "It has an overview."
    assert asked == [
        McpApprovalRequest(
            id="mcpr_synth_1",
            name="read_wiki_structure",
            arguments={"repoName": "openai/openai-python"},
            raw_arguments='{"repoName":"openai/openai-python"}',
            server_label="deepwiki",
        )
    ]
    second = faults.calls[1].json()
    assert second["input"][-1] == {
        "type": "mcp_approval_response",
        "approval_request_id": "mcpr_synth_1",
        "approve": True,
        "reason": "read-only tool",
    }
    assert any(item.get("type") == "mcp_approval_request" for item in second["input"])
    for call in faults.calls:
        assert_valid_request_body(call.json())
    listing, decision, call = session.tool_invocations
    assert (decision.approval, decision.kind, decision.source) == (True, "mcp", "hosted")
    assert decision.call_id == "mcpr_synth_1" and decision.result.success
    assert decision.params == asked[0]
    assert not listing.approval and not call.approval
    assert call.call_id == "mcp_synth_1"


def test_hooks_see_the_approval_and_can_deny_it(faults: ProviderFaults) -> None:
    seen: list[tuple[str, bool, str | None, dict[str, Any]]] = []

    def no_writes(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
        seen.append((ctx.tool_name, ctx.approval, ctx.server_name, args))
        if ctx.approval and args["name"].startswith("read_"):
            return ToolResult.error("reading the wiki is not allowed today")
        return call_next(args)

    def approve_all(request: McpApprovalRequest) -> bool:
        return True

    denied_answer = {
        "id": "resp_synthetic_denied",
        "object": "response",
        "status": "completed",
        "output": [message("I may not read it.")],
    }
    faults.script(faults.ok(approval_response()), faults.ok(denied_answer))
    session = Session()
    response = OpenAIAdapter("gpt-5", client=faults.client()).evaluate(
        prompt(approve_all), session=session, tool_hooks=[no_writes]
    )

    assert response.text == "I may not read it."
    assert seen[0][:3] == ("mcp", False, "deepwiki")  # the tool listing, not an approval
    assert seen[1] == (
        "mcp",
        True,
        "deepwiki",
        {
            "id": "mcpr_synth_1",
            "name": "read_wiki_structure",
            "arguments": {"repoName": "openai/openai-python"},
            "raw_arguments": '{"repoName":"openai/openai-python"}',
            "server_label": "deepwiki",
        },
    )
    assert faults.calls[1].json()["input"][-1] == {
        "type": "mcp_approval_response",
        "approval_request_id": "mcpr_synth_1",
        "approve": False,
        "reason": "reading the wiki is not allowed today",
    }
    (decision,) = [e for e in session.tool_invocations if e.approval]
    assert not decision.result.success


def test_an_approver_that_raises_denies_the_call(faults: ProviderFaults) -> None:
    def broken(request: McpApprovalRequest) -> McpApprovalDecision:
        raise RuntimeError("policy service down")

    faults.script(faults.ok(approval_response()), faults.ok(faults.response_json("fine")))
    OpenAIAdapter("gpt-5", client=faults.client()).evaluate(prompt(broken))
    answer = faults.calls[1].json()["input"][-1]
    assert answer["approve"] is False
    assert "policy service down" in answer["reason"]


def test_without_an_approver_the_evaluation_fails_saying_how_to_give_one(
    faults: ProviderFaults,
) -> None:
    ran: list[int] = []

    def add_one(x: int) -> int:
        """Add one."""
        ran.append(x)
        return x + 1

    body = approval_response()
    body["output"].append(
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "add_one",
            "arguments": '{"x": 1}',
            "status": "completed",
        }
    )
    faults.script(faults.ok(body))
    config = HostedMcpConfig("deepwiki", server_url=MCP_URL)
    unapproved = Prompt(
        ns="t",
        key="wiki",
        sections=[
            MarkdownSection(title="T", template="go", tools=[Tool.from_function(add_one)]),
            HostedMcpSection(config),
        ],
    )
    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=faults.client()).evaluate(unapproved)
    assert raised.value.phase == "tool"
    message = str(raised.value)
    assert "deepwiki.read_wiki_structure" in message and "approver" in message
    assert "require_approval='never'" in message
    assert len(faults.calls) == 1 and ran == []


def test_an_approver_that_cannot_take_a_request_is_refused_when_declared() -> None:
    def takes_nothing() -> bool:
        return True

    config = HostedMcpConfig("deepwiki", server_url=MCP_URL)
    with pytest.raises(PromptValidationError, match=r"approver\(request\)"):
        hosted_mcp_tool(config, approver=takes_nothing)  # type: ignore[arg-type]


CARD = """---
name: wiki_reader
hosted_tools:
  - kind: mcp
    name: wiki
    approver: approvals.py:{function}
    config:
      server_label: deepwiki
      server_url: https://mcp.deepwiki.com/mcp
---
Answer from the wiki.
"""

APPROVALS = """
from tooltape.tools.mcp import McpApprovalDecision


def only_reads(request):
    if request.name.startswith("read_"):
        return McpApprovalDecision.approved()
    return McpApprovalDecision.denied(f"{request.name} writes")


def no_argument():
    return True
"""


def test_a_card_names_its_approver_like_a_hook(tmp_path: Path, faults: ProviderFaults) -> None:
    (tmp_path / "approvals.py").write_text(APPROVALS)
    (tmp_path / "card.md").write_text(CARD.format(function="only_reads"))
    card = read_card(tmp_path / "card.md")

    faults.script(faults.ok(approval_response()), faults.ok(mcp_call_response()))
    OpenAIAdapter("gpt-5", client=faults.client()).evaluate(card.prompt)
    assert faults.calls[1].json()["input"][-1]["approve"] is True

    (tmp_path / "bad.md").write_text(CARD.format(function="no_argument"))
    with pytest.raises(CardError) as raised:
        read_card(tmp_path / "bad.md")
    assert raised.value.field == "hosted_tools[0].approver"

    web = "  - {kind: web_search, approver: approvals.py:only_reads}"
    (tmp_path / "web.md").write_text(f"---\nname: web\nhosted_tools:\n{web}\n---\nGo.\n")
    with pytest.raises(CardError, match="hosted mcp tools only"):
        read_card(tmp_path / "web.md")
