"""Run the contract of every registered kind over a project's cassette folder."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import HostedToolCodec
from tooltape.prompt import HostedTool
from tooltape.testing.contracts.checks import (
    PYTEST_UPDATE,
    KindReport,
    Outcome,
    check_kind,
    spec_path,
)
from tooltape.testing.contracts.client_checks import check_client_kind
from tooltape.testing.contracts.corpus import SPEC_DIR_NAME, Corpus, load_corpus
from tooltape.testing.contracts.subjects import (
    FUNCTION_ROW,
    ClientSubject,
    ContractSetupError,
    ContractSubject,
    Subject,
    builtin_subjects,
    client_subjects,
    subjects_from,
)


@dataclass(frozen=True, slots=True)
class ContractReport:
    """The matrix: one row per registered kind, plus cassettes that could not be read.

    ``unread_specs`` are spec snapshot files no checked kind reads: left from a
    kind that is gone, or written by a contract class the check was not told
    about. They are reported and never fail the check.
    """

    root: Path
    kinds: tuple[KindReport, ...]
    unread_specs: tuple[Path, ...] = ()
    unreadable: tuple[tuple[Path, str], ...] = ()

    @property
    def ok(self) -> bool:
        """Every covered or required kind keeps its contract, and every cassette reads."""
        return not self.unreadable and all(kind.ok for kind in self.kinds)

    @property
    def covered(self) -> tuple[KindReport, ...]:
        return tuple(kind for kind in self.kinds if kind.covered)

    @property
    def not_covered(self) -> tuple[KindReport, ...]:
        return tuple(kind for kind in self.kinds if not kind.covered)


def _unusable(kind: str, why: str) -> KindReport:
    failed = Outcome(False, why)
    return KindReport(kind, failed, failed, failed, Outcome(False, "-"), "required")


def run_contracts(
    root: Path,
    *,
    subjects: Mapping[str, Subject] | None = None,
    codecs: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
    tools: Mapping[str, HostedTool[Any]] | None = None,
    required: Collection[str] = (),
    update_specs: bool = False,
    update_hint: str = PYTEST_UPDATE,
    corpus: Corpus | None = None,
    on_kind: Callable[[str], None] | None = None,
) -> ContractReport:
    """Check every kind against the cassettes under ``root``.

    The kinds are ``subjects`` (default: the built-in hosted and client kinds), or explicit
    ``codecs`` with representative ``tools``. Kinds in ``required`` must keep
    their whole contract; others are checked as far as the project covers
    them (see :func:`~tooltape.testing.contracts.checks.check_kind`).
    """
    if subjects is None and codecs is not None:
        chosen: Mapping[str, Subject | str] = subjects_from(codecs, tools)
    elif subjects is None:
        chosen = {**builtin_subjects(), **client_subjects()}
    else:
        chosen = dict(subjects)
    unknown = sorted(set(required) - set(chosen))
    if unknown:
        raise ContractSetupError(
            f"required kind(s) {', '.join(map(repr, unknown))} are not registered; "
            f"the registered kinds are: {', '.join(sorted(chosen))}"
        )
    registry = {
        kind: subject.codec
        for kind, subject in chosen.items()
        if isinstance(subject, ContractSubject)
    }
    client_registry = {
        subject.codec.kind: subject.codec
        for subject in chosen.values()
        if isinstance(subject, ClientSubject) and subject.kind != FUNCTION_ROW
    }
    loaded = corpus if corpus is not None else load_corpus(root)
    reports: list[KindReport] = []
    for kind, subject in sorted(chosen.items()):
        if on_kind is not None:
            on_kind(kind)
        if isinstance(subject, str):
            reports.append(_unusable(kind, subject))
            continue
        if isinstance(subject, ClientSubject):
            reports.append(
                check_client_kind(
                    subject,
                    loaded,
                    registry=client_registry,
                    update_specs=update_specs,
                    update_hint=update_hint,
                    required=kind in required,
                )
            )
            continue
        reports.append(
            check_kind(
                subject,
                loaded,
                registry=registry,
                update_specs=update_specs,
                update_hint=update_hint,
                required=kind in required,
            )
        )
    unread = _unread_specs(loaded.root / SPEC_DIR_NAME, chosen)
    return ContractReport(root, tuple(reports), unread, loaded.unreadable)


def _unread_specs(spec_dir: Path, chosen: Mapping[str, Subject | str]) -> tuple[Path, ...]:
    """Snapshot files under ``spec_dir`` that no subject in ``chosen`` reads or writes."""
    read = {spec_path(spec_dir, s).name for s in chosen.values() if not isinstance(s, str)}
    # A configured codec that failed to import has no stem to compare; its row already fails.
    broken = {kind for kind, s in chosen.items() if isinstance(s, str)}
    try:
        files = sorted(p for p in spec_dir.glob("*.json") if p.is_file())
    except OSError:
        return ()
    return tuple(p for p in files if p.name not in read and p.name.split(".", 1)[0] not in broken)
