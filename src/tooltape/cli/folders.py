"""Which cassette folder a command works on."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from tooltape.cli.errors import CliError, UsageError
from tooltape.cli.pytest_recording import import_out
from tooltape.cli.terminal import display_path
from tooltape.cli.usage import defines_cassette_dir
from tooltape.testing.cassette._paths import irregular_file_error
from tooltape.testing.contracts import cassette_folders
from tooltape.testing.settings import (
    ProjectSettings,
    SettingsError,
    UnreadableSettingsError,
    load_settings,
)

_PROJECT_FILES = ("pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg")


@dataclass(frozen=True, slots=True)
class CassetteFolder:
    """A folder of cassettes and how it was chosen (``given``, ``project`` or ``bundled``;
    ``not yet recorded`` for a project's folder that does not exist yet)."""

    path: Path
    origin: str

    def describe(self) -> str:
        """The folder as a person should read it, with where it came from."""
        if self.origin == "bundled":
            return f"{self.path} (the cassettes bundled with tooltape: no project here)"
        if self.origin == "not yet recorded":
            return f"{display_path(self.path)} (not created yet: nothing recorded)"
        return display_path(self.path)


def project_root(start: Path | None = None) -> Path | None:
    """The nearest folder from ``start`` (the working directory) up that holds a project
    file (``pyproject.toml``, ``pytest.ini``, ``tox.ini``, ``setup.cfg``), as pytest looks."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if any((folder / name).is_file() for name in _PROJECT_FILES):
            return folder
    return None


def project_settings() -> ProjectSettings:
    """The settings of the project around the working directory (``[tool.tooltape]``)."""
    root = project_root() or Path.cwd()
    try:
        return load_settings(root)
    except UnreadableSettingsError as exc:  # the system refused a file: not the command line
        raise CliError(str(exc)) from exc
    except SettingsError as exc:
        raise UsageError(str(exc)) from exc


def bundled_cassettes() -> Path | None:
    """The cassettes shipped inside the package, when they are on disk."""
    resource = files("tooltape").joinpath("bundled", "cassettes")
    path = Path(str(resource))
    return path if path.is_dir() else None


def _broken_link(path: Path) -> str | None:
    """What is wrong with ``path`` when it is a symlink that loops or leads nowhere (it is
    neither missing nor a file then, and ``resolve()`` of a loop raises)."""
    if not path.is_symlink() or path.is_dir():
        return None
    irregular = irregular_file_error(path)
    return None if irregular is None else f"{irregular.problem}; {LINK_FIX}"


LINK_FIX = "point the link at a folder of cassettes, or remove it"


def given_folder(argument: str) -> CassetteFolder:
    """The folder named on the command line, which must exist."""
    path = Path(argument)
    if not path.is_dir():
        broken = _broken_link(path)
        if broken is not None:
            raise UsageError(f"{argument} {broken}")
        what = "is a file, not a folder" if path.exists() else "does not exist"
        raise UsageError(f"{argument} {what}: pass a folder of cassettes (e.g. `cassettes`)")
    return CassetteFolder(path, "given")


def cassette_folder(argument: str | None, *, command: str, allow_bundled: bool) -> CassetteFolder:
    """``argument``, else the project's cassette folder (``cassette_dir`` in
    ``[tool.tooltape]``, ``cassettes`` by default, under the project root), else (only
    outside any project, and when allowed) the cassettes bundled with tooltape.
    (Listing its cassettes, :func:`~tooltape.testing.contracts.cassette_files`, refuses a
    folder the system will not list.)
    """
    if argument is not None:
        return given_folder(argument)
    settings = project_settings()
    if settings.cassette_path.is_dir():
        return CassetteFolder(_relative(settings.cassette_path), "project")
    broken = _broken_link(settings.cassette_path)
    if broken is not None:  # never taken for a folder not recorded yet
        link = settings.cassette_path
        shown = display_path(_relative(link.parent) / link.name)  # the link, not its target
        raise UsageError(f"cassette folder {shown} ({_chosen(settings)}) {broken}")
    if settings.cassette_path.exists():  # a file where the folder should be
        raise UsageError(
            f"cassette folder {display_path(_relative(settings.cassette_path))} "
            f"({_chosen(settings)}) is not a folder: point cassette_dir at a folder, "
            f"or pass the folder (e.g. `tooltape {command} tests/cassettes`)"
        )
    if project_root() is not None and settings.cassette_path.parent.is_dir():
        # A project that has recorded nothing yet: its folder is empty, not an error,
        # so a first CI run passes before the first recording.
        return CassetteFolder(_relative(settings.cassette_path), "not yet recorded")
    if project_root() is None:
        bundled = bundled_cassettes() if allow_bundled else None
        if bundled is not None:
            return CassetteFolder(bundled, "bundled")
    raise UsageError(
        f"no cassette folder {display_path(_relative(settings.cassette_path))} "
        f"({_chosen(settings)}): "
        "record a test first (`pytest --record-mode=once`), fix the setting, or pass the "
        f"folder (e.g. `tooltape {command} tests/cassettes`)"
    )


def elsewhere_hint(folder: CassetteFolder, *, command: str) -> list[str]:
    """What to do when the project's cassette folder holds no cassette but other folders
    of the project do (``tests/cassettes``...): a passing check there would check nothing."""
    root = project_root()
    if root is None or folder.origin not in ("project", "not yet recorded"):
        return []
    here = folder.path.resolve()
    held_by = cassette_folders(root)  # passes by the folders it may not look into
    found = {p: held for p, held in held_by.items() if p.resolve() != here}
    if not found:
        return []
    shown = display_path(folder.path)
    # The project's own vcr_cassette_dir fixture has the plugin read and record in its
    # folders, YAML included: there is nothing to import, only a folder to name.
    own_folders = defines_cassette_dir(root)
    lines = [f"no cassettes in {shown}, but the project holds some elsewhere:"]
    tooltape_folder: str | None = None
    imports: list[str] = []
    settings = project_settings()
    for path, held in found.items():
        yaml = sum(1 for file in held if file.suffix != ".json")
        named = _shown(path)
        counts = ((len(held) - yaml, "JSON"), (yaml, "YAML"))
        lines.append(f"  {named}: " + ", ".join(f"{n} {label}" for n, label in counts if n))
        if yaml < len(held) or own_folders:
            tooltape_folder = tooltape_folder or named
        out = import_out(path, settings) if yaml and not own_folders else None
        if out is not None:
            imports.append(shlex.join(["tooltape", "import", named, "--out", _shown(out)]))
    if tooltape_folder is not None:
        laid_out = (
            "your vcr_cassette_dir fixture places each test's cassette"
            if own_folders
            else "the plugin keeps each as <cassette_dir>/<test module path>/<test>.json"
        )
        lines.append(
            f"  {command} them with `{shlex.join(['tooltape', command, tooltape_folder])}`; "
            "if your tests' "
            f'cassettes belong there, set cassette_dir = "{tooltape_folder}" under '
            f"[tool.tooltape] ({laid_out})"
        )
    if imports:
        lines.append("  YAML cassettes are pytest-recording's: import them where tooltape reads:")
        lines.extend(f"    {line}" for line in imports)
        lines.append(
            "  (a vcr_cassette_dir fixture of your own that names their folder makes the plugin "
            "read and record there: then give that folder as --out)"
        )
    return lines


def _shown(path: Path) -> str:
    """``path`` as a person types it from the working directory."""
    return display_path(_relative(path))


def _chosen(settings: ProjectSettings) -> str:
    """Where the cassette folder was named, for an error about it."""
    return f"cassette_dir from {settings.source}" if settings.source is not None else "the default"


def _relative(path: Path) -> Path:
    """``path`` from the working directory (``../cassettes`` from a sub-folder)."""
    try:
        return Path(os.path.relpath(path.resolve(), Path.cwd().resolve()))
    except ValueError:  # another drive
        return path
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        return Path(os.path.relpath(path.absolute(), Path.cwd().absolute()))
