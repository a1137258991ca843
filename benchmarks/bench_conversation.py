"""A long conversation in one test: a 300-interaction cassette, tooltape vs plain vcrpy.

One test makes ``n`` calls in a row, each continuing the last
(``client.responses.create(model=..., input=f"turn {i}: ...",
previous_response_id=previous)``), and checks every answer's text. Timed is
that whole test, replayed:

- tooltape: a ``vcr.VCR`` built as pytest-recording builds it (record mode
  ``none``, its ``CombinedPersister``), configured by the plugin's
  ``pytest_recording_configure`` (tooltape folder, persister, scrub hooks,
  semantic body matcher), ``use_cassette`` of a tooltape JSON cassette, and
  the plugin's replay client.
- baseline "vcrpy": plain ``vcr.VCR()`` with its defaults (YAML serializer,
  filesystem persister, matching on method and URL), ``use_cassette`` of a
  YAML cassette vcrpy itself wrote from the same interactions, and the same
  client.

The cassettes are synthetic (labelled so in the tooltape cassette's
provenance): every response is the real final response of
``cassettes/imported/model_simple_response_with_tool_call.json`` with its
id, message id and text numbered per turn; every request is what the SDK
sends for the call above.

Why it is fair: the same calls on the same client class, the same response
bytes. ``check`` proves both cassettes hold the same requests and responses
and that both sides give the same answers, in order.

Targets: at 300 interactions tooltape at most 1.0x vcrpy, and linear: the
time per interaction at 300 at most 1.25x the time per interaction at 50.
The note shows both sides' time per interaction at 50, 100, 200 and 300.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import openai
import pytest
import vcr
from bench_cassettes import Pair, json_pair, loaded, write_tooltape, write_vcrpy
from bench_timing import REPO, Result, compare_all, format_seconds
from pytest_recording._vcr import CombinedPersister

from tooltape.testing import plugin
from tooltape.testing.cassette import JsonBody, load_cassette
from tooltape.testing.cassette_run import CASSETTE_RUN, CassetteRun
from tooltape.testing.sdk_client import sdk_client

SOURCE = REPO / "cassettes" / "imported" / "model_simple_response_with_tool_call.json"
MODEL = "gpt-4o"
MAX_RATIO = 1.0
MAX_GROWTH = 1.25
SIZES = (50, 100, 200, 300)


class PytestConfigStandIn:
    """The parts of ``pytest.Config`` that ``pytest_recording_configure`` reads."""

    def __init__(self, root: Path, state: Any) -> None:
        self.rootpath = root
        self.stash = pytest.Stash()
        self.stash[CASSETTE_RUN] = state

    def getini(self, name: str) -> object:
        return {"tooltape_cassette_dir": "", "tooltape_model": "", "tooltape_volatile": []}[name]


def _template() -> dict[str, Any]:
    bodies = [i.response.body for i in load_cassette(SOURCE).interactions]
    final = [b.data for b in bodies if isinstance(b, JsonBody) and isinstance(b.data, dict)][-1]
    assert final["output"][0]["type"] == "message", "the source's last answer is not a message"
    return final  # type: ignore[return-value]


def turn_input(index: int) -> str:
    return f"turn {index}: what comes after {index}?"


def answer(index: int) -> str:
    return f"After {index} comes {index + 1}."


def conversation(size: int) -> list[Pair]:
    """``size`` synthetic interactions, each continuing the previous response."""
    template = _template()
    pairs: list[Pair] = []
    previous: str | None = None
    for index in range(size):
        response = copy.deepcopy(template)
        response["id"] = f"resp_bench_{index:04d}"
        response["previous_response_id"] = previous
        message = response["output"][0]
        message["id"] = f"msg_bench_{index:04d}"
        message["content"][0]["text"] = answer(index)
        request: dict[str, Any] = {"input": turn_input(index), "model": MODEL}
        if previous is not None:
            request["previous_response_id"] = previous
        pairs.append(json_pair(request, response))
        previous = response["id"]
    return pairs


def talk(client: openai.OpenAI, size: int) -> list[str]:
    """The test's body: ``size`` turns, each continuing the last; the answers."""
    answers: list[str] = []
    previous: str | openai.Omit = openai.omit
    for index in range(size):
        response = client.responses.create(
            model=MODEL, input=turn_input(index), previous_response_id=previous
        )
        answers.append(response.output_text)
        previous = response.id
    return answers


