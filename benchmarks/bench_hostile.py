"""What refusing a hostile cassette costs: time and memory, each input in a fresh process.

    python benchmarks/bench_hostile.py            # every input
    python benchmarks/bench_hostile.py --strict   # exit 1 when a target is missed

The inputs are the ones ``tests/testing/test_cassette_limits.py`` shows are
refused with a clear error: 100k-deep JSON and YAML, billion laughs, an alias
bomb under ``parsed_body``, YAML merge keys, a 5000-digit status code; and,
for scale, the largest real recording. Each is read by ``load_cassette`` in
its own ``python`` process; the row gives the time of that call and the peak
resident memory of the process above that of a process that only imports
tooltape the same way. Targets: about a second and 100 MB per input (DESIGN.md,
"Reading is bounded"). Unlike ``run.py`` there is no baseline to race: the
point is an absolute bound.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TIME_TARGET = 1.0
MEMORY_TARGET_MB = 100.0

_CHILD = """
import json, resource, sys, time
from tooltape.testing.cassette import CassetteError, load_cassette
start = time.perf_counter()
outcome = "read"
if sys.argv[1] != "-":
    try:
        load_cassette(sys.argv[1])
    except CassetteError as error:
        outcome = error.problem[:60]
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mb": peak, "outcome": outcome}))
"""


def _laughs(levels: int) -> str:
    lines = ["a0: &a0 [lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"interactions: *a{levels}", ""])


def inputs() -> dict[str, str]:
    """File name to content of every hostile input."""
    depth = 100_000
    bomb = "x0: &x0 {k: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n" + "".join(
        f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 10) + "]\n" for i in range(1, 8)
    )
    status = {
        "tooltape": {"version": "1", "source": "live"},
        "interactions": [
            {
                "request": {"method": "GET", "uri": "https://x.test/v1/r", "headers": {}},
                "response": {"status_code": "CODE", "reason": "OK", "headers": {}},
            }
        ],
    }
    merges = "a0: &a0 {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8}\n" + "".join(
        f"a{i}: &a{i} {{<<: [" + ", ".join([f"*a{i - 1}"] * 9) + "]}\n" for i in range(1, 8)
    )
    return {
        "deep.json": '{"tooltape": {"version": "1", "source": "live"}, "interactions": '
        + "[" * depth
        + "]" * depth
        + "}",
        "deep.yaml": "interactions:\n- " + "[" * depth + "]" * depth + "\n",
        "billion_laughs.yaml": _laughs(9),
        "parsed_body_bomb.yaml": bomb
        + textwrap.dedent(
            """\
            interactions:
            - request: {method: POST, uri: 'https://x.test/v1/responses', headers: {}}
              response:
                status: {code: 200, message: OK}
                headers: {content-type: [application/json]}
                parsed_body: *x7
            """
        ),
        "merge_keys.yaml": merges + "interactions: []\n",
        "status_digits.json": json.dumps(status).replace('"CODE"', "7" * 5000),
    }


def _measure(path: str) -> dict[str, float | str]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, path], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return {"seconds": float("nan"), "peak_mb": float("nan"), "outcome": done.stderr[-80:]}
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    """Measure every input; return 1 with ``--strict`` when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)
    base = _measure("-")
    missed = 0
    print(f"memory: peak above a process that only imports tooltape ({base['peak_mb']:.0f} MB)")
    print(f"{'input':40} {'seconds':>8} {'memory':>9}  result  outcome")
    with tempfile.TemporaryDirectory() as folder:
        files = {name: Path(folder) / name for name in inputs()}
        for name, text in inputs().items():
            files[name].write_text(text, encoding="utf-8")
        real = REPO / "cassettes" / "imported" / "code_execution_return_image.json"
        files["real: " + real.name] = real
        for name, path in files.items():
            row = _measure(str(path))
            memory = float(row["peak_mb"]) - float(base["peak_mb"])
            ok = float(row["seconds"]) <= TIME_TARGET and memory <= MEMORY_TARGET_MB
            missed += not ok
            print(
                f"{name:40} {float(row['seconds']):8.3f} {memory:7.1f} MB  "
                f"{'PASS' if ok else 'MISS':6}  {row['outcome']}"
            )
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
