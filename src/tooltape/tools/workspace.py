"""``Workspace``: file access confined to one root directory.

Every path a model sends is relative to the root. Absolute paths, ``..``
parts and symlinks that lead outside the root are refused before anything
is read or written.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath


class WorkspaceError(ValueError):
    """A path or file operation was refused; the message says why and what to send instead."""


class Workspace:
    """Read, write and delete text files under ``root`` and nowhere else."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        resolved = Path(root).resolve()
        if not resolved.is_dir():
            raise WorkspaceError(f"Workspace root {str(root)!r} is not a directory.")
        self.root = resolved

    def _inside(self, path: Path) -> bool:
        return path == self.root or path.is_relative_to(self.root)

    def _candidate(self, relative: str) -> Path:
        if not relative or "\x00" in relative:
            raise WorkspaceError(f"Path {relative!r} is empty or malformed.")
        posix = PurePosixPath(relative.replace("\\", "/"))
        if posix.is_absolute() or PureWindowsPath(relative).drive:
            raise WorkspaceError(
                f"Path {relative!r} is absolute; send a path relative to the workspace root."
            )
        if ".." in posix.parts:
            raise WorkspaceError(f"Path {relative!r} contains '..'; paths may not leave the root.")
        return self.root.joinpath(*posix.parts)

    def resolve(self, relative: str) -> Path:
        """The real path of ``relative`` under the root, or ``WorkspaceError``."""
        candidate = self._candidate(relative)
        # resolve() follows every symlink on the way, so a link to outside shows here.
        real = candidate.resolve()
        if real == self.root:
            raise WorkspaceError(f"Path {relative!r} names the workspace root; send a file path.")
        if not self._inside(real):
            raise WorkspaceError(
                f"Path {relative!r} leads outside the workspace (through a symlink); "
                "only files under the root can be changed."
            )
        return real

    def read_text(self, relative: str) -> str:
        """The UTF-8 text of an existing file."""
        path = self.resolve(relative)
        if not path.is_file():
            raise WorkspaceError(f"{relative} does not exist; use create_file to add it.")
        try:
            # Bytes, not read_text(): universal newlines would turn CRLF files into LF.
            return path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WorkspaceError(f"{relative} is not UTF-8 text ({exc.reason}).") from exc

    def write_text(self, relative: str, text: str, *, create: bool) -> None:
        """Write ``text`` atomically; ``create`` refuses an existing file, else requires one.

        An update keeps the file's permission bits; a new file gets the bits an
        ordinary file creation gives (``0o666`` less the umask).
        """
        path = self.resolve(relative)
        if create and path.exists():
            raise WorkspaceError(f"{relative} already exists; use update_file to change it.")
        if not create and not path.is_file():
            raise WorkspaceError(f"{relative} does not exist; use create_file to add it.")
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise WorkspaceError(
                f"{relative}: the new text holds {exc.object[exc.start : exc.end]!r}, which "
                "UTF-8 cannot encode; send the characters themselves."
            ) from None
        mode = None if create else stat.S_IMODE(path.stat().st_mode)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary, handle = _create_beside(path)
        try:
            if mode is not None:
                os.fchmod(handle, mode)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def delete(self, relative: str) -> None:
        """Remove an existing file (never a directory); a symlink is removed, not its target."""
        path = self.resolve(relative)
        if not path.is_file():
            raise WorkspaceError(f"{relative} is not an existing file; nothing was deleted.")
        link = self._candidate(relative)
        (link if link.is_symlink() else path).unlink()


def _create_beside(path: Path) -> tuple[Path, int]:
    # Not mkstemp: it creates files 0600 whatever the umask says, and a new
    # file should look like one any other program would have created.
    while True:
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return temporary, os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
