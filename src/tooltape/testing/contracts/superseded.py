"""pytest-recording's ``.yaml`` left beside the ``.json`` that replay reads instead.

The plugin replays a test from ``<test>.json`` and falls back to ``<test>.yaml``
only when no ``<test>.json`` is there. ``pytest --record-mode=rewrite`` writes
the ``.json`` and leaves pytest-recording's ``.yaml`` in place (pytest-recording
alone would delete it), so in a folder the project's ``vcr_cassette_dir``
fixture names, both end up side by side and only the ``.json`` is replayed.
The contract checks (``tooltape check`` and ``HostedToolCodecContract``) read
the ``.json`` alone; ``tooltape lint`` names the ``.yaml``.

A ``.yaml`` a test names itself (``@pytest.mark.vcr("x.yaml")``, a shared
cassette) is read by replay whatever sits beside it: it is not superseded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tooltape.testing.contracts.project_tests import named_cassettes

_YAML_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Superseded:
    """A YAML cassette that replay never reads, and the ``.json`` it reads in its place."""

    path: Path
    replayed: Path


def superseded_cassettes(files: Sequence[Path], project: Path | None = None) -> list[Superseded]:
    """The ``.yaml``/``.yml`` files among ``files`` with a ``.json`` of the same name in their
    folder, also among ``files``; with ``project`` (its root), not those a test module or
    conftest under it names as a shared cassette."""
    listed = set(files)
    found = [
        Superseded(path, path.with_suffix(".json"))
        for path in files
        if path.suffix in _YAML_SUFFIXES and path.with_suffix(".json") in listed
    ]
    if not found or project is None:
        return found
    shared = named_cassettes(project, {item.path.name for item in found})
    return [item for item in found if item.path.name not in shared]


def replayed_cassettes(
    files: Sequence[Path], project: Path | None = None
) -> tuple[list[Path], list[Superseded]]:
    """``files`` without the superseded ones, and those (see :func:`superseded_cassettes`)."""
    left_out = superseded_cassettes(files, project)
    gone = {item.path for item in left_out}
    return [path for path in files if path not in gone], left_out
