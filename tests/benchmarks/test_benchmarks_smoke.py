"""Smoke test of ``benchmarks/``: each benchmark runs with tiny sizes.

No timing is asserted (that is what ``python benchmarks/run.py`` reports);
this only proves every benchmark still runs, returns positive timings, and
that the inputs it compares are really equivalent (each benchmark's ``check``
passes, and fails when the sides are given different inputs).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pydantic
import pytest
from vcr.persisters.filesystem import FilesystemPersister
from vcr.serializers import jsonserializer

BENCHMARKS_DIR = Path(__file__).resolve().parents[2] / "benchmarks"
MODULES = (
    "bench_cassette_load",
    "bench_replay",
    "bench_conversation",
    "bench_dispatch",
    "bench_parse",
    "bench_lint",
    "run",
)


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
    _assert_positive(bench["bench_cassette_load"].run(repeats=1, number=1), count=2)


def test_cassette_load_check_catches_different_inputs(
    bench: dict[str, ModuleType], tmp_path: Path
) -> None:
    module = bench["bench_cassette_load"]
    inputs = module.prepare(tmp_path)
    module.check(inputs)
    yaml_a, yaml_b, *rest = inputs.yaml
    swapped = dataclasses.replace(inputs, yaml=(yaml_b, yaml_a, *rest))
    with pytest.raises(AssertionError, match="different requests"):
        module.check(swapped)


def test_cassette_load_check_compares_the_written_responses(
    bench: dict[str, ModuleType], tmp_path: Path
) -> None:
    module = bench["bench_cassette_load"]
    inputs = module.prepare(tmp_path)
    path = inputs.json[0]
    requests, responses = module.vcrpy_load(path, jsonserializer)
    # the baseline now holds a content-length the tooltape side never writes
    responses[0]["headers"]["content-length"] = ["1"]
    FilesystemPersister.save_cassette(
        str(path), {"requests": requests, "responses": responses}, serializer=jsonserializer
    )
    with pytest.raises(AssertionError, match="different responses"):
        module.check(inputs)


def test_replay_runs_every_project(bench: dict[str, ModuleType]) -> None:
    # run() checks first: every project passes, and both cassettes of each test agree.
    rows = bench["bench_replay"].run(tests=2, more=3, repeats=1, warmup=0)
    _assert_positive(rows, count=2)
    assert "marginal per test (2 to 3 tests)" in rows[0].note


def test_replay_check_catches_a_different_cassette(
    bench: dict[str, ModuleType], tmp_path: Path
) -> None:
    module = bench["bench_replay"]
    projects = module.write_projects(tmp_path, 2)
    (recording,) = [project for project in projects if project.name == "recording"]
    folder = recording.root / "tests" / "cassettes" / recording.module
    shutil.copyfile(folder / "test_call_001.yaml", folder / "test_call_000.yaml")
    with pytest.raises(AssertionError):
        module.check(projects)


def test_conversation_runs_and_both_sides_answer_alike(bench: dict[str, ModuleType]) -> None:
    _assert_positive(bench["bench_conversation"].run(sizes=(2, 4), repeats=1), count=2)


def test_conversation_check_catches_a_different_cassette(
    bench: dict[str, ModuleType], tmp_path: Path
) -> None:
    module = bench["bench_conversation"]
    sides = module.Sides(tmp_path, 3)
    module.write_vcrpy(sides.yaml_path, module.conversation(3)[::-1])
    with pytest.raises(AssertionError, match="cassettes differ"):
        module.check(sides)


def test_dispatch_runs_and_every_side_validates_alike(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_dispatch"]
    _assert_positive(module.run(repeats=1, number=1), count=2)
    setup = module.setup()
    assert setup.ours() == setup.base() == setup.agents()
    assert setup.executor.invocations[-1].params == module.SearchParams(
        query="tooltape cassettes", max_results=3, domains=("python.org", "openai.com")
    )
    setup.loop.close()


def test_dispatch_check_catches_different_arguments(
    bench: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = bench["bench_dispatch"]
    setup = module.setup()
    monkeypatch.setattr(
        setup, "base", lambda: module.search(module.SearchParams("other"), context=setup.context)
    )
    with pytest.raises(AssertionError):
        module.check(setup)
    setup.loop.close()


def test_parse_runs_on_bytes_the_sdk_accepts(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_parse"]
    _assert_positive(module.run(repeats=1, number=1), count=len(module.BODIES))


def test_parse_check_catches_a_missing_call(bench: dict[str, ModuleType]) -> None:
    module = bench["bench_parse"]
    setup = module.setup(module.BODIES["image generation"])
    setup.raw = setup.raw.replace(b'"image_generation_call"', b'"image_generation_cal"', 1)
    with pytest.raises((AssertionError, pydantic.ValidationError)):
        module.check(setup)


def test_lint_runs_and_its_check_sees_an_unused_cassette(
    bench: dict[str, ModuleType], tmp_path: Path
) -> None:
    module = bench["bench_lint"]
    _assert_positive(module.run(sizes=(10, 20), repeats=1))
    root = module.write_project(tmp_path / "p", 10)
    module.check(root)  # passes as written; inside, a removed test is reported
    (root / "tests" / "test_area_3.py").write_text('"""No tests left."""\n')
    with pytest.raises(AssertionError):
        module.check(root)


def test_run_py_prints_every_row(
    bench: dict[str, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = bench["run"]
    tiny = {
        "load": {"repeats": 1, "number": 1},
        "replay": {"tests": 1, "repeats": 1, "warmup": 0},
        "conversation": {"sizes": (1, 2), "repeats": 1},
        "dispatch": {"repeats": 1, "number": 1},
        "parse": {"repeats": 1, "number": 1},
        "lint": {"sizes": (10, 20), "repeats": 1},
    }
    assert set(tiny) == set(module.BENCHMARKS)
    for name, sizes in tiny.items():
        runner, full, _ = module.BENCHMARKS[name]
        monkeypatch.setitem(module.BENCHMARKS, name, (runner, full, sizes))
    assert module.main(["--quick", "--in-process"]) == 0
    out = capsys.readouterr().out
    for name in (
        "load vs vcrpy yaml",
        "load vs vcrpy json",
        "replay vs pytest-recording",
        "replay vs MockTransport",
        "conversation 2 vs vcrpy",
        "conversation 2 vs 1",
        "dispatch vs agents",
        "dispatch vs floor",
        "parse code interpreter",
        "parse image generation",
        "lint 20 vs 10",
    ):
        assert name in out
    assert out.count("PASS") + out.count("MISS") == 11


def test_run_py_child_prints_results_as_json(
    bench: dict[str, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    # What the parent process reads back from each fresh benchmark process.
    module = bench["run"]
    assert module.main(["--child", "dispatch", "--quick"]) == 0
    rows = json.loads(capsys.readouterr().out)
    results = [module.Result(**fields) for fields in rows]
    assert [r.name for r in results] == ["dispatch vs agents", "dispatch vs floor"]
    assert all(r.ours > 0 and r.base > 0 for r in results)
