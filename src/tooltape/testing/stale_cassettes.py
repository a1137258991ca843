"""Stale cassettes: recorded interactions a passing test never played."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import pytest

from tooltape.testing.cassette_options import pinned_note
from tooltape.testing.cassette_run import CASSETTE_RUN, marker_options
from tooltape.testing.vcr.misses import record_command

__all__ = ["stale_message"]


def stale_message(item: pytest.Item, cassette: Any) -> str | None:
    """Why a passing test's replayed cassette is stale, or ``None`` when it is not.

    The code now makes fewer requests than when it was recorded; the message
    says how to re-record, or how to allow it with
    ``@pytest.mark.tooltape(allow_unplayed=True)``.
    """
    state = item.stash.get(CASSETTE_RUN, None)
    if cassette is None or state is None:
        return None
    if not getattr(cassette, "rewound", False) or not getattr(cassette, "write_protected", False):
        return None
    if marker_options(item).get("allow_unplayed", False):
        return None
    counts = cast("Mapping[int, int]", cassette.play_counts)
    unplayed = [i for i in range(len(cassette)) if counts.get(i, 0) == 0]
    if not unplayed:
        return None
    described = ", ".join(
        f"#{i} {cassette.requests[i].method} {cassette.requests[i].path}" for i in unplayed
    )
    rerecord = record_command(state.nodeid).replace("--record-mode=once", "--record-mode=rewrite")
    message = (
        f"Stale cassette {cassette._path}: recorded interaction(s) {described} were never "
        "played. The code now makes fewer requests than when it was recorded: re-record "
        f"with `{rerecord}`, or mark the test @pytest.mark.tooltape(allow_unplayed=True)."
    )
    note = pinned_note(state, rewrite=True)
    return f"{message}\n{note}" if note else message
