"""``HostedToolCodecContract``: the contract suite as a pytest base class.

Subclass it in a test module for your own codec::

    class TestAcmeSearchCodec(HostedToolCodecContract):
        codec = AcmeSearchCodec()
        tool = acme_search_tool(AcmeSearchConfig(region="eu"))

- ``test_spec_matches_snapshot``: the codec's spec of ``tool`` equals its
  snapshot under ``<cassettes>/specs/`` (``pytest --snapshot-update`` writes it);
- ``test_recordings_replay_into_typed_outputs``: every cassette under the folder
  can be read, and every recorded call of the kind parses into a typed output;
- ``test_failure_semantics``: a failed call item, a raising hook and an
  unknown kind behave as DESIGN promises.

``cassette_dir`` defaults to the project's cassette folder (``cassette_dir``
in ``[tool.tooltape]``, else ``cassettes``). ``tool`` defaults to the codec's
``canonical_tool`` (or, for a built-in codec, the kind's canonical tool).
Name the class in ``[tool.tooltape] codecs`` (``"tests.test_acme:TestAcmeSearchCodec"``)
and ``tooltape check`` checks the same codec and tool against the same snapshot
file: the two never write different content to one file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.prompt import HostedTool
from tooltape.testing.contracts.checks import (
    PYTEST_UPDATE,
    Outcome,
    check_failure_semantics,
    check_readable,
    check_replay,
    check_spec,
)
from tooltape.testing.contracts.corpus import (
    SPEC_DIR_NAME,
    Corpus,
    UnreadableFolderError,
    load_corpus,
)
from tooltape.testing.contracts.subjects import (
    ContractSetupError,
    ContractSubject,
    representative_tool,
)


class HostedToolCodecContract:
    """Spec snapshot, replay through the codec, and failure semantics for one codec."""

    codec: ClassVar[HostedToolCodec[Any, Any]]
    tool: ClassVar[HostedTool[Any] | None] = None
    cassette_dir: ClassVar[Path | str | None] = None

    @classmethod
    def subject(cls, *, origin: str | None = None) -> ContractSubject:
        """The codec and tool this class holds to the contract."""
        codec = getattr(cls, "codec", None)
        if codec is None:
            raise ContractSetupError(f"{cls.__name__} sets no codec: add `codec = YourCodec()`")
        tool = cls.tool if cls.tool is not None else representative_tool(codec)
        if tool is None:
            raise ContractSetupError(
                f"{cls.__name__} sets no tool and {type(codec).__name__} has no "
                "canonical_tool: add `tool = your_tool(YourConfig(...))`"
            )
        return ContractSubject(
            codec, tool, origin=origin or f"{cls.__module__}.{cls.__qualname__}", owner=cls.__name__
        )

    @pytest.fixture(scope="class")
    @classmethod
    def contract_folder(cls, request: pytest.FixtureRequest) -> Path:
        """The cassette folder: ``cassette_dir``, else the project's."""
        if cls.cassette_dir is not None:
            return Path(cls.cassette_dir)
        from tooltape.testing.plugin import project_settings

        settings = project_settings(request.config)
        return Path(str(request.config.rootpath)) / settings.cassette_dir

    @pytest.fixture(scope="class")
    @classmethod
    def contract_corpus(cls, request: pytest.FixtureRequest, contract_folder: Path) -> Corpus:
        """Every Responses answer recorded under the cassette folder, in the files replay
        reads (not a ``.yaml`` left beside the ``.json`` a test was recorded again into)."""
        project = Path(str(request.config.rootpath))
        try:
            return load_corpus(contract_folder, project=project)
        except UnreadableFolderError as exc:  # the message names the folder and the fix
            refused = str(exc)
        pytest.fail(refused, pytrace=False)  # outside the handler: the message shows once

    def test_spec_matches_snapshot(
        self, request: pytest.FixtureRequest, contract_folder: Path
    ) -> None:
        update = bool(request.config.getoption("--snapshot-update", default=False))
        outcome = check_spec(
            self.subject(),
            contract_folder / SPEC_DIR_NAME,
            update=update,
            update_hint=PYTEST_UPDATE,
        )
        _hold(outcome)

    def test_recordings_replay_into_typed_outputs(self, contract_corpus: Corpus) -> None:
        subject = self.subject()
        _hold(check_readable(contract_corpus))
        _hold(check_replay(subject.codec, subject.tool, contract_corpus))

    def test_failure_semantics(self, contract_corpus: Corpus) -> None:
        subject = self.subject()
        registry = {**default_hosted_tool_codecs(), subject.kind: subject.codec}
        _hold(
            check_failure_semantics(subject.codec, subject.tool, contract_corpus, registry=registry)
        )


def _hold(outcome: Outcome) -> None:
    """Fail the test with the outcome's own message (it says what to do), no traceback."""
    if not outcome.ok:
        pytest.fail(outcome.detail, pytrace=False)
