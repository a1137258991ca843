"""Cassette load on the replay path: the plugin's persister vs vcrpy's own persister.

What is compared, per round, over the same real recordings
(``cassettes/imported/*.json``):

- tooltape: what replay really runs to load a cassette,
  ``tooltape.testing.run_persister.RunPersister.load_cassette(path, serializer)``
  (read the tooltape JSON file, then hand vcrpy its ``(requests, responses)``).
  Each response's body bytes, and the ``content-length`` that depends on
  them, are written when vcrpy first reads the response: when the test plays
  it (or a re-recording saves it), not as the cassette loads
  (``tooltape.testing.vcr.deferred``). That cost is in the replay rows
  (``bench_replay.py``, ``bench_conversation.py``), which play every response.
- baseline "vcrpy yaml": ``vcr.persisters.filesystem.FilesystemPersister.load_cassette``
  with vcrpy's default serializer (``yamlserializer``), on YAML files that
  vcrpy itself wrote (``FilesystemPersister.save_cassette``) from the very
  interactions the tooltape side returns: bodies as vcrpy writes them
  (``body: {string: ...}``), not as parsed trees.
- baseline "vcrpy json": the same persister with vcrpy's ``jsonserializer``,
  on JSON files vcrpy wrote the same way.

Why it is fair: every side reads one file per cassette from disk and returns
what vcrpy's ``Cassette`` loads, ``(requests, responses)``. ``check`` proves
it before timing: for every cassette, each baseline returns requests equal to
the tooltape side's (method, URI, body bytes, headers) and response dicts
equal to the tooltape side's once those are written (``check`` writes them,
as playing them would).

Targets: tooltape at most 0.20x vcrpy's YAML, and at most 1.0x vcrpy's JSON.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_cassettes import replay_persister
from bench_timing import REPO, Result, compare
from vcr.persisters.filesystem import FilesystemPersister
from vcr.serializers import jsonserializer, yamlserializer

from tooltape.testing.cassette._vcrpy_format import SCANNED

IMPORTED = REPO / "cassettes" / "imported"
YAML_MAX = 0.2
JSON_MAX = 1.0


@dataclass(frozen=True)
class Inputs:
    """For each recording: the tooltape JSON file and the YAML and JSON files vcrpy wrote."""

    cassettes: tuple[Path, ...]
    yaml: tuple[Path, ...]
    json: tuple[Path, ...]

    def describe(self) -> str:
        def size(paths: tuple[Path, ...]) -> str:
            return f"{sum(p.stat().st_size for p in paths) / 1024:.0f} KiB"

        return (
            f"{len(self.cassettes)} real cassettes: tooltape {size(self.cassettes)}, "
            f"vcrpy yaml {size(self.yaml)}, vcrpy json {size(self.json)}"
        )


def ours_load(path: Path) -> tuple[list[Any], list[Any]]:
    return replay_persister().load_cassette(str(path), None)


def _unmarked(responses: list[Any]) -> list[Any]:
    """Responses without tooltape's "already scanned" mark (vcrpy's files never hold it)."""
    return [{k: v for k, v in response.items() if k != SCANNED} for response in responses]


def vcrpy_load(path: Path, serializer: object) -> tuple[list[Any], list[Any]]:
    requests, responses, *_ = FilesystemPersister.load_cassette(str(path), serializer)
    return requests, responses


def prepare(workdir: Path) -> Inputs:
    """Have vcrpy write each imported cassette's interactions in its YAML and JSON."""
    cassettes = tuple(sorted(IMPORTED.glob("*.json")))
    if not cassettes:
        raise FileNotFoundError(f"no cassettes in {IMPORTED}")
    written: dict[str, list[Path]] = {"yaml": [], "json": []}
    for path in cassettes:
        requests, responses = ours_load(path)
        for suffix, serializer in (("yaml", yamlserializer), ("json", jsonserializer)):
            target = workdir / f"{path.stem}.{suffix}"
            FilesystemPersister.save_cassette(
                str(target),
                {"requests": requests, "responses": _unmarked(responses)},
                serializer=serializer,
            )
            written[suffix].append(target)
    return Inputs(cassettes, tuple(written["yaml"]), tuple(written["json"]))


def _request_view(request: Any) -> tuple[object, ...]:
    return (request.method, request.uri, request.body, sorted(request.headers.items()))


def check(inputs: Inputs) -> None:
    """Raise ``AssertionError`` unless every side loads the same interactions."""
    for index, path in enumerate(inputs.cassettes):
        requests, loaded = ours_load(path)
        assert requests, path.name
        # Write every response now, as playing it would (``dict`` reads each one).
        responses = [dict(response) for response in loaded]
        assert all(isinstance(r["body"]["string"], bytes) for r in responses), path.name
        for label, file, serializer in (
            ("yaml", inputs.yaml[index], yamlserializer),
            ("json", inputs.json[index], jsonserializer),
        ):
            their_requests, their_responses = vcrpy_load(file, serializer)
            assert [_request_view(r) for r in their_requests] == [
                _request_view(r) for r in requests
            ], f"{file.name} and {path.name} hold different requests ({label})"
            assert their_responses == _unmarked(responses), (
                f"{file.name} and {path.name} hold different responses ({label})"
            )


def run(*, repeats: int = 15, number: int = 5) -> list[Result]:
    """Time loading every cassette of the set, three ways; one row per baseline."""
    with tempfile.TemporaryDirectory(prefix="tooltape-bench-") as tmp:
        inputs = prepare(Path(tmp))
        check(inputs)

        def ours() -> object:
            return [ours_load(path) for path in inputs.cassettes]

        def base_yaml() -> object:
            return [vcrpy_load(path, yamlserializer) for path in inputs.yaml]

        def base_json() -> object:
            return [vcrpy_load(path, jsonserializer) for path in inputs.json]

        rows: list[Result] = []
        for label, base, max_ratio in (
            ("yaml", base_yaml, YAML_MAX),
            ("json", base_json, JSON_MAX),
        ):
            ours_s, base_s = compare(ours, base, repeats=repeats, number=number)
            rows.append(
                Result(
                    name=f"load vs vcrpy {label}",
                    ours_label="plugin persister (tooltape JSON)",
                    ours=ours_s,
                    base_label=f"vcrpy FilesystemPersister + {label}serializer",
                    base=base_s,
                    max_ratio=max_ratio,
                    target=f"<= {max_ratio:.2f}",
                    note=inputs.describe(),
                )
            )
        return rows
