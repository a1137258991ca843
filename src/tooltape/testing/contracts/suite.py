"""``HostedToolCodecContract``: the contract suite as a pytest base class.

Subclass it in a test module for your own codec (the way langchain's
standard tests are reused)::

    class TestMySearchCodec(HostedToolCodecContract):
        codec = MySearchCodec()
        tool = my_search_tool(MySearchConfig(...))
        cassette_dir = Path(__file__).parent / "cassettes"

Each test fails with a message that says how to fix it (record a cassette,
review and rewrite the spec snapshot with ``--snapshot-update``...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.prompt import HostedTool
from tooltape.testing.contracts.checks import (
    check_failure_semantics,
    check_replay,
    check_spec,
)
from tooltape.testing.contracts.corpus import SPEC_DIR_NAME, Corpus, load_corpus


class HostedToolCodecContract:
    """Spec snapshot, replay through the codec, and failure semantics for one codec."""

    codec: ClassVar[HostedToolCodec[Any, Any]]
    tool: ClassVar[HostedTool[Any]]
    cassette_dir: ClassVar[Path]

    @pytest.fixture(scope="class")
    @classmethod
    def contract_corpus(cls) -> Corpus:
        """Every Responses answer recorded under ``cassette_dir``."""
        return load_corpus(Path(cls.cassette_dir))

    def test_spec_matches_snapshot(self, request: pytest.FixtureRequest) -> None:
        update = bool(request.config.getoption("--snapshot-update", default=False))
        spec_dir = Path(self.cassette_dir) / SPEC_DIR_NAME
        outcome = check_spec(self.codec, self.tool, spec_dir, update=update)
        assert outcome.ok, outcome.detail

    def test_recordings_replay_into_typed_outputs(self, contract_corpus: Corpus) -> None:
        outcome = check_replay(self.codec, self.tool, contract_corpus)
        assert outcome.ok, outcome.detail

    def test_failure_semantics(self, contract_corpus: Corpus) -> None:
        registry = {**default_hosted_tool_codecs(), self.codec.kind: self.codec}
        outcome = check_failure_semantics(self.codec, self.tool, contract_corpus, registry=registry)
        assert outcome.ok, outcome.detail
