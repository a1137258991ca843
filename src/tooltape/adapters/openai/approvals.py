"""Hosted MCP approval requests, answered by the tool's approver under the hooks.

An ``mcp_approval_request`` item asks the client whether the provider may
call a tool on a remote MCP server. The hosted MCP tool whose
``server_label`` the request names decides through its approver; the
decision is a tool invocation like any other (hooks see it with
``ctx.approval`` set and may replace it, a ``ToolInvoked`` records it) and
goes back as an ``mcp_approval_response`` input item.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tooltape.adapters.openai.codecs.items import text
from tooltape.adapters.openai.codecs.mcp import approval_request
from tooltape.prompt import PromptEvaluationError, RenderedPrompt, ToolResult
from tooltape.runtime import ToolExecutor
from tooltape.tools.mcp import HostedMcpTool, McpApprovalDecision, McpApprovalRequest

REQUEST_ITEM = "mcp_approval_request"
RESPONSE_ITEM = "mcp_approval_response"


@dataclass(frozen=True, slots=True)
class PendingApproval:
    """An approval request and the hosted MCP tool that answers it."""

    request: McpApprovalRequest
    tool: HostedMcpTool


def pending_approvals(
    rendered: RenderedPrompt[Any], items: Sequence[object]
) -> list[PendingApproval]:
    """Every approval request in ``items`` with its tool; raises before anything runs when
    one cannot be answered (no such server, or a tool without an approver)."""
    pending: list[PendingApproval] = []
    for item in items:
        if text(item, "type") != REQUEST_ITEM:
            continue
        request = approval_request(item)
        tool = next(
            (
                t
                for t in rendered.hosted_tools
                if t.kind == "mcp"
                and getattr(t.config, "server_label", None) == request.server_label
            ),
            None,
        )
        asked = f"{request.server_label}.{request.name} (approval request {request.id})"
        if tool is None:
            raise PromptEvaluationError(
                f"OpenAI asked to approve {asked}, but no hosted MCP tool of the prompt has the "
                f"server_label {request.server_label!r}.",
                prompt_name=rendered.prompt_name,
                phase="response",
            )
        approver = tool.approver if isinstance(tool, HostedMcpTool) else None
        if approver is None or not isinstance(tool, HostedMcpTool):
            raise PromptEvaluationError(
                f"OpenAI asks to approve {asked}: the hosted MCP tool {tool.name!r} requires "
                "approval but has no approver to answer it. Give one "
                "(hosted_mcp_tool(..., approver=...), HostedMcpSection(..., approver=...), or "
                "`approver: file.py:function` in a card), or set require_approval='never' (or an "
                "McpApprovalPolicy) for calls that need none.",
                prompt_name=rendered.prompt_name,
                phase="tool",
            )
        pending.append(PendingApproval(request, tool))
    return pending


def _decide(pending: PendingApproval) -> ToolResult[Any]:
    request = pending.request
    assert pending.tool.approver is not None
    outcome: object = pending.tool.approver(request)
    if isinstance(outcome, bool):
        decision = McpApprovalDecision(outcome)
    elif isinstance(outcome, McpApprovalDecision):
        decision = outcome
    else:
        raise TypeError(
            f"the approver returned {type(outcome).__name__}; return an McpApprovalDecision "
            "or a bool"
        )
    asked = f"{request.server_label}.{request.name}"
    if decision.approve:
        return ToolResult.ok(decision, message=decision.reason or f"Approved {asked}.")
    return ToolResult.error(decision.reason or f"The client's approval policy denied {asked}.")


def answer_approvals(
    pending: Sequence[PendingApproval], executor: ToolExecutor
) -> list[dict[str, Any]]:
    """Decide each request (through the hooks) and return the ``mcp_approval_response`` items."""
    answers: list[dict[str, Any]] = []
    for approval in pending:
        request = approval.request
        result = executor.decide_approval(
            name=approval.tool.name,
            call_id=request.id,
            params=request,
            decide=lambda approval=approval: _decide(approval),
            kind="mcp",
            server_name=request.server_label,
        )
        answer: dict[str, Any] = {
            "type": RESPONSE_ITEM,
            "approval_request_id": request.id,
            "approve": result.success,
        }
        decision = result.value
        reason = (
            decision.reason
            if result.success and isinstance(decision, McpApprovalDecision)
            else None
            if result.success
            else result.message
        )
        if reason:
            answer["reason"] = reason
        answers.append(answer)
    return answers
