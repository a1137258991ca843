"""What a cassette test's failure means and how to fix it, when tooltape knows.

The SDK and the adapter wrap a cassette miss, an unreadable cassette or a
missing key in their own errors; the plugin puts this in the test's report
in place of their traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooltape.testing.cassette_options import VcrOptionError, pinned_note
from tooltape.testing.cassette_run import CassetteRun
from tooltape.testing.early_clients import explain_early_client
from tooltape.testing.error_chain import wrapped_errors
from tooltape.testing.recorded_elsewhere import import_from_pytest_recording
from tooltape.testing.replay_key import explain_missing_key
from tooltape.testing.vcr.misses import explain_cassette_failure
from tooltape.testing.websocket_refusal import WebSocketNotRecorded

__all__ = ["explained"]


def explained(
    item: pytest.Item, state: CassetteRun, error: BaseException, cassette_dir: Path
) -> str | None:
    """What ``error`` (the test's failure) means and how to fix it, or ``None`` when
    tooltape has nothing to say; ``cassette_dir`` is the project's cassette folder."""
    if isinstance(error, VcrOptionError):
        return f"tooltape: {error}"
    refused = _websocket_in_chain(error)
    if refused is not None:
        return f"{refused}\n"
    message = explain_cassette_failure(
        error,
        state.command_id,
        elsewhere=lambda path: _recorded_elsewhere(item, state, path, cassette_dir),
        read_from=state.read_from,
    )
    if message is None:
        message = explain_missing_key(item, error)
    if message is None:
        message = explain_early_client(item, error)
    if message is None:
        return None
    suggested = "--record-mode" in message
    rewrite = "--record-mode=rewrite" in message
    note = pinned_note(state, rewrite=rewrite) if suggested else ""
    return f"{message}\n{note}" if note else message


def _recorded_elsewhere(
    item: pytest.Item, state: CassetteRun, missing: str, cassette_dir: Path
) -> str:
    """The import that makes the ``missing`` cassette from pytest-recording's, if it has one."""
    return import_from_pytest_recording(
        missing,
        state,
        rootdir=Path(str(item.config.rootpath)),
        cassette_dir=cassette_dir,
        shown_from=Path(item.config.invocation_params.dir),
    )


def _websocket_in_chain(error: BaseException) -> WebSocketNotRecorded | None:
    """The refused websocket behind ``error`` (its client wraps it), if one is."""
    return next((e for e in wrapped_errors(error) if isinstance(e, WebSocketNotRecorded)), None)
