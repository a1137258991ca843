"""What the plugin knows about the running test and its cassette."""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, cast

import pytest

from tooltape.testing.cassette import CassetteSource
from tooltape.testing.settings import SettingsError, volatile_paths
from tooltape.testing.vcr.matchers import KeyedMatcher

__all__ = [
    "CASSETTE_RUN",
    "CassetteRun",
    "UnlessImported",
    "cassette_folder_of",
    "command_nodeid",
    "json_cassette_path",
    "marker_options",
    "marker_volatile",
]


@dataclass
class CassetteRun:
    """What the plugin knows about the running test (one per test, per process)."""

    nodeid: str
    module: PurePosixPath
    """The test module's path from rootdir without ``.py``: its cassettes' folder."""
    record_mode: str
    """The record mode pytest-recording uses for the test (``rewrite`` included)."""
    record_mode_from: str | None = None
    """Where ``record_mode`` was pinned over ``--record-mode`` (``vcr_config``, the vcr
    mark), ``None`` when it came from the command line."""
    command_nodeid: str = ""
    """``nodeid`` as a command run from where pytest was started names the test (from a
    sub-folder of the project, ``test_x.py::test_y``); ``nodeid`` when empty."""
    pytest_recording_dir: str = ""
    """pytest-recording's own cassette folder for the test (empty: not known): a recorder
    given another one was given it by the project."""
    loaded: int = 0
    """How many interactions the test's own cassette held when it was opened (those of a
    shared cassette its ``vcr`` mark names come after them, and are not counted)."""
    shared: int = 0
    """How many interactions the shared cassettes its ``vcr`` mark names gave."""
    compares_bodies: bool | None = None
    """Whether the project's ``match_on`` names the body (``None``: it gives none), which
    makes an imported cassette's bodies count too."""
    own_cassette_dir: bool | None = None
    """Whether the test's ``vcr_cassette_dir`` fixture is the project's own (``None``: not
    known; then a folder other than ``pytest_recording_dir`` says so)."""
    secrets: tuple[tuple[str, str], ...] = ()
    """The credentials in the environment while the test ran (``live_secrets``): a
    fixture may set a key after the cassette opened, and undo it before it is saved."""
    read_from: str = ""
    """The file the test's cassette was read from (its pytest-recording YAML, when the
    test replays that in place; empty: none was read)."""
    source: CassetteSource | None = None
    failed: bool = False
    save_error: BaseException | None = None
    provenance: str | None = None
    volatile: tuple[str, ...] = ()

    @property
    def recording(self) -> bool:
        """Whether the test may record: not replaying (``none``, or ``once`` with a
        cassette to play, its own or a shared one)."""
        replaying = self.record_mode == "once" and (self.loaded or self.shared)
        return self.record_mode != "none" and not replaying

    @property
    def command_id(self) -> str:
        """The test as a command names it (``command_nodeid``, else ``nodeid``)."""
        return self.command_nodeid or self.nodeid


CASSETTE_RUN = pytest.StashKey[CassetteRun]()
"""Where the running test's ``CassetteRun`` is kept (on the item and on the config)."""


def marker_options(item: pytest.Item) -> Mapping[str, Any]:
    """The keyword arguments of the test's closest ``@pytest.mark.tooltape(...)``."""
    marker = item.get_closest_marker("tooltape")
    return marker.kwargs if marker is not None else {}


_MARKER_FORM = "@pytest.mark.tooltape(volatile=[...], allow_unplayed=True, provenance='...')"


def _marker_problem(marker: pytest.Mark, where: str) -> str | None:
    """What is wrong with the arguments of a ``tooltape`` mark, if anything."""
    if marker.args:
        return f"{where}: takes keyword arguments only, as in {_MARKER_FORM}"
    unknown = [
        key for key in marker.kwargs if key not in ("volatile", "allow_unplayed", "provenance")
    ]
    if unknown:
        return (
            f"{where}: unknown argument(s) {', '.join(map(repr, unknown))}; the arguments are "
            "volatile, allow_unplayed and provenance"
        )
    volatile: object = marker.kwargs.get("volatile", ())
    listed = cast("Iterable[object]", volatile) if isinstance(volatile, (list, tuple)) else ()
    if not isinstance(volatile, str) and not (
        isinstance(volatile, (list, tuple)) and all(isinstance(path, str) for path in listed)
    ):
        return (
            f"{where}: volatile must be a request field path or a list of them, "
            f"as in {_MARKER_FORM}"
        )
    if not isinstance(marker.kwargs.get("allow_unplayed", False), bool):
        return f"{where}: allow_unplayed must be True or False"
    provenance: object = marker.kwargs.get("provenance")
    if provenance is not None and not isinstance(provenance, str):
        return f"{where}: provenance must be text (it is written into the cassette's header)"
    return None


