"""The recorded answers a contract check reads: every cassette under a folder."""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooltape.adapters.openai.reading import field
from tooltape.testing.cassette import CassetteError, load_cassette
from tooltape.testing.contracts.attribution import claims
from tooltape.testing.contracts.superseded import replayed_cassettes
from tooltape.testing.recorded.answers import RecordedAnswer, read_answers

SPEC_DIR_NAME = "specs"
"""Sub-folder of a cassette folder that holds one wire spec snapshot per kind."""


@dataclass(frozen=True, slots=True)
class RecordedExchange:
    """One Responses answer and the cassette it came from."""

    path: Path
    answer: RecordedAnswer


@dataclass(frozen=True, slots=True)
class Corpus:
    """Every readable Responses answer under a folder, plus the files that could not be read."""

    root: Path
    exchanges: tuple[RecordedExchange, ...]
    unreadable: tuple[tuple[Path, str], ...] = ()

    def with_items_of(
        self, item_types: Iterable[str], spec: Mapping[str, Any] | None = None
    ) -> list[RecordedExchange]:
        """The answers holding a call item of one of ``item_types`` whose request declared
        a tool of ``spec``'s kind (see :mod:`~tooltape.testing.contracts.attribution`)."""
        wanted = set(item_types)
        return [
            exchange
            for exchange in self.exchanges
            # A hand-edited ``type`` may be an object or a list, which no set can look up.
            if any(_type_of(item) in wanted for item in exchange.answer.items)
            and (spec is None or claims(exchange.answer.request_body, spec))
        ]


def unreadable_note(path: Path, reason: str) -> str:
    """One line for a cassette that could not be read: the reason, which names the file
    and the fix when it comes from the cassette reader, else the file and the reason."""
    return reason if str(path) in reason else f"{path}: {reason}"


def _type_of(item: object) -> str | None:
    kind = field(item, "type")
    return kind if isinstance(kind, str) else None


# Folders that never hold cassettes: tools' own files and syrupy's snapshots.
_NOT_CASSETTES = frozenset(
    {"__snapshots__", "__pycache__", "node_modules", "site-packages", SPEC_DIR_NAME}
)
_SUFFIXES = (".json", ".yaml", ".yml")


def _holds_cassettes(folder: Path, name: str) -> bool:
    if name.startswith(".") or name in _NOT_CASSETTES:
        return False
    try:
        return not (folder / name / "pyvenv.cfg").is_file()  # a virtual environment
    except OSError:  # not searchable: the walk tries to list it, and says so if it cannot
        return True


class UnreadableFolderError(Exception):
    """Folders under a cassette folder (or the folder itself) that the system will not list.

    A walk would pass over them in silence, as if they held no cassette; the
    message names them and the permission fix. ``folders`` are the refused folders.
    """

    def __init__(self, root: Path, refused: Sequence[OSError]) -> None:
        self.root = root
        self.folders = tuple(Path(str(error.filename)) for error in refused)
        listed = ", ".join(
            f"{error.filename} ({error.strerror or type(error).__name__})" for error in refused[:5]
        ) + (f" and {len(refused) - 5} more" if len(refused) > 5 else "")
        first = self.folders[0]
        inside = f" or move it out of {root}" if first != root else ""
        super().__init__(
            f"cannot read {listed}: give it read permission "
            f"(`chmod -R u+rX {shlex.quote(str(first))}`){inside}, then run again"
        )


def _walk(root: Path) -> tuple[list[Path], list[OSError]]:
    """Cassette files under ``root`` and the folders among them the system would not list
    (a folder that does not exist holds none: it is not recorded yet)."""
    files: list[Path] = []
    refused: list[OSError] = []

    def _refused(error: OSError) -> None:
        if not isinstance(error, FileNotFoundError | NotADirectoryError):
            refused.append(error)

    for folder, dirs, names in os.walk(root, onerror=_refused):
        here = Path(folder)
        dirs[:] = [name for name in dirs if _holds_cassettes(here, name)]
        files.extend(here / name for name in names if name.endswith(_SUFFIXES))
    return sorted(files), refused


