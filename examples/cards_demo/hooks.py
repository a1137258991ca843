"""Tool hooks of the demo card: one audit and one guard, for every kind of tool.

They see function tools, MCP tools, agent tools and client-executed provider
tools alike; ``ctx.tool_source`` says which one a call is.
"""

from __future__ import annotations

import logging
from typing import Any

from tooltape import ToolResult

audit_log = logging.getLogger("cards_demo.audit")

# (tool_source, tool_name) pairs no model may call, whatever it is told.
BLOCKED = {
    ("mcp", "clock__set_time"),
    ("native", "shell"),
}


def audit(ctx: Any, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    """Record each call: where the tool lives, its name, its server, and the outcome."""
    result = call_next(args)
    outcome = "ok" if result.success else f"failed: {result.message}"
    server = f" ({ctx.server_name})" if ctx.server_name else ""
    audit_log.info("%s %s%s -> %s", ctx.tool_source, ctx.tool_name, server, outcome)
    return result


def guard(ctx: Any, args: dict[str, Any], call_next: Any) -> ToolResult[Any]:
    """Refuse the calls listed in BLOCKED without running them."""
    if (ctx.tool_source, ctx.tool_name) in BLOCKED:
        return ToolResult.error(f"blocked by policy: {ctx.tool_name} may not be called")
    return call_next(args)
