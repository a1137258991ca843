"""Contract checks for tool codecs, hosted and client-executed: used by ``tooltape check``
and by pytest.

Reuse them for your own codec by subclassing
:class:`~tooltape.testing.contracts.suite.HostedToolCodecContract`, and list
it in ``[tool.tooltape] codecs`` so ``tooltape check`` covers it too.
"""

from tooltape.testing.contracts.checks import (
    PYTEST_UPDATE,
    Coverage,
    KindReport,
    Outcome,
    check_failure_semantics,
    check_kind,
    check_readable,
    check_replay,
    check_spec,
    check_streamed,
    cli_update,
    failed_variant,
    spec_document,
    spec_path,
)
from tooltape.testing.contracts.client_checks import check_client_kind
from tooltape.testing.contracts.corpus import (
    Corpus,
    UnreadableFolderError,
    cassette_files,
    cassette_folders,
    load_corpus,
    unreadable_note,
)
from tooltape.testing.contracts.matrix import ContractReport, run_contracts
from tooltape.testing.contracts.subjects import (
    ClientSubject,
    ContractSetupError,
    ContractSubject,
    Subject,
    builtin_subjects,
    client_subjects,
    load_subject,
    project_subjects,
    representative_tool,
    snapshot_stem,
)
from tooltape.testing.contracts.suite import HostedToolCodecContract
from tooltape.testing.contracts.superseded import (
    Superseded,
    replayed_cassettes,
    superseded_cassettes,
)

__all__ = [
    "PYTEST_UPDATE",
    "ClientSubject",
    "ContractReport",
    "ContractSetupError",
    "ContractSubject",
    "Corpus",
    "Coverage",
    "HostedToolCodecContract",
    "KindReport",
    "Outcome",
    "Subject",
    "Superseded",
    "UnreadableFolderError",
    "builtin_subjects",
    "cassette_files",
    "cassette_folders",
    "check_client_kind",
    "check_failure_semantics",
    "check_kind",
    "check_readable",
    "check_replay",
    "check_spec",
    "check_streamed",
    "cli_update",
    "client_subjects",
    "failed_variant",
    "load_corpus",
    "load_subject",
    "project_subjects",
    "replayed_cassettes",
    "representative_tool",
    "run_contracts",
    "snapshot_stem",
    "spec_document",
    "spec_path",
    "superseded_cassettes",
    "unreadable_note",
]
