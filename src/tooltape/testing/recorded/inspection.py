"""``tooltape inspect``: what a cassette says, read through the registered codecs.

The JSON shape is a contract (see DESIGN.md, "CLI"): one object per cassette
with one entry per interaction; ``calls`` lists every provider tool call item
of a registered kind in response order with its typed output as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import HostedCall, HostedToolCodec
from tooltape.adapters.openai.reading import field
from tooltape.prompt import HostedToolOutput
from tooltape.testing.cassette import Cassette, load_cassette
from tooltape.testing.kinds import reading_tools
from tooltape.testing.recorded.answers import RecordedAnswer, read_answers
from tooltape.tools.rendering import output_json


def request_tools(answer: RecordedAnswer) -> list[dict[str, Any]]:
    """The ``tools[]`` entries a request sent: their type, and name or server label."""
    recorded: object = answer.request_body.get("tools") if answer.request_body else None
    entries: list[object] = recorded if isinstance(recorded, list) else []  # pyright: ignore[reportUnknownVariableType]
    summary: list[dict[str, Any]] = []
    for entry in entries:
        label = field(entry, "name") or field(entry, "server_label")
        summary.append({"type": field(entry, "type"), **({"name": label} if label else {})})
    return summary


def _call_entry(call: HostedCall) -> dict[str, Any]:
    return {
        "kind": call.kind,
        "item_type": call.item_type,
        "id": call.id,
        "status": call.status,
        "success": call.success,
        "output": output_json(call.output) if call.output is not None else {},
    }


def ordered_calls(
    answer: RecordedAnswer, codecs: Mapping[str, HostedToolCodec[Any, Any]]
) -> list[HostedCall]:
    """Every provider tool call item of a registered kind, typed, in response order."""
    order = {field(item, "id"): i for i, item in enumerate(answer.items)}
    calls = [call for codec in codecs.values() for call in codec.parse_calls(answer.items, None)]
    calls.sort(key=lambda call: order.get(call.id, len(order)))
    return calls


def typed_hosted_outputs(
    answer: RecordedAnswer,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    calls: Sequence[HostedCall],
) -> dict[str, HostedToolOutput]:
    """The aggregated typed output per hosted tool name (``mcp-<label>`` per MCP server)."""
    outputs: dict[str, HostedToolOutput] = {}
    kinds = [kind for kind in codecs if any(call.kind == kind for call in calls)]
    for name, tool in reading_tools(kinds, answer.request_body, answer.items).items():
        output = codecs[tool.kind].parse_output(answer.items, tool)
        if output is not None:
            outputs[name] = output
    return outputs


def interaction_report(
    answer: RecordedAnswer, codecs: Mapping[str, HostedToolCodec[Any, Any]]
) -> dict[str, Any]:
    """One entry of ``interactions`` in ``inspect --json``."""
    calls = ordered_calls(answer, codecs)
    hosted_outputs = {
        name: output_json(output)
        for name, output in typed_hosted_outputs(answer, codecs, calls).items()
    }
    error = answer.error
    return {
        "index": answer.index,
        "method": answer.method,
        "path": answer.path,
        "status_code": answer.status_code,
        "streamed": answer.streamed,
        "response_status": answer.response_status,
        "error": {"code": error.code, "message": error.message} if error else None,
        "calls": [_call_entry(call) for call in calls],
        "hosted_outputs": hosted_outputs,
    }


def inspect_cassette(
    cassette: Cassette, path: Path | str, codecs: Mapping[str, HostedToolCodec[Any, Any]]
) -> dict[str, Any]:
    """The ``inspect --json`` object for a loaded cassette."""
    return {
        "cassette": str(path),
        "format": cassette.format,
        "interactions": [interaction_report(a, codecs) for a in read_answers(cassette)],
    }


def inspect_path(
    path: Path | str, codecs: Mapping[str, HostedToolCodec[Any, Any]]
) -> dict[str, Any]:
    """Load ``path`` (any supported format) and inspect it."""
    return inspect_cassette(load_cassette(path), path, codecs)
