"""What sits at a cassette's path when it is not a regular file, told from ``stat`` alone.

A folder, a named pipe, a device, a symlink to one of those, or a symlink
whose target is gone can sit where a cassette is read or written. Reading a
named pipe waits for a writer for ever and reading ``/dev/zero`` never ends,
so these are told apart by ``os.lstat`` / ``os.stat``, never by opening the
file; every reader of cassette paths (``load_cassette``, the pytest plugin,
the commands) says the same thing about them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tooltape.testing.cassette._errors import CassettePathError

__all__ = ["irregular_file_error", "not_regular_error", "refuse_irregular_file"]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISREG, "a regular file"),
)

REMOVE_HINT = (
    "remove or rename it: a cassette is a regular file, read from and written to this path"
)
"""What to do about something other than a cassette file at a cassette's path."""

LINK_HINT = "point the link at an existing cassette file, or remove the link"
"""What to do about a symlink at a cassette's path that leads nowhere."""


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words (``"a named pipe"``)."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "a special file"


def not_regular_error(path: Path, mode: int, link: str = "") -> CassettePathError:
    """The error for a file of ``st_mode`` ``mode`` that is not a regular file (``link``:
    the target of the symlink that led to it)."""
    kind = file_kind(mode)
    what = f"a symlink to {link}, {kind}" if link else kind
    return CassettePathError(path, what, f"is not a regular file: it is {what}", hint=REMOVE_HINT)


def _broken_link(path: Path, what: str) -> CassettePathError:
    return CassettePathError(path, what, f"is {what}", hint=LINK_HINT)


def irregular_file_error(path: Path | str) -> CassettePathError | None:
    """The error for what sits at ``path`` when it is not a regular file (or a symlink to
    one): a folder, a named pipe, a socket, a device, a symlink to one of those, a
    symlink whose target does not exist or that loops. ``None`` when ``path`` is a regular
    file, or when nothing at all is there. Only ``stat`` is used: nothing is opened.
    """
    where = Path(path)
    try:
        mode = os.lstat(where).st_mode
    except (OSError, ValueError):  # nothing there, or no path a file can have
        return None
    link = ""
    if stat.S_ISLNK(mode):
        try:
            link = os.readlink(where)
        except OSError:
            link = "?"
        try:
            mode = os.stat(where).st_mode
        except FileNotFoundError:
            return _broken_link(where, f"a symlink to {link}, which does not exist")
        except OSError as error:  # a loop, or a target in a folder that cannot be searched
            reason = error.strerror or str(error)
            return _broken_link(where, f"a symlink to {link} that cannot be followed ({reason})")
    if stat.S_ISREG(mode):
        return None
    return not_regular_error(where, mode, link)


def refuse_irregular_file(path: Path | str) -> None:
    """Raise :func:`irregular_file_error`'s error for ``path``, if it has one."""
    irregular = irregular_file_error(path)
    if irregular is not None:
        raise irregular
