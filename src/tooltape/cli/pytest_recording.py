"""Where tooltape's pytest plugin reads a cassette that pytest-recording recorded.

pytest-recording keeps a test's cassette at ``<module folder>/cassettes/<module
name>/<test>.yaml``; the plugin reads ``<cassette_dir>/<module path>/<test>.json``.
``tooltape import`` writes where ``--out`` says (sub-folders kept, as
documented), so importing pytest-recording's folder into the cassette folder
itself lands one level short: these say where the plugin reads and which
``--out`` puts the cassettes there.
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tooltape.cli.terminal import display_path
from tooltape.testing.settings import ProjectSettings

__all__ = ["Misplaced", "import_out", "misplaced", "misplaced_note"]


@dataclass(frozen=True, slots=True)
class Misplaced:
    """An imported pytest-recording cassette written where the plugin does not read it."""

    module: Path
    """The test module whose cassette it is."""
    written: Path
    read: Path
    """Where the plugin reads it."""
    recording_folder: Path
    """pytest-recording's ``<module folder>/cassettes``."""
    out: Path
    """The ``--out`` that imports ``recording_folder`` where the plugin reads it."""


def _recorded_for(source: Path) -> Path | None:
    """The test module whose pytest-recording cassette ``source`` is, if it is one."""
    module_folder = source.parent
    if module_folder.parent.name != "cassettes":
        return None
    module = module_folder.parent.parent / f"{module_folder.name}.py"
    return module if module.is_file() else None


def import_out(folder: Path, settings: ProjectSettings) -> Path | None:
    """The ``--out`` that imports the YAML cassettes of ``folder`` where the plugin reads
    them: ``<cassette_dir>/<module folder>`` for pytest-recording's ``<module
    folder>/cassettes``, the cassette folder itself for any other folder. ``None`` when
    the cassette folder lies inside ``folder`` (importing it would read its own output)."""
    folder = folder.resolve()
    cassette_folder = settings.cassette_path.resolve()
    out = cassette_folder
    modules = [sub for sub in folder.iterdir() if sub.is_dir()] if folder.is_dir() else []
    if folder.name == "cassettes" and any(
        (folder.parent / f"{sub.name}.py").is_file() for sub in modules
    ):
        with contextlib.suppress(ValueError):  # outside the project: no test of it runs here
            module_folder = folder.parent.relative_to(settings.root.resolve())
            out = cassette_folder.joinpath(*module_folder.parts)
    return None if out.is_relative_to(folder) else out


def misplaced(source: Path, written: Path, settings: ProjectSettings) -> Misplaced | None:
    """``source`` imported to ``written``, when it is pytest-recording's cassette of a test
    module of the project of ``settings`` and the plugin reads it elsewhere."""
    module = _recorded_for(source.resolve())
    if module is None:
        return None
    try:
        module_path = module.relative_to(settings.root.resolve()).with_suffix("")
    except ValueError:
        return None  # outside the project: not a test the plugin runs here
    cassette_folder = settings.cassette_path
    read = cassette_folder.joinpath(*module_path.parts, f"{source.stem}.json")
    if written.resolve() == read.resolve():
        return None
    folder, out = module.parent / "cassettes", cassette_folder.joinpath(*module_path.parent.parts)
    if out.resolve().is_relative_to(folder):
        # the cassette folder is inside pytest-recording's: importing all of it would
        # import tooltape's own cassettes again, so only the module's folder
        folder, out = source.resolve().parent, read.parent
    return Misplaced(module=module, written=written, read=read, recording_folder=folder, out=out)


def misplaced_note(found: Sequence[Misplaced]) -> list[str]:
    """Lines saying where the plugin reads the ``found`` cassettes, and the imports that write
    them there (one per pytest-recording folder)."""
    lines: list[str] = []
    for module in dict.fromkeys(item.module for item in found):
        item = next(item for item in found if item.module == module)
        lines.append(
            f"tooltape's pytest plugin reads the cassettes of {display_path(module)} from "
            f"{display_path(item.read.parent)}, not {display_path(item.written.parent)}"
        )
    lines.append("to import them where it reads them:")
    commands = dict.fromkeys((item.recording_folder, item.out) for item in found)
    for folder, out in commands:
        lines.append(
            "    "
            + shlex.join(["tooltape", "import", display_path(folder), "--out", display_path(out)])
        )
    return lines
