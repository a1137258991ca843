"""The real recorded web search body a loopback server answers with in the plugin's tests.

It is the first response of the imported ``model_web_search_tool`` cassette
(a real recording; see ``cassettes/imported/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tooltape.testing.cassette import JsonBody, load_cassette

REPO = Path(__file__).resolve().parents[2]


def real_web_search_body() -> dict[str, Any]:
    """The recorded Responses body, as a fresh dict."""
    cassette = load_cassette(REPO / "cassettes" / "imported" / "model_web_search_tool.json")
    body = cassette.interactions[0].response.body
    assert isinstance(body, JsonBody)
    return dict(body.data)  # type: ignore[arg-type]
