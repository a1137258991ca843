"""Errors raised for cassettes that cannot be read or must not be written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "REPAIR_HINT",
    "CassetteError",
    "CassetteSecretError",
    "SecretFinding",
    "StructureError",
]

REPAIR_HINT = (
    "restore it from version control (`git checkout -- <file>`) or re-record it "
    "with `pytest --record-mode=rewrite <test nodeid>`"
)
"""What to do about a cassette that cannot be read."""


class CassetteError(Exception):
    """A cassette file that cannot be read (or written).

    The message names the file, what is wrong (with line and column when the
    parser reports them) and what to do about it.
    """

    def __init__(
        self,
        path: Path | str,
        problem: str,
        *,
        hint: str = REPAIR_HINT,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.path = Path(path)
        self.problem = problem
        self.hint = hint
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f" (line {line}" + (f", column {column})" if column is not None else ")")
        super().__init__(f"cassette {self.path}: {problem}{where}; {hint}")


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """A value that looks like a credential, where it sits and a masked excerpt.

    ``location`` is a JSON pointer into the on-disk tooltape document, e.g.
    ``/interactions/0/request/headers/authorization/0``.
    """

    location: str
    excerpt: str
    kind: str = "key-shaped string"


class CassetteSecretError(CassetteError):
    """A cassette refused because it would still hold credentials."""

    def __init__(self, path: Path | str, findings: Sequence[SecretFinding]) -> None:
        self.findings = tuple(findings)
        listing = "".join(
            f"\n  {finding.location}: {finding.excerpt} ({finding.kind})" for finding in findings
        )
        super().__init__(
            path,
            f"not written, it would hold {len(self.findings)} secret(s):{listing}\n",
            hint=(
                "scrub them before saving (register tooltape's before_record_request / "
                "before_record_response hooks, or filter_headers / filter_query_parameters "
                "in vcr_config), then record again"
            ),
        )


class StructureError(ValueError):
    """A document that parsed but does not have a cassette's shape (internal).

    ``where`` is a JSON pointer into the document; callers that know the file
    turn this into a :class:`CassetteError`.
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where or '/'}: {problem}")
