"""Smoke test of ``benchmarks/``: each benchmark runs with tiny sizes.

No timing is asserted (that is what ``python benchmarks/run.py`` reports);
this only proves every benchmark still runs, returns positive timings, and
that the inputs it compares are really equivalent (each benchmark's ``check``
passes, and fails when the two sides are given different inputs).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pydantic
import pytest

BENCHMARKS_DIR = Path(__file__).resolve().parents[2] / "benchmarks"
MODULES = ("bench_cassette_load", "bench_replay", "bench_dispatch", "bench_parse", "run")


@pytest.fixture(scope="module")
def bench() -> Iterator[dict[str, ModuleType]]:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCHMARKS_DIR))
        yield {name: importlib.import_module(name) for name in MODULES}


def _assert_positive(results: list[object], count: int = 1) -> None:
    assert len(results) == count
    for result in results:
        assert result.ours > 0 and result.base > 0, result  # type: ignore[attr-defined]
        assert result.ratio > 0  # type: ignore[attr-defined]


def test_cassette_load_runs(bench: dict[str, ModuleType]) -> None:
    _assert_positive(bench["bench_cassette_load"].run(repeats=1, number=1))


@pytest.mark.parametrize("real", [True, False], ids=["real-yaml", "generated-yaml"])
def test_cassette_load_inputs_are_the_same_interactions(
    bench: dict[str, ModuleType], tmp_path: Path, real: bool
) -> None:
    module = bench["bench_cassette_load"]
    inputs = module.prepare(tmp_path, real_yaml_dir=module.REAL_YAML if real else None)
    assert len(inputs.pairs) == len(list(module.IMPORTED.glob("*.json")))
    assert inputs.real_yaml == (len(inputs.pairs) if real else 0)
    module.check(inputs)


def test_cassette_load_check_catches_different_inputs(
    bench: dict[str, ModuleType], tmp_path: Path
) -> None:
    module = bench["bench_cassette_load"]
    inputs = module.prepare(tmp_path, real_yaml_dir=None)
    (json_a, yaml_a), (json_b, yaml_b), *_ = inputs.pairs
    swapped = dataclasses.replace(inputs, pairs=((json_a, yaml_b), (json_b, yaml_a)))
    with pytest.raises(AssertionError, match="different interactions"):
        module.check(swapped)


def test_replay_runs_and_both_sides_evaluate_alike(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_replay"]
    # run() checks every kind first: same results, and the respx side got the recorded request.
    _assert_positive(module.run(tests=2, repeats=1))


def test_replay_check_catches_a_different_body(
    bench: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = bench["bench_replay"]
    real_recorded = module.recorded
    monkeypatch.setattr(module, "recorded", lambda kind: real_recorded("mcp"))
    with pytest.raises(AssertionError):
        module.check(["web_search"])


def test_dispatch_runs_and_both_sides_validate_alike(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_dispatch"]
    _assert_positive(module.run(repeats=1, number=3))
    setup = module.setup()
    assert setup.ours() == setup.base()
    assert setup.executor.invocations[-1].params == module.SearchParams(
        query="tooltape cassettes", max_results=3, domains=("python.org", "openai.com")
    )


def test_parse_runs_on_bytes_the_sdk_accepts(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_parse"]
    _assert_positive(module.run(repeats=1, number=1), count=len(module.BODIES))


def test_parse_check_catches_a_missing_call(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_parse"]
    setup = module.setup(module.BODIES["image generation"])
    setup.raw = setup.raw.replace(b'"image_generation_call"', b'"image_generation_cal"', 1)
    with pytest.raises((AssertionError, pydantic.ValidationError)):
        module.check(setup)


def test_run_py_prints_every_row(
    bench: dict[str, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = bench["run"]
    tiny = {
        "load": {"repeats": 1, "number": 1},
        "replay": {"tests": 1, "repeats": 1, "kinds": ["web_search"]},
        "dispatch": {"repeats": 1, "number": 2},
        "parse": {"repeats": 1, "number": 1},
    }
    for name, sizes in tiny.items():
        runner, full, _ = module.BENCHMARKS[name]
        monkeypatch.setitem(module.BENCHMARKS, name, (runner, full, sizes))
    assert module.main(["--quick", "--in-process"]) == 0
    out = capsys.readouterr().out
    for name in ("cassette load", "replay", "dispatch", "parse code interpreter"):
        assert name in out
    assert out.count("PASS") + out.count("MISS") == 5


def test_run_py_child_prints_results_as_json(
    bench: dict[str, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    # What the parent process reads back from each fresh benchmark process.
    module = bench["run"]
    assert module.main(["--child", "dispatch", "--quick"]) == 0
    (fields,) = json.loads(capsys.readouterr().out)
    result = module.Result(**fields)
    assert result.name == "dispatch" and result.ours > 0 and result.base > 0
