"""``tooltape check [DIR] [--update-specs]``: the contract matrix of every registered kind.

Each row is one hosted tool kind of the adapter's codec registry; the columns
are its spec snapshot, the replay of its recorded calls through the codec, its
failure semantics, and whether a streamed recording exists (informative only).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.cli.errors import EXIT_FAILURE, EXIT_OK, UsageError
from tooltape.cli.folders import cassette_folder
from tooltape.cli.terminal import Cell, Console, Progress, plural, table
from tooltape.testing.contracts import (
    ContractReport,
    KindReport,
    Outcome,
    cassette_files,
    load_corpus,
    run_contracts,
)

HEADERS = ("kind", "spec snapshot", "replay", "failure semantics", "streamed")
_COLUMNS = (("spec snapshot", "spec"), ("replay", "replay"), ("failure semantics", "failure"))


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tooltape check``."""
    parser.add_argument(
        "directory",
        nargs="?",
        metavar="DIR",
        help="folder of cassettes (default: ./cassettes, else the cassettes bundled with tooltape)",
    )
    parser.add_argument(
        "--update-specs",
        action="store_true",
        help="rewrite DIR/specs/<kind>.json from the codecs (review the diff before committing)",
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    return run_check(args.directory, update_specs=args.update_specs, console=console)


def run_check(
    directory: str | None,
    *,
    update_specs: bool,
    console: Console,
    codecs: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
) -> int:
    """Run the contracts over the folder, print the matrix; 1 when any contract fails."""
    folder = cassette_folder(directory, command="check", allow_bundled=True)
    if update_specs and folder.origin == "bundled":
        raise UsageError(
            "--update-specs rewrites spec snapshots, and there is no ./cassettes here: "
            "pass the folder you own (e.g. `tooltape check cassettes --update-specs`)"
        )
    registry = dict(default_hosted_tool_codecs() if codecs is None else codecs)
    files = cassette_files(folder.path)
    progress = Progress(console.err, len(files) + len(registry))
    try:
        corpus = load_corpus(folder.path, progress.track(files, lambda path: path.name))
        report = run_contracts(
            folder.path,
            codecs=registry,
            update_specs=update_specs,
            corpus=corpus,
            on_kind=progress.advance,
        )
    finally:
        progress.close()
    console.print(f"cassettes: {folder.describe()} ({plural(len(files), 'file')})")
    console.print()
    for line in render_report(report, console, update_specs=update_specs):
        console.print(line)
    return EXIT_OK if report.ok else EXIT_FAILURE


def _status(outcome: Outcome, *, show_detail: bool = False) -> Cell:
    if not outcome.ok:
        return Cell("FAIL", "red")
    if outcome.detail.startswith("written "):
        return Cell("written", "yellow")
    return Cell(f"ok ({outcome.detail})" if show_detail else "ok", "green")


def _streamed(outcome: Outcome) -> Cell:
    if outcome.ok:
        return Cell(f"yes ({outcome.detail})", "green")
    return Cell("-" if outcome.detail == "-" else "no", "dim")


def _row(kind: KindReport) -> list[Cell]:
    return [
        Cell(kind.kind, None if kind.ok else "red"),
        _status(kind.spec),
        _status(kind.replay, show_detail=True),
        _status(kind.failure),
        _streamed(kind.streamed),
    ]


def _failures(kind: KindReport) -> list[tuple[str, str]]:
    return [
        (column, getattr(kind, attribute).detail)
        for column, attribute in _COLUMNS
        if not getattr(kind, attribute).ok
    ]


def render_report(report: ContractReport, console: Console, *, update_specs: bool) -> list[str]:
    """The matrix, the reason of every failing cell, unreadable cassettes and a summary."""
    style = console.style
    lines = table(HEADERS, [_row(kind) for kind in report.kinds], style)
    lines.append(style.paint("streamed is informative: it never fails the check", "dim"))
    failing = [kind for kind in report.kinds if not kind.ok]
    for kind in failing:
        for column, detail in _failures(kind):
            lines.append("")
            lines.append(style.paint(f"{kind.kind}: {column} failed", "red"))
            lines.extend(f"    {line}" for line in detail.splitlines())
    if report.unreadable:
        lines.append("")
        lines.append(
            style.paint(f"unreadable: {plural(len(report.unreadable), 'cassette')}", "red")
        )
        lines.extend(f"  {_unreadable(path, reason)}" for path, reason in report.unreadable)
    lines.append("")
    lines.append(_summary(report, failing, console))
    if update_specs:
        lines.append(
            f"spec snapshots rewritten under {Path(report.root) / 'specs'}: review the diff"
        )
    return lines


def _unreadable(path: Path, reason: str) -> str:
    # CassetteError messages already name the file and the fix.
    return reason if str(path) in reason else f"{path}: {reason}"


def _summary(report: ContractReport, failing: list[KindReport], console: Console) -> str:
    total = plural(len(report.kinds), "kind")
    if report.ok:
        return console.style.paint(f"{total}: every contract holds", "green")
    parts: list[str] = []
    if failing:
        parts.append(f"{len(failing)} of {total} failed ({', '.join(k.kind for k in failing)})")
    if report.unreadable:
        parts.append(f"{plural(len(report.unreadable), 'cassette')} unreadable")
    return console.style.paint("; ".join(parts), "red")
