"""Cassette load: tooltape's JSON format vs vcrpy's default YAML serializer.

What is compared, per round, over the same set of real recordings:

- tooltape: ``tooltape.testing.cassette.load_cassette(path)`` on each
  ``cassettes/imported/*.json`` file (read, parse, build the typed
  ``Cassette`` with its bodies as data trees and SSE events).
- baseline: ``vcr.serializers.yamlserializer.deserialize(path.read_text())``
  on a YAML file holding the same interactions, written by vcrpy's own
  serializer (``yamlserializer.serialize``). JSON bodies are stored under
  ``parsed_body``, like the real recordings, so both sides end with data
  trees, not with bodies still to decode. This is what pytest-recording's
  persister does per cassette: read the file, then ``deserialize``.

Where the YAML comes from: the real recordings in
``tests/data/real-cassettes/openai-responses/*.yaml`` (the sources
``cassettes/imported/`` was imported from), loaded and written again with
vcrpy's serializer. When that folder is absent, the YAML is generated from
the imported cassettes themselves.

Why it is fair: both sides read one file per cassette from disk and return a
tree of the same data. Before timing, ``check`` proves the inputs hold the same
interactions: tooltape's importer, run on each YAML file, yields exactly the
interactions of the matching JSON file. tooltape even does more work (typed
models, SSE split into events where the YAML keeps one string).

Target: tooltape at least 5x faster (time ratio <= 0.2).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_timing import REPO, Result, compare
from vcr.serializers import yamlserializer

from tooltape.testing.cassette import (
    Cassette,
    EmptyBody,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    import_cassette,
    load_cassette,
)

IMPORTED = REPO / "cassettes" / "imported"
REAL_YAML = REPO / "tests" / "data" / "real-cassettes" / "openai-responses"
MAX_RATIO = 0.2


@dataclass(frozen=True)
class Inputs:
    """Pairs of (tooltape JSON, vcrpy YAML) files holding the same interactions."""

    pairs: tuple[tuple[Path, Path], ...]
    real_yaml: int
    """How many YAML files came from the real recordings (the rest were generated)."""

    def describe(self) -> str:
        json_kb = sum(j.stat().st_size for j, _ in self.pairs) / 1024
        yaml_kb = sum(y.stat().st_size for _, y in self.pairs) / 1024
        if self.real_yaml == len(self.pairs):
            origin = "YAML from the real recordings"
        elif self.real_yaml == 0:
            origin = "YAML generated from cassettes/imported"
        else:
            origin = f"YAML: {self.real_yaml} real, {len(self.pairs) - self.real_yaml} generated"
        return (
            f"{len(self.pairs)} cassettes: {json_kb:.0f} KiB JSON vs "
            f"{yaml_kb:.0f} KiB YAML; {origin}"
        )


def _vcr_message(message: RecordedRequest | RecordedResponse) -> dict[str, Any]:
    """vcrpy's dict for one side of an interaction, JSON bodies as ``parsed_body``."""
    doc: dict[str, Any] = {
        "headers": {name: list(values) for name, values in message.headers.items()}
    }
    body = message.body
    if isinstance(body, JsonBody):
        doc["parsed_body"] = body.data
    elif isinstance(message, RecordedResponse):
        doc["body"] = {"string": body.to_bytes()}
    else:
        doc["body"] = None if isinstance(body, EmptyBody) else body.to_bytes()
    if isinstance(message, RecordedRequest):
        doc.update(method=message.method, uri=message.uri)
    else:
        doc["status"] = {"code": message.status_code, "message": message.reason}
    return doc


def vcr_data(cassette: Cassette) -> dict[str, Any]:
    """The cassette as vcrpy's serialised data (what its serializer writes)."""
    return {
        "version": 1,
        "interactions": [
            {"request": _vcr_message(i.request), "response": _vcr_message(i.response)}
            for i in cassette.interactions
        ],
    }


def prepare(workdir: Path, *, real_yaml_dir: Path | None = REAL_YAML) -> Inputs:
    """Write one vcrpy YAML file per imported cassette into ``workdir``."""
    pairs: list[tuple[Path, Path]] = []
    real = 0
    for json_path in sorted(IMPORTED.glob("*.json")):
        source = None if real_yaml_dir is None else real_yaml_dir / f"{json_path.stem}.yaml"
        if source is not None and source.is_file():
            data = yamlserializer.deserialize(source.read_text(encoding="utf-8"))
            real += 1
        else:
            data = vcr_data(load_cassette(json_path))
        yaml_path = workdir / f"{json_path.stem}.yaml"
        yaml_path.write_text(yamlserializer.serialize(data), encoding="utf-8")
        pairs.append((json_path, yaml_path))
    if not pairs:
        raise FileNotFoundError(f"no cassettes in {IMPORTED}")
    return Inputs(tuple(pairs), real)


def check(inputs: Inputs) -> None:
    """Raise ``AssertionError`` unless each YAML file holds its JSON file's interactions."""
    for json_path, yaml_path in inputs.pairs:
        expected = load_cassette(json_path).interactions
        assert import_cassette(yaml_path).interactions == expected, (
            f"{yaml_path.name} and {json_path.name} hold different interactions"
        )
        data = yamlserializer.deserialize(yaml_path.read_text(encoding="utf-8"))
        assert len(data["interactions"]) == len(expected), yaml_path.name


def run(
    *, repeats: int = 15, number: int = 5, real_yaml_dir: Path | None = REAL_YAML
) -> list[Result]:
    """Time loading every cassette of the set, both ways; one row per run."""
    with tempfile.TemporaryDirectory(prefix="tooltape-bench-") as tmp:
        inputs = prepare(Path(tmp), real_yaml_dir=real_yaml_dir)
        check(inputs)
        json_paths = [j for j, _ in inputs.pairs]
        yaml_paths = [y for _, y in inputs.pairs]

        def ours() -> object:
            return [load_cassette(path) for path in json_paths]

        def base() -> object:
            return [yamlserializer.deserialize(p.read_text(encoding="utf-8")) for p in yaml_paths]

        ours_s, base_s = compare(ours, base, repeats=repeats, number=number)
        return [
            Result(
                name="cassette load",
                ours_label="load_cassette(.json)",
                ours=ours_s,
                base_label="vcrpy yaml deserialize",
                base=base_s,
                max_ratio=MAX_RATIO,
                target="<= 0.20 (5x faster)",
                note=inputs.describe(),
            )
        ]