def marker_volatile(item: pytest.Item) -> tuple[tuple[str, ...], str | None]:
    """The ``volatile`` paths of the test's ``@pytest.mark.tooltape(...)``, or none and why
    the mark cannot be used (an argument of the wrong type, or a malformed path): the
    test's setup fails with that, not with a traceback from the matcher."""
    marker = item.get_closest_marker("tooltape")
    if marker is None:
        return (), None
    where = f"@pytest.mark.tooltape of {item.nodeid}"
    problem = _marker_problem(marker, where)
    if problem is not None:
        return (), f"tooltape: {problem}"
    volatile = marker.kwargs.get("volatile", ())
    paths = (volatile,) if isinstance(volatile, str) else tuple(cast("Iterable[str]", volatile))
    try:
        return volatile_paths(paths, where, "volatile"), None
    except SettingsError as exc:
        return (), f"tooltape: {exc}"


def cassette_folder_of(nodeid: str) -> PurePosixPath:
    """The folder (under the cassette folder) of the cassettes of the test ``nodeid``.

    It is the test module's path from rootdir without ``.py``
    (``tests/a/test_api.py::test_x`` -> ``tests/a/test_api``), so two modules
    with one file name in different folders never share a cassette.
    """
    module = PurePosixPath(nodeid.split("::", 1)[0])
    parts = [part for part in module.with_suffix("").parts if part not in ("", ".", "..", "/")]
    return PurePosixPath(*parts) if parts else PurePosixPath(module.stem or "tests")


_YAML_SUFFIXES = (".yaml", ".yml")


def json_cassette_path(path: str) -> str:
    """The file a cassette name is kept in: ``.json`` added, or put in place of the
    ``.yaml``/``.yml`` of a name kept from pytest-recording (as ``tooltape import``
    names the converted file), never ``x.yaml.json``."""
    stem, suffix = os.path.splitext(path)
    if suffix == ".json":
        return path
    if suffix.lower() in _YAML_SUFFIXES:
        return stem + ".json"
    return path + ".json"


def command_nodeid(item: pytest.Item) -> str:
    """``item``'s node id as a command run from where pytest was started names it."""
    config = item.config
    here, root = config.invocation_params.dir, config.rootpath
    if here == root:
        return item.nodeid
    path, separator, rest = item.nodeid.partition("::")
    return os.path.relpath(root / path, here) + separator + rest


class UnlessImported:
    """A tooltape matcher that stands aside for imported cassettes.

    An imported cassette may hold requests another client made (recordings of
    another project): their bodies and query parameters (``?stream=false``)
    then say nothing about this code's wire, and only method and path count,
    as in vcrpy's default ``match_on``. With ``unless_asked``, a project whose
    ``match_on`` names the body (``body``, ``raw_body``) asked for its bodies
    to be compared, and they are, with tooltape's diff.
    """

    def __init__(self, state: CassetteRun, matcher: KeyedMatcher, *, unless_asked: bool) -> None:
        self.state = state
        self.matcher = matcher
        self.unless_asked = unless_asked
        # vcrpy labels failures with the matcher's name
        self.__name__ = self.__qualname__ = matcher.__name__

    def _skipped(self) -> bool:
        state = self.state
        return state.source == "import" and not (self.unless_asked and state.compares_bodies)

    def __call__(self, current: Any, recorded: Any) -> None:
        if not self._skipped():
            self.matcher(current, recorded)

    def request_key(self, request: Any) -> Hashable:
        return None if self._skipped() else self.matcher.request_key(request)
