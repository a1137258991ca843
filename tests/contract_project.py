"""A project that holds the web search codec to its contract with
``HostedToolCodecContract``, for pytester runs of the contract suite: its test module,
its settings, and the real web search recording it replays."""

from __future__ import annotations

from pathlib import Path

import pytest

WEB_SEARCH_CASSETTE = (
    Path(__file__).resolve().parents[1] / "cassettes" / "imported" / "model_web_search_tool.json"
)
"""A real recording of a Responses call that used web search."""

SUITE = """
from tooltape.adapters.openai.codecs.web_search import WebSearchCodec
from tooltape.testing.contracts import HostedToolCodecContract


class TestWebSearch(HostedToolCodecContract):
    codec = WebSearchCodec()
"""
"""The test module: the web search codec's contract class."""


def contract_project(pytester: pytest.Pytester, *cassettes: str) -> Path:
    """Write the settings and ``test_contracts.py``, and copy the web search recording to
    each of ``cassettes`` (paths under ``cassettes/``); return the cassette folder."""
    pytester.makepyprojecttoml("[tool.tooltape]\n")
    pytester.makepyfile(test_contracts=SUITE)
    folder = pytester.path / "cassettes"
    for name in cassettes:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(WEB_SEARCH_CASSETTE.read_bytes())
    return folder
