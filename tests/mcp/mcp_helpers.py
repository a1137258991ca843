"""Helpers for tests that run the real demo MCP servers (stdio and HTTP) as subprocesses."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tooltape import InProcessEventBus, MarkdownSection, Prompt, Session
from tooltape.mcp import McpServerSection
from tooltape.runtime import ToolExecutor

SERVER = Path(__file__).parent / "servers" / "demo_server.py"
FIXED_TIME = "2024-05-01T12:00:00Z"


class NamedAdapter:
    """An adapter that only has a name: MCP tools never evaluate prompts."""

    name = "no-provider"

    def evaluate(self, prompt: Any, /, *params: object, **options: Any) -> Any:
        raise AssertionError("MCP tools never evaluate prompts")


def prompt_executor(prompt: Prompt[Any]) -> tuple[ToolExecutor, Session]:
    """An executor for ``prompt`` (its own hooks) and the session that records its calls."""
    bus = InProcessEventBus()
    session = Session(bus)
    executor = ToolExecutor(
        prompt=prompt,
        rendered=prompt.render(),
        adapter=NamedAdapter(),
        session=session,
        bus=bus,
        hooks=prompt.tool_hooks,
        provider="tests",
    )
    return executor, session


def executor_for(
    section: McpServerSection, hooks: Sequence[Callable[..., Any]] = ()
) -> tuple[ToolExecutor, Session]:
    """An executor for a prompt made of one task section and ``section``, under ``hooks``."""
    prompt: Prompt[Any] = Prompt(
        ns="tests",
        key="with-mcp",
        sections=[MarkdownSection(title="Task", key="task", template="Use the tools."), section],
        tool_hooks=hooks,
    )
    return prompt_executor(prompt)


def demo_section(name: str = "demo", *args: str, **options: Any) -> McpServerSection:
    """A stopped section that would run the demo server with this interpreter."""
    return McpServerSection(name, sys.executable, [str(SERVER), *args], **options)


def process_state(pid: int) -> str | None:
    """The kernel's state letter for ``pid`` (``"Z"`` for a zombie), ``None`` if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def wait_gone(pid: int, timeout: float = 10.0) -> bool:
    """Whether ``pid`` disappears completely (exited *and* reaped) within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process_state(pid) is None:
            return True
        time.sleep(0.05)
    return False


def child_pids() -> set[int]:
    """Live or zombie children of this process."""
    me = os.getpid()
    children: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == me:
            children.add(int(entry.name))
    return children


def wait_no_new_children(before: set[int], timeout: float = 10.0) -> set[int]:
    """Children that appeared since ``before`` and are still there after ``timeout``."""
    deadline = time.monotonic() + timeout
    extra = child_pids() - before
    while extra and time.monotonic() < deadline:
        time.sleep(0.05)
        extra = child_pids() - before
    return extra


HTTP_SERVER = Path(__file__).parent / "servers" / "http_server.py"


@dataclass(frozen=True, slots=True)
class HttpServer:
    """A running ``http_server.py`` process and where it listens."""

    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


@contextmanager
def serving_http(*args: str, timeout: float = 30.0) -> Iterator[HttpServer]:
    """Run the streamable HTTP test server until the block ends (it is always terminated)."""
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [sys.executable, str(HTTP_SERVER), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        try:
            port = _announced_port(process, stderr, timeout)
            wait_accepting(port, timeout)
            yield HttpServer(process, port)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            assert process.stdout is not None
            process.stdout.close()


def _announced_port(process: subprocess.Popen[bytes], stderr: IO[bytes], timeout: float) -> int:
    # The server binds port 0 itself, so no other process can take the port
    # between choosing and binding it; it prints the port once it serves.
    assert process.stdout is not None
    fd = process.stdout.fileno()
    deadline = time.monotonic() + timeout
    output = b""
    while b"\n" not in output:
        left = deadline - time.monotonic()
        readable, _, _ = select.select([fd], [], [], max(left, 0))
        chunk = os.read(fd, 1024) if readable else b""
        if not chunk:
            stderr.seek(0)
            log = stderr.read().decode(errors="replace")
            raise RuntimeError(f"{HTTP_SERVER.name} announced no port; its stderr:\n{log}")
        output += chunk
    line = output.split(b"\n", 1)[0].decode()
    assert line.startswith("PORT "), line
    return int(line.split()[1])


def wait_accepting(port: int, timeout: float = 10.0) -> None:
    """Block until something accepts TCP connections on 127.0.0.1:``port``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def unused_port() -> int:
    """A loopback port where nothing listens (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def open_connections_to(port: int) -> int:
    """How many TCP sockets of this process are connected to 127.0.0.1:``port``."""
    inodes: set[str] = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    count = 0
    for line in Path("/proc/self/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        remote_port = int(fields[2].rsplit(":", 1)[1], 16)
        if remote_port == port and fields[9] in inodes:
            count += 1
    return count
