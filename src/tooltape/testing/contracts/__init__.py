"""Contract checks for hosted tool codecs: used by ``tooltape check`` and by pytest.

Reuse them for your own codec by subclassing
:class:`~tooltape.testing.contracts.suite.HostedToolCodecContract`.
"""

from tooltape.testing.contracts.checks import (
    KindReport,
    Outcome,
    check_failure_semantics,
    check_kind,
    check_replay,
    check_spec,
    check_streamed,
    failed_variant,
)
from tooltape.testing.contracts.corpus import Corpus, cassette_files, load_corpus
from tooltape.testing.contracts.matrix import ContractReport, run_contracts
from tooltape.testing.contracts.suite import HostedToolCodecContract

__all__ = [
    "ContractReport",
    "Corpus",
    "HostedToolCodecContract",
    "KindReport",
    "Outcome",
    "cassette_files",
    "check_failure_semantics",
    "check_kind",
    "check_replay",
    "check_spec",
    "check_streamed",
    "failed_variant",
    "load_corpus",
    "run_contracts",
]
