"""Replay per test: a 40-test project under the tooltape plugin vs plain pytest-recording.

A small project is written to a temporary folder three times, once per side,
with the same 40 tests. Each test makes one ``client.responses.create(**body)``
call with the request body recorded in one of the contract cassettes
(``cassettes/tests/contracts/test_recorded_contracts/``, the six hosted kinds,
cycled) and asserts the response id. What is timed is the whole
``pytest.main`` run of the project, in this process, divided by 40:

- tooltape: the tests use the plugin's ``openai_client`` fixture (marked
  ``vcr`` automatically); cassettes are tooltape JSON under
  ``cassettes/tests/<module>/``. This is what CI runs.
- baseline "pytest-recording": ``-p no:tooltape``; tests are
  ``@pytest.mark.vcr`` with pytest-recording's defaults (record mode
  ``none``, vcrpy's default matching on method and URL), cassettes in vcrpy's
  default YAML, written by vcrpy itself, under ``tests/cassettes/<module>/``;
  the client fixture builds the client as the plugin's does (one shared SSL
  context: ``openai.DefaultHttpxClient(verify=context)``).
- baseline "floor": ``-p no:tooltape -p no:recording``; the client's
  transport is an in-memory ``httpx2.MockTransport`` that answers with the
  recorded status, headers and body. No cassette at all: the least a test of
  this code can cost.

Why it is fair: the same tests, the same request bodies, the same response
bytes, the same client construction, the same pytest; only what answers the
request differs. ``check`` proves it: each project passes (every test got the
recorded response id), and for every test the tooltape cassette and the
vcrpy cassette hold the same requests and responses.

Targets: tooltape at most 0.70x pytest-recording, at most 1.5x the floor.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bench_cassettes import API_URI, Pair, loaded, write_tooltape, write_vcrpy
from bench_timing import REPO, Result, compare_all, format_seconds

from tooltape.testing.cassette import cassette_to_vcr, load_cassette
from tooltape.testing.kinds import canonical_tools

CONTRACTS = REPO / "cassettes" / "tests" / "contracts" / "test_recorded_contracts"
_PROJECTS = itertools.count()
RECORDING_MAX = 0.7
FLOOR_MAX = 1.5

_HEAD = """\
import json
from pathlib import Path

import pytest

DATA = json.loads((Path(__file__).parent / "bench_data.json").read_text())
"""

_CLIENT = """\
import functools

import httpx2
import openai


@functools.cache
def _context():
    return httpx2.create_ssl_context()


@pytest.fixture
def openai_client():
    return openai.OpenAI(
        api_key="sk-bench-placeholder", http_client=openai.DefaultHttpxClient(verify=_context())
    )
"""

_MOCK = """\
import httpx2
import openai


@pytest.fixture
def openai_client(request):
    kind = DATA["plan"][int(request.node.name.rsplit("_", 1)[1])]
    status, headers, body = DATA["responses"][kind]

    def answer(sent):
        return httpx2.Response(status, headers=headers, content=body.encode())

    transport = httpx2.MockTransport(answer)
    return openai.OpenAI(
        api_key="sk-bench-placeholder", http_client=openai.DefaultHttpxClient(transport=transport)
    )
"""

_TEST = """
{mark}def test_call_{index:03d}(openai_client):
    response = openai_client.responses.create(**DATA["requests"]["{kind}"])
    assert response.id == DATA["ids"]["{kind}"]
"""


@dataclass(frozen=True)
class Project:
    """One side's project: where it is and the pytest arguments that run it."""

    name: str
    root: Path
    args: tuple[str, ...]
    module: str

    def run(self) -> int:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return int(pytest.main([*self.args, str(self.root / "tests")]))


def kinds() -> list[str]:
    return sorted(canonical_tools())


def recorded_pairs() -> dict[str, Pair]:
    """Each kind's recorded interaction as vcrpy dicts, addressed to the API's URL."""
    pairs: dict[str, Pair] = {}
    for kind in kinds():
        data = cassette_to_vcr(
            load_cassette(CONTRACTS / f"test_hosted_kind_round_trip[{kind}].json")
        )
        ((request, response),) = [(i["request"], i["response"]) for i in data["interactions"]]  # type: ignore[index]
        request = {**request, "uri": API_URI}
        request["headers"] = {k: v for k, v in request["headers"].items() if k != "host"}
        pairs[kind] = (request, response)
    return pairs


def _common_args(root: Path) -> tuple[str, ...]:
    return ("-q", "-p", "no:cacheprovider", "--rootdir", str(root), "-c", str(root / "pytest.ini"))


