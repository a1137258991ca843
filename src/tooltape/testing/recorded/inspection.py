"""``tooltape inspect``: what a cassette says, read through the registered codecs.

The JSON shape is a contract, documented in the repository's
``docs/inspect-json.md``: one object per cassette with one entry per
interaction; ``calls`` lists every call item in response order (hosted calls
of a registered kind, and the calls the client runs) with its name,
arguments, ``ToolResult`` message and output; ``unread_items`` says which
items could not be read, and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.codecs.registry import default_client_tool_codecs
from tooltape.adapters.openai.reading import field
from tooltape.prompt import HostedToolOutput, PromptEvaluationError
from tooltape.testing.cassette import Cassette, load_cassette
from tooltape.testing.kinds import reading_tools
from tooltape.testing.recorded.answers import RecordedAnswer, read_answers
from tooltape.testing.recorded.calls import (
    ClientAnswer,
    InspectedCall,
    UnreadItem,
    client_answers,
    response_calls,
)
from tooltape.tools.rendering import output_json


@dataclass(frozen=True, slots=True)
class InteractionReading:
    """One interaction read for ``inspect``: its calls, hosted outputs and unread items."""

    answer: RecordedAnswer
    calls: tuple[InspectedCall, ...]
    hosted_outputs: Mapping[str, HostedToolOutput]
    unread: tuple[UnreadItem, ...]


def request_tools(answer: RecordedAnswer) -> list[dict[str, Any]]:
    """The ``tools[]`` entries a request sent: their type, and name or server label."""
    recorded: object = answer.request_body.get("tools") if answer.request_body else None
    entries: list[object] = recorded if isinstance(recorded, list) else []  # pyright: ignore[reportUnknownVariableType]
    summary: list[dict[str, Any]] = []
    for entry in entries:
        label = field(entry, "name") or field(entry, "server_label")
        summary.append({"type": field(entry, "type"), **({"name": label} if label else {})})
    return summary


def _hosted_outputs(
    answer: RecordedAnswer,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    calls: Sequence[InspectedCall],
    items: Sequence[object],
) -> tuple[dict[str, HostedToolOutput], list[UnreadItem]]:
    """The aggregated typed output per hosted tool name (``mcp-<label>`` per MCP server)."""
    outputs: dict[str, HostedToolOutput] = {}
    unread: list[UnreadItem] = []
    kinds = [kind for kind in codecs if any(call.kind == kind for call in calls)]
    for name, tool in reading_tools(kinds, answer.request_body, items).items():
        try:
            output = codecs[tool.kind].parse_output(items, tool)
        except PromptEvaluationError as error:
            unread.append(UnreadItem(None, f"hosted output {name}: {error.message}"))
            continue
        if output is not None:
            outputs[name] = output
    return outputs, unread


def read_interaction(
    answer: RecordedAnswer,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    client_codecs: Mapping[str, ClientToolCodec] | None = None,
    answers: Mapping[str, Sequence[ClientAnswer]] | None = None,
) -> InteractionReading:
    """Read one interaction; ``answers`` are the client answers the cassette's requests sent
    (:func:`~tooltape.testing.recorded.calls.client_answers`)."""
    registry = default_client_tool_codecs() if client_codecs is None else client_codecs
    found = response_calls(answer, codecs, registry, answers or {})
    outputs, unread = _hosted_outputs(answer, codecs, found.calls, found.readable_items)
    return InteractionReading(
        answer, found.calls, outputs, (*_unread_output(answer), *found.unread, *unread)
    )


def _unread_output(answer: RecordedAnswer) -> tuple[UnreadItem, ...]:
    """A response whose ``output`` is there but not a list: nothing in it can be read."""
    output: object = answer.response.get("output") if answer.response is not None else None
    if output is None or isinstance(output, list):
        return ()
    return (UnreadItem(None, f"output is {type(output).__name__}, not a list of items"),)


def read_interactions(
    cassette: Cassette,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    client_codecs: Mapping[str, ClientToolCodec] | None = None,
) -> tuple[InteractionReading, ...]:
    """Every interaction of ``cassette``, read, in recording order."""
    recorded = read_answers(cassette)
    registry = default_client_tool_codecs() if client_codecs is None else client_codecs
    answers = client_answers(recorded)
    return tuple(read_interaction(a, codecs, registry, answers) for a in recorded)


def interaction_report(reading: InteractionReading) -> dict[str, Any]:
    """One entry of ``interactions`` in ``inspect --json``."""
    answer, error = reading.answer, reading.answer.error
    return {
        "index": answer.index,
        "method": answer.method,
        "path": answer.path,
        "status_code": answer.status_code,
        "streamed": answer.streamed,
        "response_status": answer.response_status,
        "error": {"code": error.code, "message": error.message} if error else None,
        "calls": [call.to_json() for call in reading.calls],
        "hosted_outputs": {
            name: output_json(output) for name, output in reading.hosted_outputs.items()
        },
        "unread_items": [
            {"index": entry.index, "message": entry.message} for entry in reading.unread
        ],
    }


def inspect_cassette(
    cassette: Cassette,
    path: Path | str,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    client_codecs: Mapping[str, ClientToolCodec] | None = None,
) -> dict[str, Any]:
    """The ``inspect --json`` object for a loaded cassette."""
    return {
        "cassette": str(path),
        "format": cassette.format,
        "interactions": [
            interaction_report(reading)
            for reading in read_interactions(cassette, codecs, client_codecs)
        ],
    }


def inspect_path(
    path: Path | str, codecs: Mapping[str, HostedToolCodec[Any, Any]]
) -> dict[str, Any]:
    """Load ``path`` (any supported format) and inspect it."""
    return inspect_cassette(load_cassette(path), path, codecs)
