"""A project's pytest-recording options, as the plugin takes them.

pytest-recording hands vcrpy a project's ``vcr_config`` fixture merged with
its ``vcr`` marks, and lets its ``pytest_recording_configure`` change the
recorder. tooltape honours them alongside its own format, scrubbing and
matching (``tooltape.testing.vcr.options``), and refuses, by name, what would
write a cassette some other way:

- ``serializer`` and ``persister`` (as options, or set on the recorder in
  ``pytest_recording_configure``): refused;
- ``path_transformer``: honoured when it names a ``.json`` file, else refused;
- ``record_mode``: pytest-recording lets it win over ``--record-mode``, and
  so does tooltape (``rewrite`` starts the cassette again); a failure that
  suggests the command line says where the mode was pinned;
- a ``vcr_cassette_dir`` fixture (or a ``cassette_library_dir`` set on the
  recorder) of the project's own: the cassettes go there.
"""

from __future__ import annotations

import os.path
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import pytest

from tooltape.testing.cassette_run import CassetteRun
from tooltape.testing.run_persister import RunPersister
from tooltape.testing.vcr.options import VcrOptionError
from tooltape.testing.vcr.persistence import CombinedTooltapePersister, TooltapePersister
from tooltape.testing.vcr.recorder import SERIALIZER

__all__ = [
    "ProjectOptions",
    "VcrOptionError",
    "pinned_note",
    "project_options",
    "asks_for_body",
    "default_recording_dir",
    "own_cassette_dir",
    "projects_own_folder",
    "refuse_recorder_bypasses",
]

_PYTEST_RECORDING = "pytest_recording.plugin"
"""The module of pytest-recording's own fixtures."""

_WRITES = (
    "tooltape reads and writes the cassettes itself (tooltape JSON, scrubbed, checked for "
    "secrets, written atomically and only for a passing test)"
)


@dataclass(frozen=True, slots=True)
class ProjectOptions:
    """``vcr_config`` merged with the ``vcr`` marks, as pytest-recording merges them."""

    options: Mapping[str, Any]
    marked: frozenset[str]
    """The options a ``vcr`` mark gave (the narrowest mark wins, then ``vcr_config``)."""

    def where(self, name: str) -> str:
        """Where the option ``name`` was given."""
        return "the vcr mark" if name in self.marked else "vcr_config"

    def compares_bodies(self) -> bool | None:
        """Whether the test's ``match_on`` (with ``additional_matchers``) names the body;
        ``None`` when it gives no ``match_on`` (the recorder's then holds)."""
        extra = asks_for_body(self.options.get("additional_matchers", ()))
        if "match_on" not in self.options:
            return True if extra else None
        return extra or asks_for_body(self.options["match_on"])

    def record_mode(self, command_line: str | None) -> tuple[str, str | None]:
        """The record mode pytest-recording uses, and where it was pinned (``None``: the
        command line, or the default ``none``)."""
        if "record_mode" not in self.options:
            return command_line or "none", None
        mode: object = self.options["record_mode"]
        return str(getattr(mode, "value", mode)), self.where("record_mode")

    def refuse_bypasses(self, cassette_name: Callable[[], str]) -> None:
        """Raise :class:`VcrOptionError` for an option that would write the test's cassette
        (named ``cassette_name()`` before any ``path_transformer``) some other way."""
        options = self.options
        serializer: object = options.get("serializer", SERIALIZER)
        if serializer != SERIALIZER:
            raise VcrOptionError(
                f"serializer={serializer!r} ({self.where('serializer')}): {_WRITES}; "
                "remove the option"
            )
        if "persister" in options:
            raise VcrOptionError(
                f"persister={_name(options['persister'])} ({self.where('persister')}): "
                f"{_WRITES}; remove the option"
            )
        transformer: object = options.get("path_transformer")
        if callable(transformer):
            named: object = cast("Any", transformer)(cassette_name())
            named = os.fspath(cast("str", named))
            if not named.endswith(".json"):
                raise VcrOptionError(
                    f"path_transformer ({self.where('path_transformer')}) names the cassette "
                    f"{named!r}: tooltape cassettes are JSON files; make it give a name ending "
                    "in .json, or remove it (name a cassette with @pytest.mark.default_cassette "
                    "or a default_cassette_name fixture, move it with a vcr_cassette_dir fixture)"
                )


