"""Which cassette folder a command works on."""

from __future__ import annotations

import configparser
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import cast

from tooltape.cli.errors import UsageError
from tooltape.cli.terminal import display_path

DEFAULT_DIR = Path("cassettes")
INI_OPTION = "tooltape_cassette_dir"
# pytest's own order: the first of these files that holds a pytest section wins.
_INI_SECTIONS = (
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("pyproject.toml", ""),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


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


def _table(value: object, key: str) -> object:
    return cast("dict[str, object]", value).get(key) if isinstance(value, dict) else None


def _pyproject_options(path: Path) -> dict[str, object] | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path} is not valid TOML ({exc}): fix it, or pass the folder") from exc
    options = _table(_table(_table(data, "tool"), "pytest"), "ini_options")
    return cast("dict[str, object]", options) if isinstance(options, dict) else None


def _ini_options(path: Path, section: str) -> dict[str, object] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise UsageError(f"{path} cannot be read ({exc}): fix it, or pass the folder") from exc
    return dict(parser[section]) if parser.has_section(section) else None


def configured_dir(root: Path) -> Path:
    """``tooltape_cassette_dir`` from the pytest configuration in ``root``, else ``cassettes``.

    The plugin reads the same option, so ``tooltape check`` and ``lint`` look
    where ``pytest --record-mode=once`` writes.
    """
    for name, section in _INI_SECTIONS:
        path = root / name
        if not path.is_file():
            continue
        options = _pyproject_options(path) if section == "" else _ini_options(path, section)
        if options is None:
            continue
        value = options.get(INI_OPTION)
        return Path(str(value).strip()) if value else DEFAULT_DIR
    return DEFAULT_DIR


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
    """``argument``, else the configured folder (``./cassettes`` unless the pytest
    configuration sets ``tooltape_cassette_dir``), else (when allowed) the bundled cassettes.
    """
    if argument is not None:
        return given_folder(argument)
    default = configured_dir(Path.cwd())
    if (Path.cwd() / default).is_dir():
        return CassetteFolder(default, "default")
    bundled = bundled_cassettes() if allow_bundled else None
    if bundled is None:
        raise UsageError(
            f"no ./{default.as_posix()} folder here: run from your project's root or pass "
            f"the folder (e.g. `tooltape {command} tests/cassettes`)"
        )
    return CassetteFolder(bundled, "bundled")
