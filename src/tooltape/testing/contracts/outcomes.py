"""The cells and rows of the contract matrix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Outcome:
    """One cell of the contract matrix: passed or not, and why.

    A ``neutral`` outcome is neither: the check had nothing to run on (a kind
    with a snapshot but no recording) and never fails the kind.
    """

    ok: bool
    detail: str
    neutral: bool = False


Coverage = Literal["required", "recorded", "snapshot", "not covered"]
"""Why a kind is in the contract: the project requires it, recorded it, or
snapshotted its spec; or it is not covered (shown, never checked)."""


@dataclass(frozen=True, slots=True)
class KindReport:
    """The contract of one kind. ``streamed`` is informative and never fails a kind."""

    kind: str
    spec: Outcome
    replay: Outcome
    failure: Outcome
    streamed: Outcome
    coverage: Coverage = "recorded"

    @property
    def covered(self) -> bool:
        return self.coverage != "not covered"

    @property
    def ok(self) -> bool:
        if not self.covered:
            return True
        return all(o.ok or o.neutral for o in (self.spec, self.replay, self.failure))
