"""The SDK's telemetry among a test's requests: openai-agents' trace exports.

With a key set, openai-agents posts its traces (``POST /v1/traces/ingest``)
from a background thread whenever its batch timer fires. vcrpy patches the
whole process, so a recording test would keep whichever export fell while its
cassette was open; keyless replay exports nothing, and the test would fail as
stale, or not, by timing. A trace export is not the code's conversation with
the model: while a test records, it is kept out of the cassette and goes where
the SDK sends it, as without a recorder; while a test replays, it is refused
as any request the cassette does not hold is (it never reaches the network).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["UnrecordedTelemetry", "is_trace_export"]

_TRACE_EXPORT = "/traces/ingest"


def is_trace_export(request: Any) -> bool:
    """Whether a vcrpy request is openai-agents' trace export."""
    path = getattr(request, "path", "")
    return request.method == "POST" and isinstance(path, str) and path.endswith(_TRACE_EXPORT)


@dataclass(frozen=True, slots=True)
class UnrecordedTelemetry:
    """vcrpy ``before_record_request`` hook: ``None`` (vcrpy's "ignore this request": not
    recorded, not played) for a trace export while ``recording()`` says the test records;
    every other request, and a trace export while it replays, as it is."""

    recording: Callable[[], bool]

    def __call__(self, request: Any) -> Any:
        if is_trace_export(request) and self.recording():
            return None
        return request
