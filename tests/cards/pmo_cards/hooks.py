"""Hooks for the PMO test card: an audit that records and a guard that blocks."""

from __future__ import annotations

import logging
from typing import Any

from tooltape import ToolResult

audit_log = logging.getLogger("tooltape.tests.card_audit")

BLOCKED = {
    ("function", "wipe"),
    ("mcp", "time__nap"),
    ("agent", "london"),
    ("native", "shell"),
}


def audit(ctx: Any, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    """Record every call (source, name, server) and its outcome."""
    result = call_next(args)
    audit_log.info("%s %s %s %s", ctx.tool_source, ctx.tool_name, ctx.server_name, result.success)
    return result


def guard(ctx: Any, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    """Refuse the (source, name) pairs listed in BLOCKED without running them."""
    if (ctx.tool_source, ctx.tool_name) in BLOCKED:
        return ToolResult.error(f"blocked by policy: {ctx.tool_source} {ctx.tool_name}")
    return call_next(args)
