"""Run tooltape's benchmarks and print each comparison with its target.

    python benchmarks/run.py            # full run (about a minute on 2 cores)
    python benchmarks/run.py --quick    # fewer repeats, for a quick look
    python benchmarks/run.py --only replay --only dispatch

Each row shows tooltape's time and the baseline's time, measured side by side
in the same process on the same inputs (interleaved batches, median), the
ratio tooltape / baseline, the target on that ratio and PASS or MISS. What
each benchmark compares and why it is fair is in its module's docstring
(``benchmarks/bench_*.py``) and in ``benchmarks/README.md``.

Exit status: 0, or 1 with ``--strict`` when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_cassette_load
import bench_dispatch
import bench_parse
import bench_replay
from bench_timing import Result, format_seconds

Runner = Callable[..., list[Result]]

# name: (run function, full-run sizes, --quick sizes)
BENCHMARKS: dict[str, tuple[Runner, dict[str, Any], dict[str, Any]]] = {
    "load": (
        bench_cassette_load.run,
        {"repeats": 15, "number": 5},
        {"repeats": 5, "number": 2},
    ),
    "replay": (
        bench_replay.run,
        {"tests": 48, "repeats": 7},
        {"tests": 12, "repeats": 3},
    ),
    "dispatch": (
        bench_dispatch.run,
        {"repeats": 15, "number": 2000},
        {"repeats": 5, "number": 500},
    ),
    "parse": (
        bench_parse.run,
        {"repeats": 15, "number": 20},
        {"repeats": 5, "number": 5},
    ),
}


def _row(result: Result) -> str:
    verdict = "PASS" if result.passed else "MISS"
    return (
        f"{result.name:<24} {format_seconds(result.ours):>10} {format_seconds(result.base):>10} "
        f"{result.ratio:>7.2f}  {result.target:<20} {verdict}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and smaller sizes")
    parser.add_argument(
        "--only", action="append", choices=sorted(BENCHMARKS), help="run only these (repeatable)"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    print(
        f"tooltape benchmarks: Python {platform.python_version()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} CPUs; {'quick' if args.quick else 'full'} run"
    )
    print("times are medians of interleaved batches; ratio = tooltape / baseline\n")
    header = (
        f"{'benchmark':<24} {'tooltape':>10} {'baseline':>10} {'ratio':>7}  {'target':<20} result"
    )
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    results: list[Result] = []
    for name, (runner, full, quick) in BENCHMARKS.items():
        if args.only and name not in args.only:
            continue
        for result in runner(**(quick if args.quick else full)):
            results.append(result)
            print(_row(result))
            print(f"    {result.ours_label} vs {result.base_label}; {result.note}")
            sys.stdout.flush()
    missed = [r.name for r in results if not r.passed]
    elapsed = time.perf_counter() - started
    print(
        f"\n{len(results) - len(missed)} of {len(results)} targets met in {elapsed:.0f} s", end=""
    )
    print(f"; missed: {', '.join(missed)}" if missed else "")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
