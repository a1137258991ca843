"""Re-record ``cassette.json`` without an API key, from scripted model answers.

The committed cassette was made this way: the model's side of the
conversation below is written by hand (in the Responses API's shape) and
served by a loopback HTTP server, while everything tooltape does (rendering
the card, the tool specs, running the tools and hooks, the child agent's
request, sending results back) is real and recorded. The cassette header
says ``source: loopback``. ``python demo.py --record`` replaces it with a
live recording.

    python examples/cards_demo/scripted.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import openai

from tooltape.testing.provider.faults import response_json
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

sys.path.insert(0, str(Path(__file__).resolve().parent))

import demo

MODEL = "gpt-5.1"
REPORT = (
    "+# PMO status\n"
    "+\n"
    "+- Time: 2025-01-15T14:30:00Z\n"
    "+- Open issues: 42\n"
    "+- Atlas (New York): on track; the launch review is on Friday.\n"
)


def call(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    """A ``function_call`` output item."""
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(arguments),
        "status": "completed",
    }


def script() -> list[LoopbackReply]:
    """The model's answers, in the order tooltape asks for them."""
    first = response_json(
        id="resp_demo_1",
        model=MODEL,
        output=[
            call("ny_manager", {"message": "What is the status of the Atlas project?"}, "c1"),
            call("clock__get_time", {}, "c2"),
            call("clock__set_time", {"value": "2025-01-01T00:00:00Z"}, "c3"),
            call("add_one", {"x": 41}, "c4"),
        ],
    )
    child = response_json(
        "Atlas is on track; the launch review is on Friday.", id="resp_demo_2", model=MODEL
    )
    patch = response_json(
        id="resp_demo_3",
        model=MODEL,
        output=[
            {
                "type": "apply_patch_call",
                "id": "apc_demo",
                "call_id": "c5",
                "status": "completed",
                "operation": {"type": "create_file", "path": demo.REPORT, "diff": REPORT},
            }
        ],
    )
    final = response_json(
        "Wrote status.md: at 14:30 UTC Atlas (New York) is on track for Friday's launch "
        "review, and open issues are now 42.",
        id="resp_demo_4",
        model=MODEL,
    )
    return [LoopbackReply.json(body) for body in (first, child, patch, final)]


def main() -> int:
    with LoopbackProvider(script()) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="scripted", max_retries=0)
        provenance = (
            "scripted model answers (examples/cards_demo/scripted.py) served on loopback; "
            "tooltape's requests and tool results are real"
        )
        with demo.recording(client=client, source="loopback", provenance=provenance):
            response, session = demo.evaluate(demo.CARD, client)
    demo.show(response, session)
    print(f"\nwrote {demo.CASSETTE} ({len(server.requests)} exchanges)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
