"""The demo's stdio MCP server: a clock (fixed, so the recorded conversation replays)."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server = MCPServer("clock")

NOW = "2025-01-15T14:30:00Z"


@server.tool()
def get_time() -> str:
    """The current UTC time (fixed in this demo)."""
    return NOW


@server.tool()
def set_time(value: str) -> str:
    """Set the clock (the card's guard hook blocks this tool)."""
    raise RuntimeError("set_time must never run: the guard blocks it")


if __name__ == "__main__":
    server.run("stdio")
