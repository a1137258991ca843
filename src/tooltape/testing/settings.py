"""Project settings: ``[tool.tooltape]`` in ``pyproject.toml``, read by the CLI and the plugin.

::

    [tool.tooltape]
    cassette_dir = "tests/cassettes"      # where cassettes and spec snapshots live
    model = "gpt-4o-mini"                 # the openai_adapter fixture's model
    required_kinds = ["web_search"]       # kinds `tooltape check` must find covered
    strict = false                        # true: every registered kind is required
    codecs = ["myproject.codecs:SEARCH"]  # extra codecs (module:attr) to check too
    volatile = ["metadata.run_id"]        # request fields ignored when matching

    [tool.tooltape.scrub]
    safe_headers = ["x-trace-id"]         # header values kept as recorded
    safe_query_params = ["page"]          # query values kept as recorded
    secret_body_fields = ["password"]     # body fields always redacted
    secret_patterns = ["acme_[0-9a-f]{32}"]  # more key shapes to redact

The pytest ini options ``tooltape_cassette_dir``, ``tooltape_model`` and
``tooltape_volatile`` mirror the first keys; a value given in both places
must agree. A key that is misspelt or of the wrong type is an error naming
the file, the key and what would fix it: settings never silently fall back.
"""

from __future__ import annotations

import configparser
import json
import re
import shlex
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from tooltape.testing.volatile import VOLATILE_PATH_FORM, VolatilePatternError, compile_pattern

__all__ = [
    "DEFAULT_CASSETTE_DIR",
    "DEFAULT_MODEL",
    "ProjectSettings",
    "ScrubSettings",
    "SettingsError",
    "load_settings",
    "volatile_paths",
]

DEFAULT_CASSETTE_DIR = "cassettes"
DEFAULT_MODEL = "gpt-4o-mini"
"""The model the ``openai_adapter`` fixture uses unless the project names another."""

# pytest's own order: the first of these files that holds a pytest section wins.
_PYTEST_FILES = (
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("pyproject.toml", ""),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)
# setting name -> the pytest ini option mirroring it
_INI_MIRRORS = {
    "cassette_dir": "tooltape_cassette_dir",
    "model": "tooltape_model",
    "volatile": "tooltape_volatile",
}


class SettingsError(ValueError):
    """A project setting that cannot be used as written; the message names file and key."""


class UnreadableSettingsError(SettingsError):
    """A settings file the system will not let tooltape read (no read permission); the
    message names the file and the fix."""


def _text_of(path: Path) -> str:
    """The text of the settings file ``path``; raises :class:`UnreadableSettingsError`
    when the system refuses it."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        fix = (
            f"give it read permission (`chmod u+r {shlex.quote(str(path))}`)"
            if isinstance(exc, PermissionError)
            else "check the file"
        )
        reason = exc.strerror or type(exc).__name__
        raise UnreadableSettingsError(
            f"{path} cannot be read ({reason}): {fix}, then run again"
        ) from exc
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path} is not UTF-8 text ({exc}): fix the file") from exc


@dataclass(frozen=True, slots=True)
class ScrubSettings:
    """What the project adds to tooltape's scrubbing rules (``[tool.tooltape.scrub]``)."""

    safe_headers: tuple[str, ...] = ()
    """Header names (any case) whose values are kept as recorded, besides tooltape's safe set."""
    safe_query_params: tuple[str, ...] = ()
    """Query parameter names whose values are kept as recorded, besides tooltape's safe set."""
    secret_body_fields: tuple[str, ...] = ()
    """JSON body field names whose values are always redacted, wherever they appear."""
    secret_patterns: tuple[str, ...] = ()
    """Regular expressions of more key shapes to redact (and to refuse in a cassette)."""


@dataclass(frozen=True, slots=True)
class ProjectSettings:
    """The settings of one project; ``source`` is the file they were read from (or ``None``)."""

    root: Path
    source: Path | None = None
    cassette_dir: Path = Path(DEFAULT_CASSETTE_DIR)
    """Relative to ``root`` unless absolute."""
    model: str = DEFAULT_MODEL
    required_kinds: tuple[str, ...] = ()
    strict: bool = False
    codecs: tuple[str, ...] = ()
    volatile: tuple[str, ...] = ()
    scrub: ScrubSettings = field(default_factory=ScrubSettings)

    @property
    def cassette_path(self) -> Path:
        """The cassette folder as a path from the working directory's point of view."""
        return (
            self.cassette_dir if self.cassette_dir.is_absolute() else self.root / self.cassette_dir
        )

    def describe(self) -> str:
        """Where these settings came from, for messages."""
        return f"[tool.tooltape] in {self.source}" if self.source else "tooltape's defaults"


