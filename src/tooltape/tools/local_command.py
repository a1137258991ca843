"""Run one command on this machine with a deadline, keeping a bounded part of its output.

The command runs in its own session (so its own process group). Its output
is read as it comes and only the first ``max_output_bytes`` of each stream
are kept; the rest is read and dropped, so a command that prints gigabytes
neither fills memory nor blocks on a full pipe. The command is done when
it has exited and its output is closed; at the deadline its whole process
tree is killed (``ProcessTree``: the group, descendants that left it, and
anything still holding its pipes) and reading stops, without waiting for
the pipes to close. A command that finishes leaves nothing behind in its
group either.
"""

from __future__ import annotations

import codecs
import math
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from tooltape.runtime.process_tree import ProcessTree

__all__ = ["DEFAULT_MAX_OUTPUT_BYTES", "CommandRun", "run_command"]

DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024
"""Bytes of stdout, and again of stderr, a command's result keeps by default."""

_CHUNK = 64 * 1024
# Without a pidfd the exit is noticed by polling this often.
_EXIT_POLL_S = 0.02
# SIGKILL is not instant: the time the kernel gets to end the leader.
_REAP_TIMEOUT_S = 2.0


@dataclass(frozen=True, slots=True)
class CommandRun:
    """How a command ended and the part of its output that was kept.

    ``exit_code`` is ``None`` when the deadline passed first (``timed_out``);
    ``*_dropped`` count the bytes read past the limit and discarded.
    """

    stdout: bytes
    stderr: bytes
    exit_code: int | None
    timed_out: bool
    stdout_dropped: int = 0
    stderr_dropped: int = 0

    @property
    def truncated(self) -> bool:
        """Whether any output was discarded."""
        return bool(self.stdout_dropped or self.stderr_dropped)

    def stdout_text(self) -> str:
        """Stdout as text, ending with a note of what was discarded, if anything."""
        return _text(self.stdout, self.stdout_dropped)

    def stderr_text(self) -> str:
        """Stderr as text, ending with a note of what was discarded, if anything."""
        return _text(self.stderr, self.stderr_dropped)


def _text(data: bytes, dropped: int) -> str:
    if not dropped:
        return data.decode("utf-8", errors="replace")
    # The limit can cut a character in two: its first bytes are left out, not replaced.
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    text = decoder.decode(data)
    left_out = dropped + len(decoder.getstate()[0])
    return f"{text}\n[output truncated: {left_out} more bytes not kept]"


class _Capture:
    __slots__ = ("dropped", "kept", "limit")

    def __init__(self, limit: int) -> None:
        self.kept = bytearray()
        self.dropped = 0
        self.limit = limit

    def add(self, data: bytes) -> None:
        room = max(0, self.limit - len(self.kept))
        self.kept += data[:room]
        self.dropped += max(0, len(data) - room)


class _Exit:
    """Notices the leader's exit without reaping it: while it is an unreaped zombie its
    pid, and so its group id, cannot be given to another process."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.handle: int | None = None
        with suppress(OSError, AttributeError):
            self.handle = os.pidfd_open(process.pid)

    def happened(self) -> bool:
        if hasattr(os, "waitid"):
            with suppress(ChildProcessError):
                return (
                    os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                    is not None
                )
            return True
        return self.process.poll() is not None

    def close(self) -> None:
        if self.handle is not None:
            os.close(self.handle)
            self.handle = None


def run_command(
    argv: Sequence[str],
    *,
    cwd: Path | None,
    timeout_s: float,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
) -> CommandRun:
    """Run ``argv`` for at most ``timeout_s`` seconds, keeping at most ``max_output_bytes``
    of stdout and of stderr; an ``OSError`` if it cannot start."""
    deadline = time.monotonic() + timeout_s
    process = subprocess.Popen(
        list(argv),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdout is not None and process.stderr is not None
    captures = {
        process.stdout.fileno(): _Capture(max_output_bytes),
        process.stderr.fileno(): _Capture(max_output_bytes),
    }
    tree = ProcessTree(process.pid, captures)
    leader = _Exit(process)
    try:
        try:
            timed_out = not _read_until_done(leader, captures, deadline)
        except BaseException:
            # Interrupted (Ctrl-C) or failed while reading: the command must not outlive us.
            tree.kill()
            raise
        if timed_out:
            tree.kill()
            for descriptor in captures:
                _read_what_is_left(descriptor, captures[descriptor])
        else:
            # Whatever the command left running in its group ends with it.
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
    finally:
        leader.close()
        with suppress(subprocess.TimeoutExpired):
            process.wait(_REAP_TIMEOUT_S)
        process.stdout.close()
        process.stderr.close()
    out, err = captures.values()
    return CommandRun(
        bytes(out.kept),
        bytes(err.kept),
        None if timed_out else process.returncode,
        timed_out,
        out.dropped,
        err.dropped,
    )


def _read_until_done(leader: _Exit, captures: dict[int, _Capture], deadline: float) -> bool:
    """Read output until the leader has exited and both pipes are closed (``True``), or
    until the deadline (``False``)."""
    poller = select.poll()
    for descriptor in captures:
        poller.register(descriptor, select.POLLIN)
    if leader.handle is not None:
        poller.register(leader.handle, select.POLLIN)
    open_pipes = set(captures)
    exited = False
    while open_pipes or not exited:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        wait = remaining if exited or leader.handle is not None else min(remaining, _EXIT_POLL_S)
        for descriptor, _ in poller.poll(math.ceil(wait * 1000)):
            if descriptor == leader.handle:
                poller.unregister(descriptor)
                exited = True
                continue
            data = os.read(descriptor, _CHUNK)
            if data:
                captures[descriptor].add(data)
            else:
                poller.unregister(descriptor)
                open_pipes.discard(descriptor)
        if not exited and leader.handle is None:
            exited = leader.happened()
    return True


def _read_what_is_left(descriptor: int, capture: _Capture) -> None:
    # The tree is dead or stopped: take what the pipe holds, never wait for more.
    os.set_blocking(descriptor, False)
    with suppress(BlockingIOError, OSError):
        while data := os.read(descriptor, _CHUNK):
            capture.add(data)
