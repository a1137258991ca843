"""A tiny MCP server over streamable HTTP on 127.0.0.1, for tooltape's tests.

It binds a free port itself (no race with another process picking the same
one) and, once uvicorn serves, prints ``PORT <n>`` on stdout. The endpoint is
``/mcp``. Tools: ``get_time`` (a fixed string), ``add(a, b)``, ``fail`` (an
isError result), ``header(name)`` (a request header the client sent) and
``sessions`` (how many HTTP sessions the server holds open).

``--legacy`` makes it answer ``server/discover`` with handshake-era
versions only, so clients fall back to the ``initialize`` handshake and get
an HTTP session (``mcp-session-id``) that they must end when they leave,
as a server built with an older SDK does.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from shared_tools import add_shared_tools

server = MCPServer("http-demo")

add_shared_tools(server)


@server.tool()
def header(name: str, ctx: Context) -> str:
    """The value of one HTTP request header of this call ("" when absent)."""
    return (ctx.headers or {}).get(name.lower(), "")


@server.tool()
def sessions() -> int:
    """How many streamable HTTP sessions the server holds open."""
    # The SDK keeps no public count; the tests need it to see sessions released.
    return len(server.session_manager._server_instances)  # pyright: ignore[reportPrivateUsage]


def legacy_only() -> None:
    """Advertise no modern protocol version: clients use sessions, as with older servers."""
    # The SDK documents replacing the discover handler through the low-level server.
    lowlevel = server._lowlevel_server  # pyright: ignore[reportPrivateUsage]

    async def discover(ctx: Any, params: Any) -> types.DiscoverResult:
        capabilities = lowlevel.get_capabilities(protocol_version=ctx.protocol_version)
        return types.DiscoverResult(supported_versions=["2025-11-25"], capabilities=capabilities)

    lowlevel.add_request_handler("server/discover", types.RequestParams, discover)


async def main() -> None:
    if "--legacy" in sys.argv:
        legacy_only()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = server.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1")
    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(web.serve, [sock])
        while not web.started:
            if web.should_exit:
                return
            await anyio.sleep(0.01)
        print(f"PORT {port}", flush=True)


if __name__ == "__main__":
    anyio.run(main)
