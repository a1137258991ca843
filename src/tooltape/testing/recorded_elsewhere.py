"""A test's cassette that pytest-recording recorded where tooltape does not read.

pytest-recording keeps it at ``<module folder>/cassettes/<module name>/<test>.yaml``;
tooltape reads ``<cassette_dir>/<module path>/<test>.json``. A project that
installs tooltape after recording with pytest-recording alone has every
cassette at the first place: a missing cassette's failure says so, with the
``tooltape import`` command that writes it where tooltape reads it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shlex
from collections.abc import Generator
from pathlib import Path

from tooltape.testing.cassette_run import CassetteRun

__all__ = ["import_from_pytest_recording", "kept_from_rewrite", "rewritten_by_pytest_recording"]

# pytest-recording writes .yaml; .yml and vcrpy's JSON are what `tooltape import` reads too
_SUFFIXES = (".yaml", ".yml", ".json")


def import_from_pytest_recording(
    missing: str,
    state: CassetteRun,
    *,
    rootdir: Path,
    cassette_dir: Path,
    shown_from: Path | None = None,
) -> str:
    """Where pytest-recording's cassette of the test is and the ``tooltape import`` commands
    that write the ``missing`` cassette from it, or ``""`` when it has none there.

    Paths are shown from ``shown_from`` (where pytest was started; ``rootdir`` if not
    given), so the commands run as printed there.
    """
    base = shown_from or rootdir
    if not state.pytest_recording_dir:
        return ""
    folder = (rootdir / cassette_dir).joinpath(*state.module.parts)
    try:
        name = str(Path(missing).relative_to(folder)).removesuffix(".json")
    except ValueError:
        return ""  # the project's own vcr_cassette_dir: a .yaml there is read where it is
    recorded = Path(state.pytest_recording_dir)
    found = [recorded / f"{name}{suffix}" for suffix in _SUFFIXES]
    source = next((path for path in found if path.is_file()), None)
    if source is None:
        return ""
    message = (
        f"pytest-recording's cassette of this test is {_shown(source, base)}, where tooltape "
        "does not read. Import it (scrubbed, provenance kept) to where tooltape reads it with:\n\n"
        f"    {_import(source, Path(missing).parent, base)}\n"
    )
    # <module folder>/cassettes holds the module's cassette folders as tooltape's
    # <cassette_dir>/<module folder> does: one import moves them all (unless tooltape's
    # folder is inside it, and would be imported too). Once some are in place, that import
    # would skip them and fail, asking for --force: this test's import is the one to run.
    every, into = recorded.parent, folder.parent
    if not into.is_relative_to(every) and not _holds_json(into):
        message += (
            f"\nor every cassette of {_shown(every, base)} at once:\n\n"
            f"    {_import(every, into, base)}\n"
        )
    return message


def _holds_json(folder: Path) -> bool:
    """Whether any cassette of tooltape's is under ``folder`` already."""
    return any(path.is_file() for path in folder.rglob("*.json"))


def _shown(path: Path, base: Path) -> str:
    try:
        return os.path.relpath(path, base)
    except ValueError:  # another drive
        return str(path)


def _import(source: Path, out: Path, base: Path) -> str:
    return shlex.join(["tooltape", "import", _shown(source, base), "--out", _shown(out, base)])


def _max_filename_len() -> int:
    """pytest-recording's bound on a cassette file name (the file system's, else 255)."""
    try:
        return os.pathconf(".", "PC_NAME_MAX")
    except (AttributeError, ValueError, OSError):
        return 255


def rewritten_by_pytest_recording(folder: str, cassette_name: str) -> Path:
    """The file pytest-recording deletes before a test runs under ``--record-mode=rewrite``:
    its own ``.yaml`` of the test, never a tooltape cassette (those end in ``.json``)."""
    name, longest = cassette_name, _max_filename_len()
    if len(name) + len(".yaml") > longest:  # shortened as pytest-recording does
        digest = hashlib.md5(name.encode()).hexdigest()
        name = f"{name[: longest - len('.yaml') - len(digest) - 3]}...{digest}"
    path = os.path.join(folder, name)
    return Path(path if path.endswith(".yaml") else f"{path}.yaml")


@contextlib.contextmanager
def kept_from_rewrite(path: Path) -> Generator[None, None, None]:
    """Put ``path`` back if it is gone when the block ends.

    Under ``rewrite`` pytest-recording deletes its own cassette of the test, though
    tooltape records elsewhere and never reads it: the project's only copy of a
    recording it may not have imported yet.
    """
    try:
        kept = path.read_bytes() if path.is_file() else None
    except OSError:
        kept = None
    try:
        yield
    finally:
        if kept is not None and not path.exists():
            path.write_bytes(kept)
