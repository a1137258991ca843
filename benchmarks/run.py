"""Run tooltape's benchmarks and print each comparison with its target.

    python benchmarks/run.py            # full run (a few minutes on 2 shared cores)
    python benchmarks/run.py --quick    # fewer repeats, for a quick look
    python benchmarks/run.py --only replay --only dispatch

Each row shows tooltape's time and the baseline's time, measured side by side
in the same process on the same inputs (interleaved batches, median CPU time), the
ratio tooltape / baseline, the target on that ratio and PASS or MISS. What
each benchmark compares and why it is fair is in its module's docstring
(``benchmarks/bench_*.py``) and in ``benchmarks/README.md``.

Every benchmark runs in a fresh Python process: what one leaves behind (a
larger heap, the allocator's state) measurably slows some code down, e.g. the
SDK's ``Response.model_validate_json`` ran about 3x slower after the replay
benchmark, which would flatter tooltape. ``--in-process`` runs them all in
this process instead (faster start-up; used by the smoke test).

Exit status: 0, or 1 with ``--strict`` when a target is missed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_cassette_load
import bench_conversation
import bench_dispatch
import bench_lint
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
        {"tests": 40, "more": 160, "repeats": 5},
        {"tests": 40, "more": 0, "repeats": 3},
    ),
    "conversation": (
        bench_conversation.run,
        {"sizes": (50, 100, 200, 300), "repeats": 3},
        {"sizes": (50, 100, 200, 300), "repeats": 1},
    ),
    "dispatch": (
        bench_dispatch.run,
        {"repeats": 15, "number": 40},
        {"repeats": 3, "number": 4},
    ),
    "parse": (
        bench_parse.run,
        {"repeats": 15, "number": 20},
        {"repeats": 5, "number": 5},
    ),
    "lint": (
        bench_lint.run,
        {"sizes": (100, 250, 500, 1000), "repeats": 3},
        {"sizes": (100, 1000), "repeats": 1},
    ),
}


def run_benchmark(name: str, *, quick: bool, in_process: bool) -> list[Result]:
    """Run one benchmark here, or in a fresh ``python run.py --child NAME``."""
    runner, full, small = BENCHMARKS[name]
    if in_process:
        return runner(**(small if quick else full))
    command = [sys.executable, str(Path(__file__).resolve()), "--child", name]
    if quick:
        command.append("--quick")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark {name!r} failed:\n{done.stderr}")
    return [Result(**fields) for fields in json.loads(done.stdout)]


def _row(result: Result) -> str:
    verdict = "PASS" if result.passed else "MISS"
    return (
        f"{result.name:<28} {format_seconds(result.ours):>10} {format_seconds(result.base):>10} "
        f"{result.ratio:>7.2f}  {result.target:<20} {verdict}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and smaller sizes")
    parser.add_argument(
        "--only", action="append", choices=sorted(BENCHMARKS), help="run only these (repeatable)"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--in-process", action="store_true", help="run every benchmark in this process"
    )
    parser.add_argument("--child", choices=sorted(BENCHMARKS), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:  # one benchmark, results as JSON for the parent process
        results = run_benchmark(args.child, quick=args.quick, in_process=True)
        print(json.dumps([dataclasses.asdict(result) for result in results]))
        return 0

    print(
        f"tooltape benchmarks: Python {platform.python_version()}, {platform.system()} "
        f"{platform.machine()}, {os.cpu_count()} CPUs; {'quick' if args.quick else 'full'} run"
    )
    where = "all in this process" if args.in_process else "each benchmark in a fresh process"
    print(
        f"times are medians of interleaved batches, CPU time ({where}); "
        "ratio = tooltape / baseline\n"
    )
    header = (
        f"{'benchmark':<28} {'tooltape':>10} {'baseline':>10} {'ratio':>7}  {'target':<20} result"
    )
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    results: list[Result] = []
    for name in BENCHMARKS:
        if args.only and name not in args.only:
            continue
        for result in run_benchmark(name, quick=args.quick, in_process=args.in_process):
            results.append(result)
            print(_row(result))
            print(f"    {result.ours_label} vs {result.base_label}; {result.note}")
            sys.stdout.flush()
    missed = [r.name for r in results if not r.passed]
    met = f"{len(results) - len(missed)} of {len(results)} targets met"
    elapsed = f"in {time.perf_counter() - started:.0f} s"
    print(f"\n{met} {elapsed}; missed: {', '.join(missed)}" if missed else f"\n{met} {elapsed}")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
