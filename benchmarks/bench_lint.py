"""``tooltape lint`` as a project grows: 1000 cassettes vs 100, each used by its own test.

A project is written with ``n`` tests spread over ten test modules
(``tests/test_area_<k>.py``, ``n / 10`` test functions each) and one cassette
per test at the plugin's path (``cassettes/tests/test_area_<k>/test_<j>.json``,
each a copy of the real ``web_search`` contract cassette). Timed is
``tooltape lint`` on it, in this process (``tooltape.cli.main(["lint"])``
from the project root, its output discarded): every cassette read and
checked for secrets, escaped JSON and binary bodies, and mapped to the test
that uses it.

The baseline is the same command on the same kind of project with 100
cassettes: the ratio is how lint's time grows with ten times the cassettes.
Linear growth is a ratio near 10; the target allows 12. The note shows the
time per cassette at 100, 250, 500 and 1000.

``check`` proves lint finds nothing to report on either project (every
cassette is used by its own test, none holds a secret), and that it does
report a cassette whose test is removed.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bench_timing import REPO, Result, compare_all, format_seconds

from tooltape.cli import main as tooltape_main

SOURCE = (
    REPO
    / "cassettes"
    / "tests"
    / "contracts"
    / "test_recorded_contracts"
    / "test_hosted_kind_round_trip[web_search].json"
)
MODULES = 10
MAX_RATIO = 12.0
SIZES = (100, 250, 500, 1000)


def write_project(root: Path, cassettes: int) -> Path:
    """A project with ``cassettes`` tests over ten modules, one cassette each."""
    per_module = cassettes // MODULES
    (root / "tests").mkdir(parents=True)
    for module in range(MODULES):
        name = f"test_area_{module}"
        tests = "".join(
            f"\n\ndef test_{index:04d}(openai_client):\n    assert openai_client\n"
            for index in range(per_module)
        )
        (root / "tests" / f"{name}.py").write_text(f'"""Area {module}."""{tests}')
        folder = root / "cassettes" / "tests" / name
        folder.mkdir(parents=True)
        for index in range(per_module):
            shutil.copyfile(SOURCE, folder / f"test_{index:04d}.json")
    return root


@contextlib.contextmanager
def _in(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def lint(root: Path) -> tuple[int, str]:
    """``tooltape lint`` in ``root``: exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with _in(root), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tooltape_main(["lint"])
    return status, out.getvalue() + err.getvalue()


def check(root: Path) -> None:
    """Raise ``AssertionError`` unless lint passes on ``root`` and fails without a test."""
    status, output = lint(root)
    assert status == 0, output
    module = root / "tests" / "test_area_0.py"
    kept = module.read_text()
    module.write_text(kept.replace("def test_0000(", "def gone_0000("))
    try:
        status, output = lint(root)
        assert status == 1 and "unused cassette" in output and "test_0000" in output, output
    finally:
        module.write_text(kept)


def run(*, sizes: tuple[int, ...] = SIZES, repeats: int = 3) -> list[Result]:
    """Time lint on each project size, interleaved; medians."""
    with tempfile.TemporaryDirectory(prefix="tooltape-bench-") as tmp:
        roots = {size: write_project(Path(tmp) / f"n{size}", size) for size in sizes}
        for root in roots.values():
            check(root)
        medians = compare_all(
            {str(size): (lambda root=root: lint(root)) for size, root in roots.items()},
            repeats=repeats,
            number=1,
        )
    small, large = min(sizes), max(sizes)
    slope = "; ".join(f"{size}: {format_seconds(medians[str(size)] / size)}" for size in sizes)
    return [
        Result(
            name=f"lint {large} vs {small}",
            ours_label=f"tooltape lint, {large} cassettes",
            ours=medians[str(large)],
            base_label=f"tooltape lint, {small} cassettes",
            base=medians[str(small)],
            max_ratio=MAX_RATIO,
            target=f"<= {MAX_RATIO:.0f} (linear)",
            note=f"time per cassette at {slope}",
        )
    ]
