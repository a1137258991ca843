"""Write files atomically, name the file when that fails, and clear what a killed write left.

A write goes to ``.<name>.<host>-<pid>-<random>.tmp`` beside the target, then
is renamed over it. A process killed between the two leaves that temp file;
the next write to the folder removes it once its writer is gone (its process
no longer runs on this host) or, whatever wrote it, once it is an hour old. A
temp file whose writer still runs (another pytest-xdist worker writing at the
same moment) is never touched.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import socket
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from tooltape.testing.cassette._errors import CassetteWriteError

__all__ = ["STALE_AFTER", "TempFile", "remove_stray_temp_files", "stray_temp_files", "write_atomic"]

STALE_AFTER = 3600.0
"""Seconds after which a temp file is abandoned whoever wrote it (a write takes milliseconds)."""

_OURS = re.compile(r"\.(?P<name>.+)\.(?P<host>[0-9a-f]{6})-(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp\Z")
# What earlier versions left: ``.<name>.<random>.tmp`` beside a cassette or snapshot.
_EARLIER = re.compile(r"\.(?P<name>.+\.(?:json|ya?ml))\.[a-z0-9_]{8}\.tmp\Z")


def _host_tag() -> str:
    return hashlib.sha1(socket.gethostname().encode(), usedforsecurity=False).hexdigest()[:6]


_HOST = _host_tag()


@dataclass(frozen=True, slots=True)
class TempFile:
    """A temp file a tooltape write left: its path, its writer's process (when known, on
    this host) and its age in seconds."""

    path: Path
    pid: int | None
    age: float

    @property
    def abandoned(self) -> bool:
        """Whether no write can still be using it."""
        if self.age > STALE_AFTER:
            return True
        return self.pid is not None and not _running(self.pid)


def _running(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return True


def _temp_file(entry: os.DirEntry[str], now: float) -> TempFile | None:
    ours = _OURS.match(entry.name)
    if ours is None and _EARLIER.match(entry.name) is None:
        return None
    try:
        age = now - entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return None
    pid = int(ours["pid"]) if ours is not None and ours["host"] == _HOST else None
    return TempFile(Path(entry.path), pid, age)


def _scan(folder: Path) -> list[TempFile]:
    now = time.time()
    found: list[TempFile] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                    temp = _temp_file(entry, now)
                    if temp is not None:
                        found.append(temp)
    except OSError:
        return []
    return found


def stray_temp_files(root: Path) -> list[TempFile]:
    """Every temp file a tooltape write left under ``root`` (in use or not), sorted."""
    folders = [root, *(path for path in root.rglob("*") if path.is_dir())]
    return sorted((temp for folder in folders for temp in _scan(folder)), key=lambda t: t.path)


def remove_stray_temp_files(folder: Path) -> list[Path]:
    """Remove the abandoned temp files directly in ``folder``; the paths removed."""
    removed: list[Path] = []
    for temp in _scan(folder):
        if temp.abandoned:
            with contextlib.suppress(OSError):
                temp.path.unlink()
                removed.append(temp.path)
    return removed


_CREATE = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _kept_mode(target: Path) -> int | None:
    """The permission bits of the regular file ``target`` (a symlink followed), kept by the
    new file; ``None`` when there is none: a folder, a pipe or a device lends none."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return None
    return stat.S_IMODE(mode) if stat.S_ISREG(mode) else None


def _temp_beside(target: Path) -> tuple[int, str]:
    """A new temp file beside ``target``, created as ``open()`` creates a file: mode 0o666
    less the umask."""
    prefix = f".{target.name}.{_HOST}-{os.getpid()}-"
    while True:
        name = str(target.parent / f"{prefix}{secrets.token_hex(6)}.tmp")
        try:
            return os.open(name, _CREATE, 0o666), name
        except FileExistsError:  # another writer's name: draw again
            continue


def _write(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stray_temp_files(target.parent)
    mode = _kept_mode(target)
    fd, tmp_name = _temp_beside(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise


def write_atomic(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never half.

    The text goes to a temporary file in the same directory, is flushed and
    fsynced, then renamed over ``path``; parent directories are created and
    abandoned temp files of earlier writes in that directory removed. The file
    keeps the permission bits of the regular file it replaces; anything else
    (nothing there, a symlink to a device) lends none, and the file gets what
    ``open()`` gives a new one (0o666 less the umask). Any
    failure raises :class:`CassetteWriteError` (an ``OSError``) naming ``path``,
    and leaves no temp file.
    """
    target = Path(path)
    try:
        _write(target, text)
    except CassetteWriteError:
        raise
    except OSError as error:
        raise CassetteWriteError(target, error) from None
    with contextlib.suppress(OSError):  # make the rename itself durable where possible
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
