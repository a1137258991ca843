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
    """Why a passing test's cassette is stale, or ``None`` when it is not.

    Replayed, the code now makes fewer requests than when it was recorded. Under
    ``--record-mode=new_episodes``, the run recorded new requests beside recorded
    ones it never played: saved, the cassette would fail its next replay, so the
    test fails now and nothing is saved. The message says how to record again,
    or how to allow it with ``@pytest.mark.tooltape(allow_unplayed=True)``.
    """
    state = item.stash.get(CASSETTE_RUN, None)
    if cassette is None or state is None:
        return None
    if not getattr(cassette, "rewound", False):
        return None
    replaying = bool(getattr(cassette, "write_protected", False))
    if not replaying and not (state.record_mode == "new_episodes" and state.loaded):
        return None
    if marker_options(item).get("allow_unplayed", False):
        return None
    counts = cast("Mapping[int, int]", cassette.play_counts)
    # Interactions past the test's own (a shared cassette's) are other tests' to play.
    recorded = min(state.loaded, len(cassette))
    unplayed = [i for i in range(recorded) if counts.get(i, 0) == 0]
    if not unplayed:
        return None
    described = ", ".join(
        f"#{i} {cassette.requests[i].method} {cassette.requests[i].path}" for i in unplayed
    )
    rerecord = record_command(state.command_id, "rewrite")
    allow = "or mark the test @pytest.mark.tooltape(allow_unplayed=True)."
    if replaying or not getattr(cassette, "dirty", False):  # nothing new recorded
        message = (
            f"Stale cassette {cassette._path}: recorded interaction(s) {described} were never "
            "played. The code now makes fewer requests than when it was recorded: re-record "
            f"with `{rerecord}`, {allow}"
        )
    else:
        message = (
            f"Stale cassette {cassette._path}: this --record-mode=new_episodes run recorded "
            f"new requests and never played recorded interaction(s) {described}, so the next "
            "replay would fail them as stale; the cassette was not saved. Record the test "
            f"from scratch with `{rerecord}`, {allow}"
        )
    note = pinned_note(state, rewrite=True)
    return f"{message}\n{note}" if note else message
