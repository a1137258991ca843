"""Helpers for tests that run the real demo MCP server as a subprocess."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from tooltape.mcp import McpServerSection

SERVER = Path(__file__).parent / "servers" / "demo_server.py"
FIXED_TIME = "2024-05-01T12:00:00Z"


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
