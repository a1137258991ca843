"""A tiny stdio MCP server for tooltape's tests (run with ``sys.executable``).

Tools: ``get_time`` (a fixed string), ``add(a, b)``, ``fail`` (an isError
result), ``pid`` (the server's process id), ``nap(seconds)``, ``crash``
(the process exits mid-call) and ``echo_from`` (a property named ``from``).
``--instructions TEXT`` makes the server send instructions.
"""

from __future__ import annotations

import os
import sys
import time

from mcp.server.mcpserver import MCPServer
from shared_tools import add_shared_tools

instructions = None
if "--instructions" in sys.argv:
    instructions = sys.argv[sys.argv.index("--instructions") + 1]

server = MCPServer("demo", instructions=instructions)

add_shared_tools(server)


@server.tool()
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool()
def nap(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return f"slept {seconds}"


@server.tool()
def crash() -> str:
    """Exit the process in the middle of the call."""
    os._exit(3)


if __name__ == "__main__":
    server.run("stdio")