_BODY_MATCHERS = frozenset({"body", "raw_body", "tooltape_body"})


def asks_for_body(match_on: object) -> bool:
    """Whether a ``match_on`` list names a body matcher (vcrpy's or tooltape's)."""
    if isinstance(match_on, str) or not isinstance(match_on, Iterable):
        return False
    return any(name in _BODY_MATCHERS for name in cast("Iterable[object]", match_on))


def project_options(
    vcr_config: Mapping[str, Any], markers: Sequence[pytest.Mark]
) -> ProjectOptions:
    """``vcr_config`` and the test's ``vcr`` marks (closest first) merged as pytest-recording
    merges them."""
    options = dict(vcr_config)
    marked: set[str] = set()
    for marker in reversed(markers):
        options.update(marker.kwargs)
        marked.update(marker.kwargs)
    return ProjectOptions(options, frozenset(marked))


def _name(value: object) -> str:
    return (value if isinstance(value, type) else type(value)).__name__


def refuse_recorder_bypasses(recorder: Any) -> None:
    """Raise :class:`VcrOptionError` when the project's ``pytest_recording_configure`` gave
    pytest-recording's recorder a persister or serializer of its own."""
    persister: object = recorder.persister
    kind = persister if isinstance(persister, type) else type(persister)
    ours = kind is TooltapePersister or isinstance(
        persister, (RunPersister, CombinedTooltapePersister)
    )
    if not ours and not kind.__module__.startswith("pytest_recording."):
        raise VcrOptionError(
            f"pytest_recording_configure registered the persister "
            f"{kind.__module__}.{kind.__qualname__}: {_WRITES}; remove the "
            "vcr.register_persister(...) call"
        )
    serializer: object = recorder.serializer
    if serializer not in ("yaml", SERIALIZER):  # "yaml": the recorder pytest-recording made
        raise VcrOptionError(
            f"pytest_recording_configure set vcr.serializer = {serializer!r}: {_WRITES}; "
            "remove that line"
        )


def default_recording_dir(item: pytest.Item) -> str:
    """pytest-recording's own ``vcr_cassette_dir`` for ``item``: ``cassettes/<module name>``
    beside its module. A recorder given another folder was given it by the project."""
    module = item.path
    return os.path.join(os.path.dirname(module), "cassettes", module.stem)


def projects_own_folder(folder: object, state: CassetteRun) -> bool:
    """Whether pytest-recording's recorder was given ``folder`` by the project (a
    ``vcr_cassette_dir`` fixture of its own) rather than by pytest-recording."""
    if state.own_cassette_dir is not None:
        return state.own_cassette_dir and bool(folder)
    if not folder or not state.pytest_recording_dir:
        return False
    given = os.path.abspath(os.fspath(cast("str", folder)))
    default = os.path.abspath(state.pytest_recording_dir)
    return os.path.normcase(given) != os.path.normcase(default)


def own_cassette_dir(item: pytest.Item) -> bool | None:
    """Whether the ``vcr_cassette_dir`` fixture ``item`` gets is the project's own (even
    one that gives pytest-recording's folder), ``None`` when pytest does not say."""
    # Function items keep the fixture definitions that apply to them; the last overrides.
    info: object = getattr(item, "_fixtureinfo", None)
    defined = cast("Mapping[str, Sequence[Any]]", getattr(info, "name2fixturedefs", {}))
    definitions = defined.get("vcr_cassette_dir")
    if not definitions:
        return None
    return getattr(definitions[-1].func, "__module__", None) != _PYTEST_RECORDING


def pinned_note(state: CassetteRun, *, rewrite: bool) -> str:
    """Why the suggested ``--record-mode`` changes nothing for the test, when its record mode
    was pinned to one that will not record what is missing (``rewrite``: the suggestion is
    to record an existing cassette again). ``""`` when the suggestion works as it is."""
    mode, where = state.record_mode, state.record_mode_from
    if where is None:
        return ""
    wins = f"record_mode={mode!r} comes from {where}, and pytest-recording lets it win over "
    if mode == "none":
        return wins + "--record-mode: change it there to record."
    if mode == "once" and rewrite:
        return (
            wins + "--record-mode; it never records an existing cassette again: change it "
            "there, or delete the cassette and run the test again with the key set."
        )
    return ""
