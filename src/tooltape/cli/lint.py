"""``tooltape lint [DIR]``: problems a reviewer should not have to spot by eye.

Secrets still in a cassette (everything the recording write gate would refuse,
under the project's ``[tool.tooltape.scrub]``), JSON bodies stored as escaped
text, binary bodies, unreadable files, temp files an interrupted write left,
and cassettes no test uses. Each finding names the file and where in it; what
to do is said once per kind of finding, after the list.

Exit status: 1 when there is any finding, else 0. A folder holding no
cassettes has nothing to lint: that is said, and the exit status is 0 (a new
project has nothing recorded yet); a folder that does not exist is a usage
error (2).
"""

from __future__ import annotations

import argparse
from itertools import groupby
from pathlib import Path

from tooltape.cli.errors import EXIT_FAILURE, EXIT_OK
from tooltape.cli.findings import Finding, file_findings, stray_finding
from tooltape.cli.folders import (
    cassette_folder,
    elsewhere_hint,
    project_root,
    project_settings,
)
from tooltape.cli.terminal import Cell, Console, Progress, align, display_path, plural
from tooltape.cli.usage import unused_cassettes
from tooltape.testing.cassette import DEFAULT_POLICY, ScrubPolicy, live_policy, stray_temp_files
from tooltape.testing.contracts import cassette_files, superseded_cassettes

SUPERSEDED_FIX = (
    "delete it: `pytest --record-mode=rewrite` recorded the test again into the .json beside "
    "it and leaves pytest-recording's file in place; replay and `tooltape check` read the .json"
)

UNUSED_FIX = (
    "delete it if the test is gone, or rename it after the test that records it "
    "(`<module path>/<test name>[params].json`, e.g. `tests/test_api/test_x.json`)"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tooltape lint``."""
    parser.add_argument(
        "directory", nargs="?", metavar="DIR", help="folder of cassettes (default: ./cassettes)"
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    return run_lint(args.directory, console=console)


def lint_folder(
    directory: Path,
    root: Path,
    progress: Progress | None = None,
    cassette_root: Path | None = None,
    policy: ScrubPolicy = DEFAULT_POLICY,
) -> list[Finding]:
    """Every finding in ``directory``'s cassettes; test modules are looked up under ``root``.

    ``cassette_root`` is the folder the plugin lays cassettes out from (default
    ``directory``): a cassette's path below it names its test module. ``policy``
    is the project's scrubbing, which decides what is a secret.
    """
    files = cassette_files(directory)
    findings: list[Finding] = []
    for path in files:
        if progress is not None:
            progress.advance(path.name)
        findings.extend(file_findings(path, policy))
    findings.extend(stray_finding(temp) for temp in stray_temp_files(directory))
    findings.extend(
        Finding(
            item.path,
            "",
            "superseded cassette",
            f"replay reads {item.replayed.name} beside it, never this file",
            SUPERSEDED_FIX,
        )
        for item in superseded_cassettes(files, root)
    )
    findings.extend(
        Finding(unused.path, "", "unused cassette", unused.reason, UNUSED_FIX)
        for unused in unused_cassettes(cassette_root or directory, files, root)
    )
    return sorted(findings, key=lambda finding: str(finding.path))


def render_findings(findings: list[Finding], console: Console) -> list[str]:
    """Findings grouped by file (kind, where, what), then what to do, once per kind."""
    style = console.style
    lines: list[str] = []
    for path, group in groupby(findings, key=lambda finding: finding.path):
        listed = list(group)
        lines.append(style.paint(display_path(path), "bold"))
        rows = [
            [Cell(f.kind, "red"), Cell(f.location or "(whole file)", "dim"), Cell(f.message)]
            for f in listed
        ]
        lines.extend(align(rows, style, indent="  "))
    fixes = dict.fromkeys((f.kind, f.fix) for f in findings)
    if fixes:
        lines.append("")
    lines.extend(f"{style.paint('fix', 'yellow')} ({kind}): {fix}" for kind, fix in fixes)
    return lines


def run_lint(directory: str | None, *, console: Console, root: Path | None = None) -> int:
    """Lint the folder (default ``./cassettes``); 1 when anything is found."""
    folder = cassette_folder(directory, command="lint", allow_bundled=False)
    settings = project_settings()
    policy = live_policy(settings.scrub)
    files = cassette_files(folder.path)
    configured = settings.cassette_path
    # cassettes are laid out from the project's folder, whether DIR is below it or above it
    here, there = folder.path.resolve(), configured.resolve()
    inside = here.is_relative_to(there) or there.is_relative_to(here)
    progress = Progress(console.err, len(files))
    try:
        findings = lint_folder(
            folder.path,
            root or project_root() or Path.cwd(),
            progress,
            cassette_root=configured if inside else None,
            policy=policy,
        )
    finally:
        progress.close()
    where = display_path(folder.path)
    checked = f"{plural(len(files), 'cassette')} in {where}"
    if not findings:
        if not files:
            for line in elsewhere_hint(folder, command="lint") or [
                f"no cassettes in {where}: nothing to lint (cassettes are the .json and .yaml "
                "files under it; record some with `pytest --record-mode=once`)"
            ]:
                console.print(line)
            return EXIT_OK
        console.print(console.style.paint(f"{checked}: no findings", "green"))
        return EXIT_OK
    for line in render_findings(findings, console):
        console.print(line)
    files_hit = len({finding.path for finding in findings})
    console.print()
    console.print(
        console.style.paint(
            f"{plural(len(findings), 'finding')} in {plural(files_hit, 'file')} ({checked})",
            "red",
        )
    )
    return EXIT_FAILURE
