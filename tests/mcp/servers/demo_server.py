"""A tiny stdio MCP server for tooltape's tests (run with ``sys.executable``).

Tools: ``get_time`` (a fixed string), ``add(a, b)``, ``fail`` (an isError
result), ``pid`` (the server's process id), ``nap(seconds)``, ``crash``
(the process exits mid-call), ``echo_from`` (a property named ``from``) and
``spawn(detach, keep_wire)`` (starts ``sleep 60`` and returns its pid: in
the server's process group, or in a session of its own with ``detach``;
holding the pipes the server speaks MCP over with ``keep_wire``, as the
child of a server that does not guard them would).
``--instructions TEXT`` makes the server send instructions.
"""

from __future__ import annotations

import os
import stat
import subprocess
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
def spawn(detach: bool = False, keep_wire: bool = False) -> int:
    """Start a child that outlives this call; return its pid."""
    # The SDK moves the wire off fds 0 and 1; its pipes are this process's only pipes.
    fds = [int(fd) for fd in os.listdir("/proc/self/fd")] if keep_wire else []
    wire = [fd for fd in fds if _is_pipe(fd)]
    child = subprocess.Popen(
        ["sleep", "60"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=detach,
        pass_fds=wire,
    )
    return child.pid


def _is_pipe(fd: int) -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(fd).st_mode)
    except OSError:
        return False


@server.tool()
def crash() -> str:
    """Exit the process in the middle of the call."""
    os._exit(3)


if __name__ == "__main__":
    server.run("stdio")
