"""A folder the system will not list, or a file it will not open, as ``chmod 000`` makes
them for anyone but root.

``chmod 000`` does not stop root, and the suite may run as root: a folder is made
unreadable by having ``os.scandir`` refuse it as the system does (``PermissionError``,
errno ``EACCES``), the call every folder walk makes, and ``os.stat`` refuse what is
inside it; a file, by having ``open`` refuse it.
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from pathlib import Path

import pytest


def _denied(path: object) -> PermissionError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(str(path)))


def refuse_reading(monkeypatch: pytest.MonkeyPatch, file: Path) -> None:
    """``open(file)`` and ``os.open(file)`` fail as they do for a file without read
    permission (``chmod 000``)."""
    opening = io.open
    refused = file.resolve()

    def open_(path: object, *args: object, **kwargs: object) -> object:
        if isinstance(path, str | os.PathLike) and Path(path).resolve() == refused:
            raise _denied(path)
        return opening(path, *args, **kwargs)  # type: ignore[call-overload]

    low_level_open = os.open

    def os_open(path: object, *args: object, **kwargs: object) -> int:
        if isinstance(path, str | os.PathLike) and Path(path).resolve() == refused:
            raise _denied(path)
        return low_level_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(io, "open", open_)
    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(os, "open", os_open)


def refuse_listing(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``os.scandir(folder)``, and ``os.stat`` of what is inside it, fail as they do for a
    folder without read and search permission (``chmod 000``)."""
    listing, status = os.scandir, os.stat
    refused = folder.resolve()
    denied = _denied

    def scandir(path: str | os.PathLike[str] = ".") -> object:
        if Path(path).resolve() == refused:
            raise denied(path)
        return listing(path)

    def stat(path: str | os.PathLike[str], *args: object, **kwargs: object) -> object:
        if isinstance(path, str | os.PathLike) and Path(path).absolute().parent == refused:
            raise denied(path)
        return status(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "stat", stat)
