"""``tooltape check [DIR] [--strict] [--update-specs]``: the contract matrix of a project.

Each row is one hosted tool kind of the adapter's codec registry plus the
project's own codecs (``[tool.tooltape] codecs``). A kind the project covers
(its cassettes hold a call of it, its spec is snapshotted, or it is listed in
``required_kinds``) is checked: its spec snapshot, the replay of its recorded
calls through the codec, and its failure semantics; whether a streamed
recording exists is informative only. Every other kind is shown as not
covered, with how to cover it. Exit 1 when a covered or required kind fails;
``--strict`` requires every registered kind.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from tooltape.cli.errors import EXIT_FAILURE, EXIT_OK, UsageError
from tooltape.cli.folders import (
    CassetteFolder,
    cassette_folder,
    elsewhere_hint,
    project_root,
    project_settings,
)
from tooltape.cli.terminal import Cell, Console, Progress, plural, table
from tooltape.testing.contracts import (
    ContractReport,
    ContractSetupError,
    KindReport,
    Outcome,
    Subject,
    Superseded,
    cassette_files,
    cli_update,
    load_corpus,
    project_subjects,
    replayed_cassettes,
    run_contracts,
    unreadable_note,
)
from tooltape.testing.settings import ProjectSettings

HEADERS = ("kind", "coverage", "spec snapshot", "replay", "failure semantics", "streamed")
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
        "--strict",
        action="store_true",
        help="require every registered kind (as `strict = true` in [tool.tooltape] does)",
    )
    parser.add_argument(
        "--update-specs",
        action="store_true",
        help="rewrite the spec snapshots (DIR/specs/<kind>.json) of the covered kinds from the "
        "codecs; review the diff before committing",
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    return run_check(
        args.directory, update_specs=args.update_specs, strict=args.strict, console=console
    )


def _subjects(settings: ProjectSettings) -> dict[str, Subject]:
    try:
        return project_subjects(settings.codecs, settings.root)
    except ContractSetupError as exc:
        raise UsageError(f"{settings.describe()}: {exc}") from exc


def run_check(
    directory: str | None,
    *,
    update_specs: bool,
    console: Console,
    strict: bool = False,
    subjects: Mapping[str, Subject] | None = None,
) -> int:
    """Run the contracts over the folder, print the matrix; 1 when a covered kind fails."""
    folder = cassette_folder(directory, command="check", allow_bundled=True)
    if update_specs and folder.origin == "bundled":
        raise UsageError(
            "--update-specs rewrites spec snapshots, and there is no ./cassettes here: "
            "pass the folder you own (e.g. `tooltape check cassettes --update-specs`)"
        )
    settings = project_settings()
    chosen = dict(_subjects(settings) if subjects is None else subjects)
    required = set(chosen) if strict or settings.strict else set(settings.required_kinds)
    project = project_root() or Path.cwd()
    files, superseded = replayed_cassettes(cassette_files(folder.path), project)
    progress = Progress(console.err, len(files) + len(chosen))
    try:
        corpus = load_corpus(folder.path, progress.track(files, lambda path: path.name))
        report = run_contracts(
            folder.path,
            subjects=chosen,
            required=required,
            update_specs=update_specs,
            update_hint=cli_update(folder.path, strict=strict),
            corpus=corpus,
            on_kind=progress.advance,
        )
    except ContractSetupError as exc:
        raise UsageError(f"{settings.describe()}: {exc}") from exc
    finally:
        progress.close()
    counted = plural(len(files), "file") + _left_out(folder, superseded)
    console.print(f"cassettes: {folder.describe()} ({counted})")
    for line in [] if files else elsewhere_hint(folder, command="check"):
        console.print(line)
    if settings.source is not None:
        console.print(f"settings: {settings.describe()}")
    console.print()
    for line in render_report(report, console, update_specs=update_specs):
        console.print(line)
    return EXIT_OK if report.ok else EXIT_FAILURE


def _left_out(folder: CassetteFolder, superseded: Sequence[Superseded]) -> str:
    """Why fewer files are counted than the folder holds: YAML cassettes replay never reads."""
    if not superseded:
        return ""
    suffixes = "/".join(sorted({item.path.suffix for item in superseded}, reverse=True))
    lint = ["tooltape", "lint"] + ([str(folder.path)] if folder.origin == "given" else [])
    return (
        f"; {len(superseded)} superseded {suffixes} left out, as replay reads the .json beside "
        f"each: `{shlex.join(lint)}` names them"
    )


def _status(outcome: Outcome, *, show_detail: bool = False) -> Cell:
    if outcome.neutral:
        return Cell(f"- ({outcome.detail.split(':', 1)[0]})", "dim")
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
    if not kind.covered:
        return [Cell(kind.kind, "dim"), Cell("not covered", "dim")] + [Cell("-", "dim")] * 4
    return [
        Cell(kind.kind, None if kind.ok else "red"),
        Cell(kind.coverage),
        _status(kind.spec),
        _status(kind.replay, show_detail=True),
        _status(kind.failure),
        _streamed(kind.streamed),
    ]


def _failures(kind: KindReport) -> list[tuple[str, str]]:
    """``(columns, detail)`` of each failing cell; cells failing for one reason are one entry."""
    failures: dict[str, list[str]] = {}
    for column, attribute in _COLUMNS:
        outcome: Outcome = getattr(kind, attribute)
        if not outcome.ok and not outcome.neutral:
            failures.setdefault(outcome.detail, []).append(column)
    return [(" and ".join(columns), detail) for detail, columns in failures.items()]


NOT_COVERED_HINT = (
    "cover one by recording a test that uses it (`pytest --record-mode=once`), or list it in "
    "required_kinds under [tool.tooltape] to make check insist on it (--strict: every kind)"
)


UNREAD_SPEC_HINT = (
    "delete one left from a kind that is gone; if a contract class of yours writes it, "
    "name the class in codecs under [tool.tooltape] so that check reads it too"
)


def render_report(report: ContractReport, console: Console, *, update_specs: bool) -> list[str]:
    """The matrix, the reason of every failing cell, unreadable cassettes and a summary."""
    style = console.style
    lines = table(HEADERS, [_row(kind) for kind in report.kinds], style)
    lines.append(style.paint("streamed is informative: it never fails the check", "dim"))
    if report.not_covered:
        names = ", ".join(kind.kind for kind in report.not_covered)
        lines.append("")
        lines.append(style.paint(f"not covered: {names}", "dim"))
        lines.append(style.paint(f"  {NOT_COVERED_HINT}", "dim"))
    for kind in report.covered:
        if kind.spec.neutral:
            lines.append("")
            lines.append(style.paint(f"{kind.kind}: {kind.spec.detail}", "yellow"))
    if report.unread_specs:
        lines.append("")
        count = plural(len(report.unread_specs), "spec snapshot")
        lines.append(style.paint(f"unread: {count} no checked kind reads", "yellow"))
        lines.extend(f"  {path}" for path in report.unread_specs)
        lines.append(style.paint(f"  {UNREAD_SPEC_HINT}", "dim"))
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
        lines.extend(f"  {unreadable_note(path, reason)}" for path, reason in report.unreadable)
    lines.append("")
    lines.append(_summary(report, failing, console))
    if update_specs and report.covered:
        lines.append(
            f"spec snapshots of the covered kinds rewritten under {Path(report.root) / 'specs'}: "
            "review the diff"
        )
    return lines


def _summary(report: ContractReport, failing: list[KindReport], console: Console) -> str:
    covered = plural(len(report.covered), "checked kind")
    if report.ok:
        if not report.covered:
            return console.style.paint(
                "no kind is covered yet: record a test that uses a tool", "yellow"
            )
        return console.style.paint(f"{covered}: every contract holds", "green")
    parts: list[str] = []
    if failing:
        parts.append(f"{len(failing)} of {covered} failed ({', '.join(k.kind for k in failing)})")
    if report.unreadable:
        parts.append(f"{plural(len(report.unreadable), 'cassette')} unreadable")
    return console.style.paint("; ".join(parts), "red")