_SNIFFED = 512
"""Bytes read from the start of a file to tell a cassette from other JSON and YAML."""


def _reads_as_cassette(path: Path) -> bool:
    """Whether ``path`` starts as a vcrpy or tooltape cassette does."""
    try:
        with path.open("rb") as stream:
            head = stream.read(_SNIFFED).decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return False
    return head.startswith("interactions:") or '"interactions"' in head or '"tooltape"' in head


def _holds_recordings(folder: Path, dirs: Sequence[str], names: Sequence[str]) -> bool:
    """Whether ``folder`` holds cassettes directly, or in folders named after test modules
    (``<folder>/test_api/test_x.yaml``, as a ``vcr_cassette_dir`` fixture lays them out)."""
    if any(name.endswith(_SUFFIXES) and _reads_as_cassette(folder / name) for name in names):
        return True
    for name in dirs:
        if not (name.startswith("test_") or name.endswith("_test")):
            continue
        with contextlib.suppress(OSError):
            if any(
                entry.name.endswith(_SUFFIXES) and _reads_as_cassette(Path(entry.path))
                for entry in os.scandir(folder / name)
                if entry.is_file()
            ):
                return True
    return False


def cassette_folders(root: Path, *, depth: int = 6) -> dict[Path, list[Path]]:
    """Folders under ``root`` (at most ``depth`` levels down) that hold cassettes: those
    whose name ends in ``cassettes`` (``cassettes``, ``vcr_cassettes``...), and any other
    whose files, or those of its test-module folders, read as cassettes
    (``tests/fixtures/vcr``), with the cassette files each holds (folders holding none
    left out).

    The places a project keeps recordings, for a command that found none where it
    looked. Hidden folders, virtual environments and folders the system will not
    list are skipped.
    """
    found: dict[Path, list[Path]] = {}
    base = len(root.parts)
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(n for n in dirs if _holds_cassettes(here, n))
        named = here.name.endswith("cassettes")
        held = here != root and (named or _holds_recordings(here, dirs, names))
        # Only a hint for a command that found no cassette: a part it cannot read is left out.
        files = _walk(here)[0] if held else []
        if files:
            found[here] = files
            dirs[:] = []  # its own sub-folders are part of it
            continue
        if len(here.parts) - base >= depth:
            dirs[:] = []
    return found


def cassette_files(root: Path) -> list[Path]:
    """Cassette files under ``root`` (JSON and YAML), sorted.

    Spec snapshot folders (``specs/``), syrupy's ``__snapshots__``, hidden
    folders and virtual environments are skipped. A folder that does not exist
    holds none; one the system will not list (``root`` or a folder under it)
    raises :class:`UnreadableFolderError`.
    """
    files, refused = _walk(root)
    if refused:
        raise UnreadableFolderError(root, refused)
    return files


def load_corpus(
    root: Path, files: Iterable[Path] | None = None, *, project: Path | None = None
) -> Corpus:
    """Read ``files``, by default every cassette under ``root`` that replay reads (not a
    ``.yaml`` superseded by the ``.json`` beside it, unless a test module under
    ``project`` names it: :mod:`~tooltape.testing.contracts.superseded`); unreadable
    files are kept with the reason.

    A folder under ``root`` the system will not list raises :class:`UnreadableFolderError`.
    """
    exchanges: list[RecordedExchange] = []
    unreadable: list[tuple[Path, str]] = []
    if files is None:
        files = replayed_cassettes(cassette_files(root), project)[0]
    for path in files:
        try:
            cassette = load_cassette(path)
        except CassetteError as exc:
            unreadable.append((path, str(exc)))
            continue
        exchanges.extend(
            RecordedExchange(path, answer)
            for answer in read_answers(cassette)
            if answer.is_responses_call
        )
    return Corpus(root, tuple(exchanges), tuple(unreadable))