def write_projects(workdir: Path, tests: int) -> list[Project]:
    """The three projects, each with ``tests`` tests over the six kinds."""
    pairs = recorded_pairs()
    plan = [kinds()[index % len(kinds())] for index in range(tests)]
    data = {
        "plan": plan,
        "requests": {k: json.loads(req["body"]) for k, (req, _) in pairs.items()},
        "ids": {k: json.loads(resp["body"]["string"])["id"] for k, (_, resp) in pairs.items()},
        "responses": {
            k: (
                resp["status"]["code"],
                [(name, value) for name, values in resp["headers"].items() for value in values],
                resp["body"]["string"].decode(),
            )
            for k, (_, resp) in pairs.items()
        },
    }
    sides = {
        "tooltape": ("", "", ()),
        "recording": (_CLIENT, "@pytest.mark.vcr\n", ("-p", "no:tooltape")),
        "floor": (_MOCK, "", ("-p", "no:tooltape", "-p", "no:recording")),
    }
    projects: list[Project] = []
    # pytest runs in this process again and again: each project's test module
    # needs a name of its own, or a later project would reuse an earlier one's.
    serial = next(_PROJECTS)
    for side, (fixture, mark, extra) in sides.items():
        root = workdir / side
        (root / "tests").mkdir(parents=True)
        (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        (root / "tests" / "bench_data.json").write_text(json.dumps(data), encoding="utf-8")
        module = f"test_replay_{side}_{serial}"
        body = "".join(
            _TEST.format(mark=mark, index=index, kind=kind) for index, kind in enumerate(plan)
        )
        (root / "tests" / f"{module}.py").write_text(_HEAD + fixture + body, encoding="utf-8")
        for index, kind in enumerate(plan):
            name = f"test_call_{index:03d}"
            if side == "tooltape":
                path = root / "cassettes" / "tests" / module / f"{name}.json"
                write_tooltape(
                    path, [pairs[kind]], f"benchmark copy of the {kind} contract cassette"
                )
            elif side == "recording":
                write_vcrpy(root / "tests" / "cassettes" / module / f"{name}.yaml", [pairs[kind]])
        projects.append(Project(side, root, (*_common_args(root), *extra), module))
    return projects


def check(projects: list[Project]) -> None:
    """Raise ``AssertionError`` unless every project passes on the same interactions."""
    by_name = {project.name: project for project in projects}
    for project in projects:
        assert project.run() == 0, f"the {project.name} project does not pass"
    ours, theirs = by_name["tooltape"], by_name["recording"]
    ours_files = sorted((ours.root / "cassettes" / "tests" / ours.module).glob("*.json"))
    theirs_dir = theirs.root / "tests" / "cassettes" / theirs.module
    assert ours_files, "no tooltape cassette"
    for path in ours_files:
        other = theirs_dir / f"{path.stem}.yaml"
        assert loaded(path) == loaded(other), f"{path.name} and {other.name} differ"


def _marginal(small: dict[str, float], large: dict[str, float], extra: int) -> dict[str, float]:
    """Per side, what one more test costs: the slope between the two project sizes."""
    return {side: (large[side] - small[side]) / extra for side in small}


def run(*, tests: int = 40, more: int = 160, repeats: int = 5, warmup: int = 1) -> list[Result]:
    """Time each project's pytest run, interleaved; per-test medians.

    The rows divide the whole run of ``tests`` tests by ``tests`` (the
    session's start-up and final collection spread over them). The note also
    gives each side's marginal cost, the slope between the ``tests`` and the
    ``more`` test projects: what one more replayed test costs, without the
    session's constant, which narrows every difference in the rows.
    """
    with tempfile.TemporaryDirectory(prefix="tooltape-bench-") as tmp:
        projects = write_projects(Path(tmp) / "small", tests)
        larger = write_projects(Path(tmp) / "large", more) if more > tests else []
        check(projects)
        if larger:
            check(larger)
        sides: dict[str, Any] = {project.name: project.run for project in projects}
        sides.update({f"{project.name}+": project.run for project in larger})
        medians = compare_all(sides, repeats=repeats, number=1, warmup=warmup)
    ours = medians["tooltape"] / tests
    note = f"per test, whole pytest run / {tests} tests, one responses.create each (6 kinds)"
    if larger:
        small = {p.name: medians[p.name] for p in projects}
        large = {p.name: medians[f"{p.name}+"] for p in projects}
        slope = _marginal(small, large, more - tests)
        note += (
            f"; marginal per test ({tests} to {more} tests): tooltape "
            f"{format_seconds(slope['tooltape'])}, pytest-recording "
            f"{format_seconds(slope['recording'])} "
            f"({slope['tooltape'] / slope['recording']:.2f}x), floor "
            f"{format_seconds(slope['floor'])} ({slope['tooltape'] / slope['floor']:.2f}x)"
        )
    return [
        Result(
            name="replay vs pytest-recording",
            ours_label="tooltape plugin (JSON cassettes)",
            ours=ours,
            base_label="plain pytest-recording (vcrpy YAML)",
            base=medians["recording"] / tests,
            max_ratio=RECORDING_MAX,
            target=f"<= {RECORDING_MAX:.2f}",
            note=note,
        ),
        Result(
            name="replay vs MockTransport",
            ours_label="tooltape plugin (JSON cassettes)",
            ours=ours,
            base_label="in-memory httpx2.MockTransport (floor)",
            base=medians["floor"] / tests,
            max_ratio=FLOOR_MAX,
            target=f"<= {FLOOR_MAX:.2f}",
            note=note,
        ),
    ]
