"""Shared timing helpers for the benchmarks: paired measurement and result rows.

Every benchmark compares two callables that do the same job on the same
inputs: tooltape's way and a baseline. ``compare`` times them in the same
process, interleaved (A, B, B, A, A, B, ...), so that drift in machine load,
CPU frequency or caches hits both sides alike; each side gets warm-up calls
first, then ``repeats`` timed batches of ``number`` calls, and the median
batch (divided by ``number``) is its per-call time. Time is the process's CPU
time (``time.process_time``): on a machine shared with other jobs, wall time
mostly measures the neighbours.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The repository root (``benchmarks/`` sits directly under it)."""


@dataclass(frozen=True)
class Result:
    """One benchmark row: both per-call times (seconds) and the target on their ratio.

    ``ratio`` is always tooltape's time divided by the baseline's time, so
    ``0.2`` means tooltape takes a fifth of the time (5x faster) and ``1.3``
    means it takes 30% longer. The target is met when ``ratio <= max_ratio``.
    """

    name: str
    ours_label: str
    ours: float
    base_label: str
    base: float
    max_ratio: float
    target: str
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ours / self.base

    @property
    def passed(self) -> bool:
        return self.ratio <= self.max_ratio


def _batch(fn: Callable[[], object], number: int) -> float:
    gc.collect()
    start = time.process_time()
    for _ in range(number):
        fn()
    return time.process_time() - start


def compare(
    ours: Callable[[], object],
    base: Callable[[], object],
    *,
    repeats: int,
    number: int,
    warmup: int = 3,
) -> tuple[float, float]:
    """Median per-call seconds of ``ours`` and ``base``, measured interleaved.

    Each side is called ``warmup`` times first (imports, caches, lazily built
    validators), then ``repeats`` batches of ``number`` calls are timed for
    each, alternating which side goes first.
    """
    if repeats < 1 or number < 1:
        raise ValueError("repeats and number must be at least 1")
    for _ in range(warmup):
        ours()
        base()
    ours_times: list[float] = []
    base_times: list[float] = []
    for index in range(repeats):
        if index % 2 == 0:
            ours_times.append(_batch(ours, number))
            base_times.append(_batch(base, number))
        else:
            base_times.append(_batch(base, number))
            ours_times.append(_batch(ours, number))
    return statistics.median(ours_times) / number, statistics.median(base_times) / number


def compare_all(
    sides: dict[str, Callable[[], object]],
    *,
    repeats: int,
    number: int,
    warmup: int = 1,
) -> dict[str, float]:
    """Median per-call seconds of every side, measured interleaved.

    Like :func:`compare` for more than two sides: each round times one batch
    of every side, and the order of the sides rotates from round to round.
    """
    if repeats < 1 or number < 1:
        raise ValueError("repeats and number must be at least 1")
    names = list(sides)
    for _ in range(warmup):
        for name in names:
            sides[name]()
    times: dict[str, list[float]] = {name: [] for name in names}
    for index in range(repeats):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(_batch(sides[name], number))
    return {name: statistics.median(values) / number for name, values in times.items()}


def format_seconds(seconds: float) -> str:
    """``12.3 ms``, ``45.6 us`` or ``1.23 s``."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"
