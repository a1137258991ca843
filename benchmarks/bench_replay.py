"""Replay: a test replayed from a tooltape cassette vs the same test on respx routes.

What is compared, per test, over the same N tests (the six hosted kinds of
``tests/contracts/test_recorded_contracts.py``, cycled):

- tooltape (replayed): what the plugin does for one ``@pytest.mark.vcr`` test
  in CI. A ``vcr.VCR`` is built the way pytest-recording builds it (record
  mode ``none``, its ``CombinedPersister``), then configured by
  ``tooltape.testing.plugin.pytest_recording_configure`` (tooltape folder,
  persister, serializer, scrubbing hooks, semantic body matcher). Inside
  ``use_cassette`` of the recorded cassette, the ``openai_client`` fixture's
  replay client is built and ``OpenAIAdapter("gpt-5", client=...).evaluate(prompt)``
  runs once; afterwards every recorded interaction must have been played
  (the plugin's stale-cassette check).
- baseline (respx): the same evaluation on
  ``tooltape.testing.provider.faults.ProviderFaults`` (a respx router on an httpx2
  mock transport), freshly built per test as the ``provider_faults`` fixture
  does, scripted with the very response body the cassette holds, and checked
  for unused replies afterwards.

Why it is fair: both sides run the same prompt object through the same
adapter and the OpenAI SDK, get the same response body and do their own
per-test set-up (the cassette machinery vs the router and its client).
``check`` proves it before timing: both give the same text, response id,
hosted outputs and tool invocations, and the request the respx side got is
the request recorded in the cassette. The response bodies are read once
before timing (a respx test has its body at hand too).

Also reported (not a side of the comparison): the floor under any vcrpy
replay, vcrpy alone serving the same interactions from memory with its default
matching and no tooltape hook, persister or matcher, timed against the same
respx tests. The distance from the floor to the replay is tooltape's share.

Target: replay at most 1.3x the time of the respx test.
"""

from __future__ import annotations

from typing import Any

import openai
import pytest
import vcr
from bench_timing import REPO, Result, compare, format_seconds
from pytest_recording._vcr import CombinedPersister

from tooltape import Prompt, PromptResponse, Section
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing import plugin
from tooltape.testing.cassette import JsonBody, cassette_to_vcr, load_cassette
from tooltape.testing.kinds import canonical_tools
from tooltape.testing.provider.faults import ProviderFaults

MODULE = "tests/contracts/test_recorded_contracts"
CASSETTES = REPO / "cassettes" / MODULE
MODEL = "gpt-5"
MAX_RATIO = 1.3


def adapter(client: openai.OpenAI) -> OpenAIAdapter:
    """The adapter the contract test recorded with (no capability guard, as there)."""
    return OpenAIAdapter(MODEL, client=client, capabilities={})


class PytestConfigStandIn:
    """The parts of ``pytest.Config`` that ``pytest_recording_configure`` reads.

    ``stash`` holds the per-test state the plugin's ``pytest_runtest_setup``
    would have put there; ini values are the plugin's defaults.
    """

    def __init__(self, state: Any) -> None:
        self.rootpath = REPO
        self.stash = pytest.Stash()
        self.stash[plugin._STATE] = state  # pyright: ignore[reportPrivateUsage]

    def getini(self, name: str) -> object:
        return {"tooltape_cassette_dir": "", "tooltape_model": "", "tooltape_volatile": []}[name]


def cassette_name(kind: str) -> str:
    return f"test_hosted_kind_round_trip[{kind}]"


def build_prompt(kind: str) -> Prompt[Any]:
    """The prompt the contract test recorded for ``kind``."""
    tool = canonical_tools()[kind]
    return Prompt(
        ns="tooltape.contracts",
        key=f"record-{kind}",
        sections=[Section(title="Use the tool", hosted_tools=(tool,))],
    )


def recorded(kind: str) -> tuple[object, object]:
    """The recorded (request body, response body) of ``kind``'s cassette."""
    (interaction,) = load_cassette(CASSETTES / f"{cassette_name(kind)}.json").interactions
    request, response = interaction.request.body, interaction.response.body
    assert isinstance(request, JsonBody) and isinstance(response, JsonBody)
    return request.data, response.data


def replay_client() -> openai.OpenAI:
    """The client the plugin's ``openai_client`` fixture builds when replaying."""
    return plugin._openai_client(plugin.REPLAY_API_KEY)  # pyright: ignore[reportPrivateUsage]


def replayed_test(kind: str, prompt: Prompt[Any]) -> PromptResponse[Any]:
    """One replayed test, as pytest-recording plus the tooltape plugin run it."""
    state = plugin._TestState(  # pyright: ignore[reportPrivateUsage]
        nodeid=f"{MODULE}.py::{cassette_name(kind)}",
        module=plugin.cassette_folder_of(f"{MODULE}.py"),
        record_mode="none",
    )
    recorder = vcr.VCR(
        path_transformer=vcr.VCR.ensure_suffix(".yaml"),
        cassette_library_dir=str(CASSETTES),
        record_mode="none",
    )
    recorder.register_persister(CombinedPersister([]))
    plugin.pytest_recording_configure(PytestConfigStandIn(state), recorder)  # type: ignore[arg-type]
    with recorder.use_cassette(cassette_name(kind)) as cassette:
        response = adapter(replay_client()).evaluate(prompt)
    assert cassette.all_played, f"stale cassette for {kind}"
    return response


