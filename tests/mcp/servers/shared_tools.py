"""The tools both test servers (stdio and HTTP) offer: ``get_time``, ``add``, ``fail``."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

FIXED_TIME = "2024-05-01T12:00:00Z"


def add_shared_tools(server: MCPServer) -> None:
    """Register the shared tools on ``server``; ``fail`` names the server in its refusal."""

    @server.tool()
    def get_time() -> str:
        """Return the current time (always the same, for tests)."""
        return FIXED_TIME

    @server.tool()
    def add(
        a: Annotated[int, Field(description="The first addend.")],
        b: Annotated[int, Field(description="The second addend.")] = 2,
    ) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def fail() -> str:
        """Always fails."""
        raise ToolError(f"the {server.name} server refuses")
