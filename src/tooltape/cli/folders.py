"""Which cassette folder a command works on."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from tooltape.cli.errors import UsageError
from tooltape.cli.terminal import display_path
from tooltape.testing.settings import ProjectSettings, SettingsError, load_settings


@dataclass(frozen=True, slots=True)
class CassetteFolder:
    """A folder of cassettes and how it was chosen (``given``, ``default`` or ``bundled``)."""

    path: Path
    origin: str

    def describe(self) -> str:
        """The folder as a person should read it, with where it came from."""
        if self.origin == "bundled":
            return f"{self.path} (the cassettes bundled with tooltape: no ./cassettes here)"
        if self.origin == "default":
            return f"./{self.path.as_posix()}"
        return display_path(self.path)


def project_settings() -> ProjectSettings:
    """The settings of the project in the working directory (``[tool.tooltape]``)."""
    try:
        return load_settings(Path.cwd())
    except SettingsError as exc:
        raise UsageError(str(exc)) from exc


def bundled_cassettes() -> Path | None:
    """The cassettes shipped inside the package, when they are on disk."""
    resource = files("tooltape").joinpath("bundled", "cassettes")
    path = Path(str(resource))
    return path if path.is_dir() else None


def given_folder(argument: str) -> CassetteFolder:
    """The folder named on the command line, which must exist."""
    path = Path(argument)
    if not path.is_dir():
        what = "is a file, not a folder" if path.exists() else "does not exist"
        raise UsageError(f"{argument} {what}: pass a folder of cassettes (e.g. `cassettes`)")
    return CassetteFolder(path, "given")


def cassette_folder(argument: str | None, *, command: str, allow_bundled: bool) -> CassetteFolder:
    """``argument``, else the project's folder (``cassette_dir`` in ``[tool.tooltape]``,
    ``./cassettes`` by default), else (when allowed) the bundled cassettes.
    """
    if argument is not None:
        return given_folder(argument)
    default = project_settings().cassette_dir
    if (Path.cwd() / default).is_dir():
        return CassetteFolder(default, "default")
    bundled = bundled_cassettes() if allow_bundled else None
    if bundled is None:
        raise UsageError(
            f"no ./{default.as_posix()} folder here: run from your project's root or pass "
            f"the folder (e.g. `tooltape {command} tests/cassettes`)"
        )
    return CassetteFolder(bundled, "bundled")