class InMemoryPersister:
    """Serves one cassette's interactions, already in vcrpy's own form, from memory."""

    def __init__(self, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
        self.pairs = pairs

    def load_cassette(self, cassette_path: str, serializer: object) -> tuple[list[Any], list[Any]]:
        requests = [vcr.request.Request._from_dict(request) for request, _ in self.pairs]
        return requests, [response for _, response in self.pairs]

    def save_cassette(self, cassette_path: str, cassette_dict: object, serializer: object) -> None:
        raise AssertionError("a replay never saves")


def vcr_pairs(kind: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The cassette's interactions as vcrpy's (request, response) dicts."""
    data = cassette_to_vcr(load_cassette(CASSETTES / f"{cassette_name(kind)}.json"))
    return [(pair["request"], pair["response"]) for pair in data["interactions"]]  # type: ignore[attr-defined]


def vcrpy_only_test(
    kind: str, prompt: Prompt[Any], pairs: list[tuple[dict[str, Any], dict[str, Any]]]
) -> PromptResponse[Any]:
    """Not a benchmark side: the floor under any vcrpy replay, for the report.

    vcrpy alone replays the same interaction: no file, no tooltape hooks,
    persister or body matcher (vcrpy's default method + path matching).
    """
    recorder = vcr.VCR(record_mode="none", match_on=("method", "path"))
    recorder.register_persister(InMemoryPersister(pairs))
    with recorder.use_cassette(cassette_name(kind)) as cassette:
        response = adapter(replay_client()).evaluate(prompt)
    assert cassette.all_played, f"stale cassette for {kind}"
    return response


def respx_test(
    prompt: Prompt[Any], body: object, faults_out: list[ProviderFaults] | None = None
) -> PromptResponse[Any]:
    """The same test on a fresh ``ProviderFaults`` scripted with ``body``."""
    faults = ProviderFaults()
    faults.responses.ok(body)
    response = adapter(faults.client()).evaluate(prompt)
    faults.close()
    faults.verify()
    if faults_out is not None:
        faults_out.append(faults)
    return response


def summary(response: PromptResponse[Any]) -> tuple[object, ...]:
    """Everything an evaluation produced, minus event timestamps."""
    invocations = tuple(
        (e.name, e.kind, e.source, e.provider, e.call_id, e.params, e.result, e.rendered_output)
        for e in response.tool_invocations
    )
    return (response.text, response.response_id, dict(response.hosted_outputs), invocations)


def check(kinds: list[str]) -> None:
    """Raise ``AssertionError`` unless both sides do the same evaluation for each kind."""
    for kind in kinds:
        prompt = build_prompt(kind)
        request_body, response_body = recorded(kind)
        seen: list[ProviderFaults] = []
        replayed = replayed_test(kind, prompt)
        scripted = respx_test(prompt, response_body, seen)
        assert summary(replayed) == summary(scripted), f"{kind}: different results"
        floor = vcrpy_only_test(kind, prompt, vcr_pairs(kind))
        assert summary(floor) == summary(scripted), f"{kind}: vcrpy alone differs"
        assert replayed.hosted_outputs, f"{kind}: no hosted output"
        (call,) = seen[0].calls
        assert call.json() == request_body, f"{kind}: the request differs from the recorded one"


def all_kinds() -> list[str]:
    return sorted(canonical_tools())


def run(
    *, tests: int = 48, repeats: int = 5, kinds: list[str] | None = None, floor: bool = True
) -> list[Result]:
    """Time ``tests`` replayed tests and the same ``tests`` respx tests; per-test medians.

    With ``floor``, vcrpy alone is also timed against respx (same way), and
    reported in the row's note: no tooltape change can bring replay below it.
    """
    chosen = kinds or all_kinds()
    check(chosen)
    prompts = {kind: build_prompt(kind) for kind in chosen}
    bodies = {kind: recorded(kind)[1] for kind in chosen}
    pairs = {kind: vcr_pairs(kind) for kind in chosen}
    plan = [chosen[i % len(chosen)] for i in range(tests)]

    def ours() -> object:
        return [replayed_test(kind, prompts[kind]) for kind in plan]

    def base() -> object:
        return [respx_test(prompts[kind], bodies[kind]) for kind in plan]

    def vcrpy_only() -> object:
        return [vcrpy_only_test(kind, prompts[kind], pairs[kind]) for kind in plan]

    ours_s, base_s = compare(ours, base, repeats=repeats, number=1, warmup=1)
    note = f"per test, {tests} tests over {len(chosen)} kinds ({CASSETTES.name})"
    if floor:
        floor_s, floor_base_s = compare(vcrpy_only, base, repeats=repeats, number=1, warmup=1)
        note += (
            f"\n    floor: vcrpy alone (interactions in memory, no tooltape hook, persister or "
            f"matcher) {format_seconds(floor_s / tests)} = {floor_s / floor_base_s:.2f}x respx"
        )
    return [
        Result(
            name="replay",
            ours_label="vcrpy + tooltape cassette",
            ours=ours_s / tests,
            base_label="respx ProviderFaults",
            base=base_s / tests,
            max_ratio=MAX_RATIO,
            target="<= 1.30",
            note=note,
        )
    ]
