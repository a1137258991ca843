"""Helpers for the CLI tests: results of ``main``, fake terminals, synthetic cassettes."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# Real recordings of the live API from a public project, header secrets redacted (PROVENANCE.md).
REAL = Path(__file__).resolve().parents[1] / "data" / "real-cassettes" / "openai-responses"
REAL_FILES = sorted(REAL.glob("*.yaml"))

# Synthetic, key-shaped (not a real key): the scanner must still catch it.
FAKE_KEY = "sk-proj-" + "synthetic0123456789abcdefABCDEF"
SYNTHETIC = "synthetic: written by tests/cli to exercise the tooltape CLI; not a real recording"


@dataclass(frozen=True)
class Run:
    """What one ``main([...])`` call returned and printed."""

    code: int
    out: str
    err: str


class FakeTerminal(io.StringIO):
    """A text stream that says it is a TTY."""

    def isatty(self) -> bool:
        return True


def interaction(
    request_body: Any = None,
    response_body: Any = None,
    *,
    request_headers: dict[str, list[str]] | None = None,
    uri: str = "https://api.openai.com/v1/responses",
    status: int = 200,
) -> dict[str, Any]:
    """One interaction of a tooltape document; bodies are tagged (``{"json": ...}``...)."""
    return {
        "request": {
            "method": "POST",
            "uri": uri,
            "headers": request_headers or {"content-type": ["application/json"]},
            "body": request_body,
        },
        "response": {
            "status_code": status,
            "reason": "OK",
            "headers": {"content-type": ["application/json"]},
            "body": response_body,
        },
    }


def write_cassette(path: Path, *interactions: dict[str, Any]) -> Path:
    """Write a synthetic tooltape cassette (its header says it is synthetic)."""
    document = {
        "tooltape": {"version": "0.1.0", "source": "synthetic", "provenance": SYNTHETIC},
        "interactions": list(interactions),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


def clean_interaction() -> dict[str, Any]:
    """A small, clean Responses exchange."""
    return interaction(
        {"json": {"model": "gpt-5", "input": "Say hi."}},
        {
            "json": {
                "id": "resp_synthetic",
                "status": "completed",
                "output": [
                    {
                        "type": "message",
                        "id": "msg_synthetic",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": "Hi.", "annotations": []}],
                    }
                ],
            }
        },
    )
