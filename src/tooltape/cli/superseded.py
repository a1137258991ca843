"""pytest-recording's ``.yaml`` left beside the ``.json`` that replay reads instead.

The plugin replays a test from ``<test>.json`` and falls back to ``<test>.yaml``
only when no ``<test>.json`` is there. ``pytest --record-mode=rewrite`` writes
the ``.json`` and leaves pytest-recording's ``.yaml`` in place (pytest-recording
alone would delete it), so in a folder the project's ``vcr_cassette_dir``
fixture names, both end up side by side and only the ``.json`` is replayed.
``tooltape check`` counts the ``.json`` alone; ``tooltape lint`` names the
``.yaml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_YAML_SUFFIXES = (".yaml", ".yml")

SUPERSEDED_FIX = (
    "delete it: `pytest --record-mode=rewrite` recorded the test again into the .json beside "
    "it and leaves pytest-recording's file in place; replay and `tooltape check` read the .json"
)


@dataclass(frozen=True, slots=True)
class Superseded:
    """A YAML cassette that replay never reads, and the ``.json`` it reads in its place."""

    path: Path
    replayed: Path


def superseded_cassettes(files: Sequence[Path]) -> list[Superseded]:
    """The ``.yaml``/``.yml`` files among ``files`` with a ``.json`` of the same name in their
    folder, also among ``files``."""
    listed = set(files)
    found: list[Superseded] = []
    for path in files:
        if path.suffix in _YAML_SUFFIXES:
            replayed = path.with_suffix(".json")
            if replayed in listed:
                found.append(Superseded(path, replayed))
    return found


def replayed_cassettes(files: Sequence[Path]) -> tuple[list[Path], list[Superseded]]:
    """``files`` without the superseded ones, and those."""
    left_out = superseded_cassettes(files)
    gone = {item.path for item in left_out}
    return [path for path in files if path not in gone], left_out
