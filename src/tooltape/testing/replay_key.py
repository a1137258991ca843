"""The API key while replaying and recording: a placeholder for replay, the real one to record.

Clients refuse to start without ``OPENAI_API_KEY`` even though replay never
sends it anywhere, so a replaying test gets a placeholder that is not
key-shaped. Recording needs the real key; when it is missing, the failure says
how to set it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Generator, Mapping
from typing import Any, cast

import pytest

from tooltape.testing.cassette._policy import KEY_VARIABLE, REPLAY_API_KEY
from tooltape.testing.cassette_run import command_nodeid
from tooltape.testing.error_chain import error_chain
from tooltape.testing.vcr.misses import record_command

__all__ = [
    "AZURE_KEY_VARIABLE",
    "KEY_VARIABLE",
    "REPLAY_API_KEY",
    "TRACING_VARIABLE",
    "client_api_key",
    "explain_missing_key",
    "replay_environment",
]

TRACING_VARIABLE = "OPENAI_AGENTS_DISABLE_TRACING"

AZURE_KEY_VARIABLE = "AZURE_OPENAI_API_KEY"
"""Where ``openai.AzureOpenAI()`` reads its key (it reads no ``OPENAI_API_KEY``)."""


def _replaying(vcr: Any) -> bool:
    return vcr is not None and bool(getattr(vcr, "write_protected", False))


@contextlib.contextmanager
def replay_environment(vcr: Any) -> Generator[None, None, None]:
    """A placeholder ``OPENAI_API_KEY`` (and ``AZURE_OPENAI_API_KEY``) while the test
    replays ``vcr`` and no such key is set; openai-agents' tracing off while it replays."""
    if not _replaying(vcr):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        if not os.environ.get(AZURE_KEY_VARIABLE):
            patch.setenv(AZURE_KEY_VARIABLE, REPLAY_API_KEY)
        if not os.environ.get(KEY_VARIABLE):
            patch.setenv(KEY_VARIABLE, REPLAY_API_KEY)
        # openai-agents exports the traces of a run from a background thread, and
        # what is left at exit after every cassette closed: with a key set, a
        # replayed run's traces reached the network with it. Replay touches no network,
        # key or not (openai-agents reads this on its first trace, once a process).
        if TRACING_VARIABLE not in os.environ:
            patch.setenv(TRACING_VARIABLE, "1")
        yield


def client_api_key(vcr: Any) -> str:
    """The key for a client the plugin builds: the placeholder when replaying, else the real one.

    Without a real key, anything but replay fails the test with how to set one.
    """
    key = os.environ.get(KEY_VARIABLE)
    replaying = _replaying(vcr)
    if not replaying and not key:
        mode = getattr(getattr(vcr, "record_mode", None), "value", None)
        doing = f"Recording ({mode!r} mode)" if mode else "Calling the API with recording disabled"
        pytest.fail(
            f"{doing} needs {KEY_VARIABLE}: set it to a real key "
            "(or, with OPENAI_BASE_URL pointing at a local server, to any value).",
            pytrace=False,
        )
    return REPLAY_API_KEY if replaying or not key else key


def explain_missing_key(item: pytest.Item, error: BaseException) -> str | None:
    """The fix for a client that refused to start while recording without a key."""
    if os.environ.get(KEY_VARIABLE):
        return None
    cassette = cast("Mapping[str, Any]", getattr(item, "funcargs", {})).get("vcr")
    if cassette is None or getattr(cassette, "write_protected", True):
        return None  # not recording: a placeholder was there
    for cause in error_chain(error):
        if KEY_VARIABLE in str(cause):
            mode = getattr(getattr(cassette, "record_mode", None), "value", "once")
            return (
                f"Recording ({mode!r} mode) needs {KEY_VARIABLE}, and the client this test "
                f"builds found none ({type(cause).__name__}). Set it to a real key (or, with "
                "OPENAI_BASE_URL pointing at a local server, to any value):\n\n"
                f"    {record_command(command_nodeid(item))}\n"
            )
    return None
