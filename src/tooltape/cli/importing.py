"""``tooltape import SRC... --out DIR``: foreign cassettes become scrubbed tooltape cassettes.

One ``DIR/<stem>.json`` per source, written atomically, provenance kept. An
existing file is only replaced with ``--force``; a result that would still
hold a secret is never written. Scrubbing follows the project's
``[tool.tooltape.scrub]`` (found from the working directory). A folder given
as SRC imports every cassette under it, keeping its sub-folders
(pytest-recording's ``cassettes/<module>/`` layout survives the import); when
pytest-recording's cassettes of a test module land where tooltape's plugin
does not read them, the output says where it does and which ``--out`` puts
them there.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tooltape.cli.errors import EXIT_FAILURE, EXIT_OK, UsageError
from tooltape.cli.findings import file_findings
from tooltape.cli.folders import project_settings
from tooltape.cli.pytest_recording import misplaced, misplaced_note
from tooltape.cli.terminal import Console, display_path, plural
from tooltape.testing.cassette import (
    DEFAULT_POLICY,
    CassetteEncodedError,
    CassetteError,
    CassetteWriteError,
    ScrubPolicy,
    find_secrets,
    import_cassette,
    live_policy,
    load_cassette,
    save_cassette,
    scrub_text,
)
from tooltape.testing.cassette._paths import irregular_file_error
from tooltape.testing.contracts import cassette_files


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tooltape import``."""
    parser.add_argument(
        "sources",
        nargs="+",
        metavar="SRC",
        help="vcrpy / pytest-recording cassettes, or folders of them",
    )
    parser.add_argument(
        "--out", required=True, metavar="DIR", help="folder to write the cassettes to"
    )
    parser.add_argument(
        "--provenance",
        metavar="TEXT",
        help="where the recordings come from (default: the source file name and a PROVENANCE.md "
        "beside it)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite existing files in DIR")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    return run_import(
        args.sources, Path(args.out), provenance=args.provenance, force=args.force, console=console
    )


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """One source and the file it becomes."""

    source: Path
    target: Path


@dataclass(frozen=True, slots=True)
class Source:
    """A file to import and where it goes under ``--out``, without the suffix."""

    path: Path
    relative: Path


def _named_nothing(argument: str) -> str | None:
    """Why the source named ``argument`` is no file to import (``None``: it is one, or a
    folder)."""
    irregular = irregular_file_error(argument)
    if irregular is not None and not Path(argument).is_dir():
        return f"{argument} {irregular.problem}"
    if not Path(argument).exists():
        return f"{argument}: no such file"
    return None


def expand_sources(arguments: Sequence[str]) -> list[Source]:
    """The files named on the command line; a folder stands for every cassette under it.
    A name that leads to no file is a usage error, before anything is imported."""
    nothing = [reason for argument in arguments if (reason := _named_nothing(argument))]
    if nothing:
        raise UsageError(
            "; ".join(nothing) + ": pass cassette files or folders of them (nothing imported)"
        )
    sources: list[Source] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            # The cassettes check and lint read. Not only regular files: a named pipe or a
            # dangling symlink is named when it is skipped, not passed over in silence.
            found = cassette_files(path)
            if not found:
                raise UsageError(
                    f"{argument} holds no .yaml/.yml/.json cassette: pass cassette files"
                )
            sources.extend(Source(p, p.relative_to(path).with_suffix("")) for p in found)
        else:
            sources.append(Source(path, Path(path.stem)))
    return sources


def plan_imports(sources: Sequence[Source], out: Path) -> list[ImportPlan]:
    """Where each source goes; two sources with one target would write one file (usage error)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file: pass a folder (it is created when missing)")
    plans = [
        ImportPlan(source.path, out / source.relative.with_name(f"{source.relative.name}.json"))
        for source in sources
    ]
    clashes = [target for target, n in Counter(p.target for p in plans).items() if n > 1]
    if clashes:
        names = ", ".join(
            f"{target.name} <- " + " and ".join(str(p.source) for p in plans if p.target == target)
            for target in clashes
        )
        raise UsageError(
            f"two sources would write the same file ({names}): "
            "import them one at a time into different folders"
        )
    return plans


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What became of one source: written or not, and a line saying why."""

    written: bool
    message: str
    source_secrets: int = 0
    """How many secrets the source itself holds (the written copy holds none)."""


def _cassette_problem(exc: CassetteError) -> str:
    where = f" (line {exc.line})" if exc.line is not None else ""
    # A body still encoded is no fault of the file: its own hint says what to install.
    fix = (
        exc.hint
        if isinstance(exc, CassetteEncodedError)
        else "fix or replace the source file, then import again"
    )
    return f"{exc.problem.rstrip()}{where}; {fix}"


