"""Where a secret stands in a text, and what takes its place."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Span"]


@dataclass(frozen=True, slots=True)
class Span:
    """``text[start:end]`` is a secret of ``kind``; ``replacement`` takes its place."""

    start: int
    end: int
    kind: str
    replacement: str
