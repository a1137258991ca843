"""Parse: tooltape's codecs vs the OpenAI SDK's default parse path on large real bodies.

What is compared, per body, on the same JSON bytes:

- tooltape: what ``OpenAIAdapter`` runs on the raw HTTP body of a prompt
  that holds the hosted tools the response used: ``read_json_body(raw)``,
  then, for each of those kinds, the codec's ``parse_calls(items, tool)``
  and ``parse_output(items, tool)`` (the typed calls and the aggregated
  typed output, images decoded included).
- baseline: what ``client.responses.create(...)`` does with a JSON body by
  default (``_strict_response_validation=False``, the SDK's default):
  ``response.json()`` (``json.loads``), then
  ``openai._models.construct_type(type_=Response, value=data)``, which builds
  the typed ``Response`` without validating it (``BaseAPIResponse._parse`` ->
  ``BaseClient._process_response_data``). Strict validation
  (``Response.model_validate_json``) is not what users run, and is slower.

Inputs: the largest response body of the code interpreter recording
(``code_execution_return_image.json``) and of the image generation recording
(``image_generation_jpeg.json``) in ``cassettes/imported/``, as compact JSON.
The installed SDK's strict validation requires
``usage.input_tokens_details.cache_write_tokens``, which these real responses
predate; the field is added (``0``) to the bytes both sides parse, so that
``check`` can prove the bytes are a valid ``Response``; nothing else changes.

Why it is fair: both sides start from the same bytes and end with typed
objects. tooltape keeps the last few decoded base64 payloads (a codec decodes
an image once for ``parse_calls`` and again for ``parse_output``); those are
dropped (``clear_decoded()``) at the start of every round, so no round reuses
an image decoded by an earlier one. ``check`` proves the SDK's strict
validation accepts the bytes, that its default path builds the same model,
and that each codec finds exactly the call items (by id) the SDK model holds
for its item types, and is chosen exactly when there are some.

Target: tooltape at most 1.0x the time of the SDK's default parse.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

from bench_timing import REPO, Result, compare
from openai._models import construct_type
from openai.types.responses import Response

from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs.base64_data import clear_decoded
from tooltape.adapters.openai.sending import read_json_body
from tooltape.prompt import HostedTool
from tooltape.testing.cassette import JsonBody, load_cassette
from tooltape.testing.kinds import canonical_tools

MAX_RATIO = 1.0
BODIES = {
    "code interpreter": "code_execution_return_image.json",
    "image generation": "image_generation_jpeg.json",
}


def largest_body(file_name: str) -> bytes:
    """The largest JSON response body of a cassette, made acceptable to the SDK."""
    cassette = load_cassette(REPO / "cassettes" / "imported" / file_name)
    trees = [
        i.response.body.data
        for i in cassette.interactions
        if isinstance(i.response.body, JsonBody) and isinstance(i.response.body.data, dict)
    ]
    tree: dict[str, Any] = max(trees, key=lambda t: len(json.dumps(t)))  # type: ignore[arg-type]
    tree = json.loads(json.dumps(tree))  # a private copy to patch
    details = (tree.get("usage") or {}).get("input_tokens_details")
    if isinstance(details, dict):
        details.setdefault("cache_write_tokens", 0)
    return json.dumps(tree, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass
class Setup:
    raw: bytes
    codecs: dict[str, Any]
    tools: dict[str, HostedTool[Any]]

    def ours(self) -> list[object]:
        # Every real response is new: no decoded image may carry over from the last round.
        clear_decoded()
        items = cast("dict[str, Any]", read_json_body(self.raw))["output"]
        parsed: list[object] = []
        for kind, codec in self.codecs.items():
            parsed.append(codec.parse_calls(items, self.tools[kind]))
            parsed.append(codec.parse_output(items, self.tools[kind]))
        return parsed

    def base(self) -> Response:
        # The SDK's default: httpx's response.json(), then construct_type (no validation).
        return construct_type(type_=Response, value=json.loads(self.raw))  # type: ignore[return-value]


def setup(file_name: str) -> Setup:
    raw = largest_body(file_name)
    used = {item["type"] for item in json.loads(raw)["output"]}
    codecs = {
        kind: codec
        for kind, codec in OpenAIAdapter("gpt-4o").hosted_tool_codecs.items()
        if used & set(codec.item_types)
    }
    return Setup(raw, codecs, canonical_tools())


def check(bench: Setup) -> None:
    """Raise ``AssertionError`` unless the SDK accepts the bytes and the codecs see its calls."""
    model = Response.model_validate_json(bench.raw)
    default = bench.base()
    assert isinstance(default, Response), type(default)
    assert default.model_dump(mode="json") == model.model_dump(mode="json"), "default != strict"
    found = 0
    every = OpenAIAdapter("gpt-4o").hosted_tool_codecs
    for kind, codec in every.items():
        sdk_ids = [item.id for item in model.output if item.type in codec.item_types]
        ours_ids = [call.id for call in codec.parse_calls(json.loads(bench.raw)["output"], None)]
        assert ours_ids == sdk_ids, (kind, ours_ids, sdk_ids)
        assert (kind in bench.codecs) == bool(sdk_ids), (kind, "chosen without calls, or missed")
        found += len(ours_ids)
    assert found, "no hosted call in the body"
    assert any(output is not None for output in bench.ours()[1::2]), "no typed output"


def run(*, repeats: int = 9, number: int = 20) -> list[Result]:
    """One row per body; per-parse medians."""
    results: list[Result] = []
    for label, file_name in BODIES.items():
        bench = setup(file_name)
        check(bench)
        ours_s, base_s = compare(bench.ours, bench.base, repeats=repeats, number=number)
        results.append(
            Result(
                name=f"parse {label}",
                ours_label="read_json_body + the response's codecs",
                ours=ours_s,
                base_label="SDK default parse (json.loads + construct_type)",
                base=base_s,
                max_ratio=MAX_RATIO,
                target="<= 1.00",
                note=f"{len(bench.raw) / 1024:.0f} KiB body from {file_name}",
            )
        )
    return results