def replay_client() -> openai.OpenAI:
    return sdk_client(plugin.REPLAY_API_KEY)


class Sides:
    """Both sides' cassettes for one conversation length, and their tests."""

    def __init__(self, workdir: Path, size: int) -> None:
        self.size = size
        self.root = workdir / f"n{size}"
        self.module = "tests/test_conversation"
        pairs = conversation(size)
        self.ours_path = self.root / "cassettes" / self.module / "test_long.json"
        self.yaml_path = self.root / "vcrpy" / "test_long.yaml"
        write_tooltape(self.ours_path, pairs, f"synthetic: {size} turns built from {SOURCE.name}")
        write_vcrpy(self.yaml_path, pairs)

    def ours(self) -> list[str]:
        state = CassetteRun(
            nodeid=f"{self.module}.py::test_long",
            module=plugin.cassette_folder_of(f"{self.module}.py"),
            record_mode="none",
        )
        recorder = vcr.VCR(
            path_transformer=vcr.VCR.ensure_suffix(".yaml"),
            cassette_library_dir=str(self.root / "cassettes" / self.module),
            record_mode="none",
        )
        recorder.register_persister(CombinedPersister([]))
        plugin.pytest_recording_configure(PytestConfigStandIn(self.root, state), recorder)  # type: ignore[arg-type]
        with recorder.use_cassette("test_long") as cassette:
            answers = talk(replay_client(), self.size)
        assert cassette.all_played
        return answers

    def vcrpy(self) -> list[str]:
        recorder = vcr.VCR(record_mode="none")
        with recorder.use_cassette(str(self.yaml_path)) as cassette:
            answers = talk(replay_client(), self.size)
        assert cassette.all_played
        return answers


def check(sides: Sides) -> None:
    """Raise ``AssertionError`` unless both cassettes and both replays agree."""
    assert loaded(sides.ours_path) == loaded(sides.yaml_path), "the cassettes differ"
    expected = [answer(index) for index in range(sides.size)]
    assert sides.ours() == expected, "tooltape's replay gave other answers"
    assert sides.vcrpy() == expected, "vcrpy's replay gave other answers"


def run(*, sizes: tuple[int, ...] = SIZES, repeats: int = 3) -> list[Result]:
    """Time both sides at each size, interleaved; medians."""
    with tempfile.TemporaryDirectory(prefix="tooltape-bench-") as tmp:
        all_sides = [Sides(Path(tmp), size) for size in sizes]
        for sides in all_sides:
            check(sides)
        timed: dict[str, Any] = {}
        for sides in all_sides:
            timed[f"ours {sides.size}"] = sides.ours
            timed[f"vcrpy {sides.size}"] = sides.vcrpy
        medians = compare_all(timed, repeats=repeats, number=1, warmup=0)
    small, large = min(sizes), max(sizes)
    per = {key: value / int(key.split()[1]) for key, value in medians.items()}
    slope = "; ".join(
        f"{size}: {format_seconds(per[f'ours {size}'])} vs {format_seconds(per[f'vcrpy {size}'])}"
        for size in sizes
    )
    note = f"per interaction, tooltape vs vcrpy, at {slope}"
    growth_vcrpy = per[f"vcrpy {large}"] / per[f"vcrpy {small}"]
    return [
        Result(
            name=f"conversation {large} vs vcrpy",
            ours_label=f"tooltape, one test, {large} interactions",
            ours=medians[f"ours {large}"],
            base_label="plain vcrpy (YAML), the same test",
            base=medians[f"vcrpy {large}"],
            max_ratio=MAX_RATIO,
            target=f"<= {MAX_RATIO:.2f}",
            note=note,
        ),
        Result(
            name=f"conversation {large} vs {small}",
            ours_label=f"tooltape, time per interaction at {large}",
            ours=per[f"ours {large}"],
            base_label=f"at {small} (vcrpy's own growth: {growth_vcrpy:.2f}x)",
            base=per[f"ours {small}"],
            max_ratio=MAX_GROWTH,
            target=f"<= {MAX_GROWTH:.2f} (linear)",
            note="time per interaction as the cassette grows",
        ),
    ]