_TOP_KEYS = ("cassette_dir", "model", "required_kinds", "strict", "codecs", "volatile", "scrub")
_SCRUB_KEYS = tuple(ScrubSettings.__dataclass_fields__)


def _strings(value: object, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
        isinstance(item, str) for item in cast("list[object]", value)
    ):
        # As TOML would spell it: a value holding a quote or a line break stays one line.
        example = f"[{json.dumps(value)}]" if isinstance(value, str) else '["..."]'
        raise SettingsError(f"{where}: {key} must be a list of strings, e.g. {key} = {example}")
    return tuple(cast("list[str]", value))


def volatile_paths(patterns: Sequence[str], where: str, key: str) -> tuple[str, ...]:
    """``patterns``, each parsed as request matching parses it; a malformed one is a
    :class:`SettingsError` naming ``where``, ``key`` and the entry."""
    for pattern in patterns:
        try:
            compile_pattern(pattern)
        except VolatilePatternError as exc:
            raise SettingsError(
                f"{where}: {key} entry {pattern!r} is not a request field path: {exc.reason}; "
                f"write {VOLATILE_PATH_FORM}"
            ) from None
    return tuple(patterns)


def _string(value: object, where: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{where}: {key} must be a non-empty string")
    return value.strip()


_NAME_MAX = 255
"""The longest file name, in bytes, the common file systems take (ext4, APFS)."""


def _folder(value: object, where: str, key: str) -> Path:
    text = _string(value, where, key)
    if "\0" in text:  # no file system takes one; os calls raise ValueError on it
        raise SettingsError(f"{where}: {key} holds a NUL character; give a folder path")
    path = Path(text)
    for name in path.parts:
        size = len(name.encode("utf-8", "surrogateescape"))
        if size > _NAME_MAX:  # every os call on the path would fail (ENAMETOOLONG)
            raise SettingsError(
                f"{where}: {key} holds a folder name of {size} bytes ({name[:20]!r}...); "
                f"file systems take at most {_NAME_MAX}: give a shorter folder path"
            )
    return path


def _unknown(keys: Sequence[str], known: Sequence[str], where: str, table: str) -> None:
    unknown = [key for key in keys if key not in known]
    if unknown:
        raise SettingsError(
            f"{where}: unknown key(s) {', '.join(map(repr, unknown))} in [{table}]; "
            f"the keys are: {', '.join(known)}"
        )


_SECRET_SHAPE = 'give the shape of the secret (e.g. "acme_[0-9a-f]{32}")'
# Text every cassette holds or tooltape prints about one. A secret pattern matching any of
# it would redact prose, paths and headers (and flag every cassette), not secrets.
_ORDINARY_TEXTS = (
    "cassettes",
    "tests/test_api.py",
    "interactions",
    "request",
    "response",
    "content-type",
    "application/json",
    "https://api.openai.com/v1/responses",
    "REDACTED",
)


def _refuse_ordinary_matches(pattern: re.Pattern[str], where: str) -> None:
    for text in _ORDINARY_TEXTS:
        found = pattern.search(text)
        if found is not None:
            shown = repr(found.group()) + ("" if found.group() == text else f" in {text!r}")
            raise SettingsError(
                f"{where}: scrub.secret_patterns entry {pattern.pattern!r} matches {shown}, "
                "text that cassettes and tooltape's own output hold, so it would redact words, "
                f"not secrets (each entry is tried on: {', '.join(_ORDINARY_TEXTS)}); "
                f"{_SECRET_SHAPE}"
            )


def _scrub(value: object, where: str) -> ScrubSettings:
    if not isinstance(value, dict):
        raise SettingsError(f"{where}: [tool.tooltape.scrub] must be a table")
    table = cast("dict[str, object]", value)
    _unknown(list(table), _SCRUB_KEYS, where, "tool.tooltape.scrub")
    values = {key: _strings(item, where, f"scrub.{key}") for key, item in table.items()}
    for pattern in values.get("secret_patterns", ()):
        try:
            compiled = re.compile(pattern)
        except (re.error, OverflowError) as exc:  # OverflowError: a{99999999999}
            raise SettingsError(
                f"{where}: scrub.secret_patterns entry {pattern!r} is not a regular "
                f"expression ({exc})"
            ) from exc
        if compiled.search("") is not None:
            raise SettingsError(
                f"{where}: scrub.secret_patterns entry {pattern!r} matches empty text, "
                f"so it would match everywhere; {_SECRET_SHAPE}"
            )
        _refuse_ordinary_matches(compiled, where)
    return ScrubSettings(**values)  # pyright: ignore[reportArgumentType]


def _from_table(root: Path, source: Path, table: Mapping[str, object]) -> ProjectSettings:
    where = str(source)
    _unknown(list(table), _TOP_KEYS, where, "tool.tooltape")
    settings = ProjectSettings(root=root, source=source)
    for key, value in table.items():
        if key == "cassette_dir":
            settings = replace(settings, cassette_dir=_folder(value, where, key))
        elif key == "model":
            settings = replace(settings, model=_string(value, where, key))
        elif key == "strict":
            if not isinstance(value, bool):
                raise SettingsError(f"{where}: strict must be true or false")
            settings = replace(settings, strict=value)
        elif key == "scrub":
            settings = replace(settings, scrub=_scrub(value, where))
        elif key == "volatile":
            settings = replace(
                settings, volatile=volatile_paths(_strings(value, where, key), where, key)
            )
        else:
            settings = replace(settings, **{key: _strings(value, where, key)})
    return settings


def _read_toml(path: Path) -> dict[str, object]:
    text = _text_of(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path} is not valid TOML ({exc}): fix the file") from exc


def _table(value: object, *keys: str) -> dict[str, object] | None:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = cast("dict[str, object]", value).get(key)
    return cast("dict[str, object]", value) if isinstance(value, dict) else None


def _pytest_options(root: Path) -> tuple[Path, dict[str, object]] | None:
    """The pytest ini options of ``root`` and their file, found the way pytest finds them."""
    for name, section in _PYTEST_FILES:
        path = root / name
        if not path.is_file():
            continue
        if section == "":
            options = _table(_read_toml(path), "tool", "pytest", "ini_options")
        else:
            parser = configparser.ConfigParser(interpolation=None)
            text = _text_of(path)  # ConfigParser.read passes over a file it cannot open
            try:
                parser.read_string(text, source=str(path))
            except configparser.Error as exc:
                raise SettingsError(f"{path} cannot be read ({exc}): fix the file") from exc
            options = dict(parser[section]) if parser.has_section(section) else None
        if options is not None:
            return path, cast("dict[str, object]", options)
    return None


def _ini_value(name: str, raw: object) -> object:
    if name == "volatile":
        lines = cast("list[object]", raw) if isinstance(raw, list) else str(raw).splitlines()
        return [str(line).strip() for line in lines if str(line).strip()]
    return str(raw).strip()


def _merge_ini(settings: ProjectSettings, table: Mapping[str, object]) -> ProjectSettings:
    found = _pytest_options(settings.root)
    if found is None:
        return settings
    path, options = found
    for name, option in _INI_MIRRORS.items():
        if option not in options:
            continue
        value = _ini_value(name, options[option])
        if name in table:
            ours = table[name]
            if isinstance(ours, (list, tuple)):
                ours = list(cast("Sequence[object]", ours))
            same = value == (ours if isinstance(ours, list) else str(ours).strip())
            if not same:
                raise SettingsError(
                    f"{settings.source}: {name} = {ours!r} disagrees with {option} = {value!r} "
                    f"in {path}; keep one of them"
                )
            continue
        if name == "cassette_dir":
            settings = replace(settings, cassette_dir=_folder(value, str(path), option))
        elif name == "model":
            settings = replace(settings, model=_string(value, str(path), option))
        else:
            paths = volatile_paths(_strings(value, str(path), option), str(path), option)
            settings = replace(settings, volatile=paths)
    return settings


def load_settings(root: Path | str = ".") -> ProjectSettings:
    """The settings of the project at ``root``: ``[tool.tooltape]``, then the pytest mirrors.

    Raises :class:`SettingsError` for a file or key that cannot be used as written.
    """
    root = Path(root)
    pyproject = root / "pyproject.toml"
    table: Mapping[str, object] = {}
    settings = ProjectSettings(root=root)
    if pyproject.is_file():
        ours = (_table(_read_toml(pyproject), "tool") or {}).get("tooltape")
        if ours is not None:
            if not isinstance(ours, dict):
                raise SettingsError(
                    f"{pyproject}: tool.tooltape must be a table; write the settings under a "
                    '[tool.tooltape] header (e.g. cassette_dir = "cassettes")'
                )
            table = cast("dict[str, object]", ours)
            settings = _from_table(root, pyproject, table)
    return _merge_ini(settings, table)
