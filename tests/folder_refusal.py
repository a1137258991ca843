"""A folder the system will not list, as ``chmod 000`` makes it for anyone but root.

``chmod 000`` does not stop root, and the suite may run as root: the folder is
made unreadable by having ``os.scandir`` refuse it as the system does
(``PermissionError``, errno ``EACCES``), the call every folder walk makes, and
``os.stat`` refuse what is inside it.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest


def refuse_listing(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``os.scandir(folder)``, and ``os.stat`` of what is inside it, fail as they do for a
    folder without read and search permission (``chmod 000``)."""
    listing, status = os.scandir, os.stat
    refused = folder.resolve()

    def denied(path: object) -> PermissionError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(str(path)))

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
