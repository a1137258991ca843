"""Writing one set of interactions as a tooltape cassette and as vcrpy's own cassettes.

The replay benchmarks compare tooltape with vcrpy on the same interactions;
these helpers write them once each way (vcrpy's files by vcrpy's own
persister and serializer) and read them back the way replay does, so each
benchmark's ``check`` can prove both files hold the same requests and
responses.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

from vcr.persisters.filesystem import FilesystemPersister
from vcr.request import Request
from vcr.serializers import yamlserializer

from tooltape.testing.cassette_run import CassetteRun
from tooltape.testing.run_persister import RunPersister
from tooltape.testing.vcr import TooltapeSerializer

Pair = tuple[dict[str, Any], dict[str, Any]]
"""One interaction as vcrpy's serialised (request, response) dicts."""

API_URI = "https://api.openai.com/v1/responses"


def json_pair(request_body: object, response_body: object, *, status: int = 200) -> Pair:
    """A ``POST /v1/responses`` interaction with JSON bodies, as vcrpy stores it."""
    return (
        {
            "method": "POST",
            "uri": API_URI,
            "body": json.dumps(request_body).encode(),
            "headers": {"content-type": ["application/json"]},
        },
        {
            "status": {"code": status, "message": "OK"},
            "headers": {"content-type": ["application/json"]},
            "body": {"string": json.dumps(response_body).encode()},
        },
    )


def write_tooltape(path: Path, pairs: list[Pair], provenance: str) -> None:
    """A tooltape cassette, written by tooltape's serializer."""
    serializer = TooltapeSerializer(source="live", provenance=provenance)
    data = {"interactions": [{"request": req, "response": resp} for req, resp in pairs]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(serializer.serialize(data), encoding="utf-8")


def write_vcrpy(path: Path, pairs: list[Pair], serializer: object = yamlserializer) -> None:
    """A vcrpy cassette, written by vcrpy's own persister (default: YAML)."""
    requests = [Request._from_dict(req) for req, _ in pairs]
    path.parent.mkdir(parents=True, exist_ok=True)
    FilesystemPersister.save_cassette(
        str(path),
        {"requests": requests, "responses": [resp for _, resp in pairs]},
        serializer=serializer,
    )


def replay_persister() -> Any:
    """The persister the tooltape plugin registers for a replaying test."""
    state = CassetteRun(
        nodeid="tests/test_bench.py::test_bench",
        module=PurePosixPath("tests/test_bench"),
        record_mode="none",
    )
    return RunPersister(state, ())


def loaded(path: Path, serializer: object = yamlserializer) -> list[tuple[object, ...]]:
    """What replay loads from ``path`` (tooltape JSON or a vcrpy file), comparably.

    Request bodies and response bodies are compared as JSON values when they
    are JSON (the two formats may space them differently), else as bytes.
    """
    if path.suffix == ".json" and serializer is yamlserializer:
        requests, responses = replay_persister().load_cassette(str(path), None)
    else:
        requests, responses, *_ = FilesystemPersister.load_cassette(str(path), serializer)
    return [
        (
            request.method,
            request.uri,
            _json_or_bytes(request.body),
            response["status"]["code"],
            _json_or_bytes(response["body"]["string"]),
        )
        for request, response in zip(requests, responses, strict=True)
    ]


def _json_or_bytes(body: object) -> object:
    raw = body.encode() if isinstance(body, str) else body
    try:
        return json.loads(raw) if raw else None  # type: ignore[arg-type]
    except ValueError:
        return raw
