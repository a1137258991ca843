"""Kill a child process and everything it started, also what left its process group.

A command or server started with ``start_new_session=True`` leads its own
process group, and ``killpg`` ends every member at once. A descendant that
calls ``setsid`` (or ``setpgid``) leaves that group, and one whose parent
has exited is adopted by init, so neither the group nor the parent links
find it any more. On Linux, ``/proc`` finds the rest: every descendant of a
member of the tree while the links still hold, and every process that
holds one of the child's pipes open (a detached child that still writes
to the output we read). Elsewhere only the group is killed.

Processes are known by pid and start time, and signalled through a pidfd
opened before the start time is checked, so a pid the system has since
given to another process is never signalled.
"""

from __future__ import annotations

import os
import signal
import stat
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ProcessTree", "child_writing_to", "pipe_holders"]

_PROC = Path("/proc")
# Each round stops what it found (a stopped process cannot fork) and looks
# again from there; a tree is usually whole after two.
_MAX_ROUNDS = 8


@dataclass(frozen=True, slots=True)
class _Entry:
    pid: int
    parent: int
    group: int
    start: int


def _entry(pid: int) -> _Entry | None:
    try:
        line = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ppid pgrp session ... starttime ...": comm may hold
    # spaces and parentheses, so count fields from the last ")".
    fields = line[line.rfind(b")") + 2 :].split()
    if len(fields) < 20 or fields[0] == b"Z":
        return None
    return _Entry(pid, int(fields[1]), int(fields[2]), int(fields[19]))


def _processes() -> dict[int, _Entry]:
    try:
        names = os.listdir(_PROC)
    except OSError:
        return {}
    entries = (_entry(int(name)) for name in names if name.isdigit())
    return {entry.pid: entry for entry in entries if entry is not None}


def _pipe_link(path: str | Path | int) -> str | None:
    # The link text /proc shows for a descriptor on this pipe: "pipe:[inode]".
    try:
        found = os.stat(path) if not isinstance(path, int) else os.fstat(path)
    except OSError:
        return None
    return f"pipe:[{found.st_ino}]" if stat.S_ISFIFO(found.st_mode) else None


def pipe_holders(links: Iterable[str]) -> set[int]:
    """The processes (other than this one) with an open descriptor on one of the pipes
    named by ``links`` (``/proc`` link texts such as ``pipe:[1234]``)."""
    wanted = set(links)
    holders: set[int] = set()
    try:
        names = os.listdir(_PROC) if wanted else []
    except OSError:
        return holders
    own = os.getpid()
    for name in names:
        if not name.isdigit() or int(name) == own:
            continue
        folder = _PROC / name / "fd"
        try:
            descriptors = os.listdir(folder)
        except OSError:
            continue
        for descriptor in descriptors:
            with suppress(OSError):
                if os.readlink(folder / descriptor) in wanted:
                    holders.add(int(name))
                    break
    return holders


def child_writing_to(file: int, *, descriptor: int) -> int | None:
    """The child of this process whose ``descriptor`` is open on the same file as this
    process's descriptor ``file`` (how to tell which child got a log file), or ``None``."""
    try:
        wanted = os.fstat(file)
    except OSError:
        return None
    own = os.getpid()
    for entry in _processes().values():
        if entry.parent != own:
            continue
        try:
            found = os.stat(_PROC / str(entry.pid) / "fd" / str(descriptor))
        except OSError:
            continue
        if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
            return entry.pid
    return None


class ProcessTree:
    """The process group a child leads, its descendants, and the holders of its pipes.

    ``leader`` is the pid of a child started in its own session (so its pid
    is its group id), created while the child runs. Its pipes are this
    process's descriptors ``pipes`` (our ends of the child's pipes) and,
    with ``stdio_pipes``, the pipes the child has as stdin and stdout.
    """

    def __init__(
        self, leader: int, pipes: Iterable[int] = (), *, stdio_pipes: bool = False
    ) -> None:
        self.leader = leader
        ends: list[str | Path | int] = list(pipes)
        if stdio_pipes:
            ends += [_PROC / str(leader) / "fd" / "0", _PROC / str(leader) / "fd" / "1"]
        self._pipes = {link for link in map(_pipe_link, ends) if link is not None}
        found = _entry(leader)
        self._leader_start = found.start if found is not None else None
        self._known: dict[int, _Entry] = {}

    def remember(self) -> int:
        """Find the tree's processes now and keep them for ``kill()``; returns how many.

        Call it while the leader runs: once it exits, its children lose
        their parent link and only the group or the pipes still find them.
        """
        processes = _processes()
        for pid in self._members(processes, set(self._known) | {self.leader}):
            self._known[pid] = processes[pid]
        return len(self._known)

    def kill(self) -> None:
        """SIGKILL the whole tree: the group, every descendant of its members (stopped
        first, so none forks meanwhile), what ``remember()`` found, and the pipes' holders."""
        stopped: dict[int, _Entry] = {}
        fresh = dict(self._known)
        for _ in range(_MAX_ROUNDS):
            processes = _processes()
            fresh |= {
                pid: processes[pid]
                for pid in self._members(processes, set(stopped) | {self.leader})
                if pid not in stopped
            }
            if not fresh:
                break
            for entry in fresh.values():
                _signal(entry, signal.SIGSTOP)
            stopped |= fresh
            fresh = {}
        if self._group_is_ours(_processes()):
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.leader, signal.SIGKILL)
        for entry in stopped.values():
            _signal(entry, signal.SIGKILL)
        self._known.clear()

    def _group_is_ours(self, processes: dict[int, _Entry]) -> bool:
        # The group id is the leader's pid: once the leader is gone that pid
        # may lead someone else's group, which must not be killed.
        if self.leader <= 1 or self.leader == os.getpgrp():
            return False
        current = processes.get(self.leader)
        return (
            current is None or current.start == self._leader_start or current.group != self.leader
        )

    def _members(self, processes: dict[int, _Entry], roots: set[int]) -> set[int]:
        tree = {pid for pid in roots if pid in processes and self._same(processes[pid])}
        if self._group_is_ours(processes):
            tree |= {pid for pid, entry in processes.items() if entry.group == self.leader}
        children: dict[int, list[int]] = {}
        for entry in processes.values():
            children.setdefault(entry.parent, []).append(entry.pid)
        pending = list(tree)
        while pending:
            for child in children.get(pending.pop(), ()):
                if child not in tree:
                    tree.add(child)
                    pending.append(child)
        tree |= {pid for pid in pipe_holders(self._pipes) if pid in processes}
        tree.discard(os.getpid())
        return {pid for pid in tree if pid > 1}

    def _same(self, entry: _Entry) -> bool:
        known = self._known.get(entry.pid)
        if entry.pid == self.leader:
            return entry.start == self._leader_start
        return known is None or known.start == entry.start


def _signal(entry: _Entry, number: signal.Signals) -> None:
    handle: int | None = None
    with suppress(OSError, AttributeError):
        handle = os.pidfd_open(entry.pid)
    try:
        if not _same_process(entry):
            return
        with suppress(ProcessLookupError, PermissionError):
            if handle is not None:
                signal.pidfd_send_signal(handle, number)
            else:
                # No pidfds (Linux before 5.3): checked, then signalled by pid.
                os.kill(entry.pid, number)
    finally:
        if handle is not None:
            os.close(handle)


def _same_process(entry: _Entry) -> bool:
    current = _entry(entry.pid)
    return current is not None and current.start == entry.start