def import_one(
    plan: ImportPlan,
    *,
    provenance: str | None,
    force: bool,
    policy: ScrubPolicy = DEFAULT_POLICY,
) -> ImportOutcome:
    """Import one file unless its target exists (without ``force``) or it would hold secrets.

    ``policy`` is the project's scrubbing (``[tool.tooltape.scrub]``).
    """
    if not plan.source.is_file():
        irregular = irregular_file_error(plan.source)
        if irregular is not None:
            return ImportOutcome(False, f"{irregular.problem}; pass the cassette file itself")
        return ImportOutcome(False, "no such file; check the path")
    if scrub_text(plan.target.name, policy) != plan.target.name:
        return ImportOutcome(
            False, "not written: its name holds a credential; rename the source, then import"
        )
    if plan.target.exists() and not force:
        return ImportOutcome(False, _kept(plan.target))
    try:
        cassette = import_cassette(plan.source, provenance=provenance, policy=policy)
    except CassetteError as exc:
        return ImportOutcome(False, _cassette_problem(exc))
    findings = find_secrets(cassette, policy)
    if findings:
        where = ", ".join(f"{f.location} ({f.kind})" for f in findings[:5])
        return ImportOutcome(
            False,
            f"not written: the scrubbed cassette would still hold "
            f"{plural(len(findings), 'secret')} at {where}; remove them from the source by "
            "hand, then import again",
        )
    try:
        save_cassette(plan.target, cassette)
    except CassetteWriteError as exc:
        return ImportOutcome(False, str(exc))
    count = plural(len(cassette.interactions), "interaction")
    return ImportOutcome(
        True, f"-> {display_path(plan.target)} ({count})", _source_secrets(plan.source, policy)
    )


def _kept(target: Path) -> str:
    """Why an existing ``target`` was not overwritten, and what ``--force`` would do."""
    try:
        source = load_cassette(target).header.source
    except CassetteError:
        source = None
    if source in ("live", "loopback"):
        # Re-running a folder import after some tests were recorded again: --force
        # would put the older recordings back over the plugin's.
        return (
            f"{display_path(target)} exists, recorded by tooltape's plugin ({source}): kept; "
            "pass --force only to replace that recording with this import"
        )
    return f"{display_path(target)} exists; pass --force to overwrite it"


def _source_secrets(source: Path, policy: ScrubPolicy) -> int:
    """The secrets the source file itself holds, as ``tooltape lint`` counts them (in an
    entry the import does not read too: the copy has none of those)."""
    # A stricter read failing is no secret: the import read it, and that is not this note's
    # business.
    return sum(finding.kind == "secret" for finding in file_findings(source, policy))


def run_import(
    arguments: Sequence[str],
    out: Path,
    *,
    provenance: str | None,
    force: bool,
    console: Console,
) -> int:
    """Import every source, reporting each; 1 when any was not written."""
    plans = plan_imports(expand_sources(arguments), out)
    settings = project_settings()
    policy = live_policy(settings.scrub)
    style = console.style
    failed = 0
    holding: list[Path] = []
    for plan in plans:
        outcome = import_one(plan, provenance=provenance, force=force, policy=policy)
        if outcome.source_secrets:
            holding.append(plan.source)
        if outcome.written:
            console.print(f"{style.paint('imported', 'green')} {plan.source} {outcome.message}")
        else:
            failed += 1
            console.print(f"{style.paint('skipped', 'red')}  {plan.source}: {outcome.message}")
    written = len(plans) - failed
    summary = f"{plural(written, 'cassette')} written to {display_path(out)}"
    console.print(style.paint(f"{summary}, {failed} not", "red") if failed else summary)
    if written:
        # The plugin's wire-drift diff needs the bodies this code sends: an imported
        # cassette's may come from another client, so only method and path count.
        console.print(
            "imported cassettes replay matched on method and path, as vcrpy's default "
            "match_on: to catch drift in request bodies, record them again "
            "(`OPENAI_API_KEY=<your key> pytest --record-mode=rewrite`), or name `body` in "
            "the match_on of your vcr_config"
        )
    found = [
        item
        for plan in plans
        if (item := misplaced(plan.source, plan.target, settings)) is not None
    ]
    for line in misplaced_note(found) if found else ():
        console.print(line)
    if holding:
        console.print(
            f"{plural(len(holding), 'source')} still hold{'s' if len(holding) == 1 else ''} "
            "credentials the imported copies do not: "
            + ", ".join(display_path(path) for path in holding[:5])
            + (f" and {len(holding) - 5} more" if len(holding) > 5 else "")
        )
        console.print(
            "  delete them once the copies replay (`tooltape lint <folder>` lists what each "
            "holds, by place), and revoke the credentials if the files were ever shared or "
            "committed"
        )
    return EXIT_FAILURE if failed else EXIT_OK
