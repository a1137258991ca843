"""Clients built before a replaying test's placeholder key is in place, explained.

The placeholder ``OPENAI_API_KEY`` (``tooltape.testing.replay_key``) is in
the environment while a cassette test and its function-scoped fixtures run.
A client built earlier (when a test module, or a module it imports, is
imported: a module-level ``OpenAI()``, a pydantic-ai ``Agent("openai:...")``;
or in a session, module or class fixture) finds no key, and its SDK's error
says only to set one. These messages say where the client was built and the
two ways out.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pytest

from tooltape.testing.error_chain import error_chain
from tooltape.testing.replay_key import AZURE_KEY_VARIABLE, KEY_VARIABLE, REPLAY_API_KEY

__all__ = ["explain_early_client", "explain_import_without_key"]

_VARIABLES = (AZURE_KEY_VARIABLE, KEY_VARIABLE)  # the longer first: it holds the other


def _missing_key(error: BaseException) -> tuple[str, BaseException] | None:
    """The key variable a client's error (in ``error``'s chain) asks for and the
    environment lacks (the placeholder counts as lacking), with that error."""
    for cause in error_chain(error):
        text = str(cause)
        for variable in _VARIABLES:
            if variable in text:
                if os.environ.get(variable, REPLAY_API_KEY) in ("", REPLAY_API_KEY):
                    return variable, cause
                break
    return None


def _account(cause: BaseException) -> str:
    first = (str(cause).splitlines() or [""])[0]
    return f"{type(cause).__module__}.{type(cause).__qualname__}: {first}"


def _ways_out(variable: str) -> str:
    return (
        "Build the client inside the test or a function-scoped fixture, or set "
        f"{variable} to any value when replaying (replay sends it nowhere; recording "
        f"needs a real one):\n\n    {variable}=unused pytest\n"
    )


def _built_at(error: BaseException, root: Path) -> str:
    """``file:line`` of the project's innermost frame in ``error``'s traceback ("" if none)."""
    found = ""
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        if path.is_relative_to(root) and "site-packages" not in path.parts:
            found = f"{os.path.relpath(path, root)}:{frame.lineno}"
    return found


def explain_import_without_key(path: str, error: BaseException, root: Path) -> str | None:
    """Why the test module at ``path`` did not import, when a client built at import time
    found no key (``None``: that is not why); ``root`` is the project's rootdir."""
    missing = _missing_key(error)
    if missing is None:
        return None
    variable, cause = missing
    where = _built_at(error, root)
    at = f" (at {where})" if where else ""
    return (
        f"tooltape: {path} could not be imported: a client built when it is imported{at} "
        f"found no {variable} ({_account(cause)}).\nWhile tests replay, a placeholder key is "
        "in the environment only while each cassette test runs, after every module is "
        "imported; a module-level client (an `OpenAI()`, a pydantic-ai "
        '`Agent("openai:...")`, here or in a module it imports) is built before. '
        + _ways_out(variable)
    )


def explain_early_client(item: pytest.Item, error: BaseException) -> str | None:
    """Why the cassette test ``item``'s setup failed, when a fixture of wider scope than the
    test built a client that found no key (``None``: that is not why, or no fixture of
    the test is in ``error``'s traceback)."""
    missing = _missing_key(error)
    if missing is None:
        return None
    variable, cause = missing
    names = set(cast("Sequence[str]", getattr(item, "fixturenames", ())))
    fixtures = [
        frame.name for frame in traceback.extract_tb(error.__traceback__) if frame.name in names
    ]
    if not fixtures:
        return None  # not built by a fixture: the error says what it says
    return (
        f"tooltape: a client built in the fixture {fixtures[-1]!r} found no {variable} "
        f"({_account(cause)}).\n"
        "While a test replays, a placeholder key is in the environment for the test and its "
        "function-scoped fixtures only; a session, package, module or class fixture is built "
        "before it, and keeps what it built for later tests. " + _ways_out(variable)
    )
