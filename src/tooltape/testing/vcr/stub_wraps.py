"""tooltape's wrappers around vcrpy's own functions, each put in place once.

Several steps wrap the same vcrpy function (the httpx stub's ``_vcr_request``,
``VCRConnection.getresponse``), and ``configure_vcr`` runs once per recorder.
Each wrapper carries a mark of its own, which ``functools.wraps`` hands on to
every wrapper put around it later: a step finds its own mark on the function
whatever wraps it now, so it is never put in twice, and the steps may be put
in in any order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["wrap_once"]


def wrap_once(
    owner: Any, name: str, mark: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]
) -> None:
    """Set ``owner.<name>`` to ``wrap(owner.<name>)``, marked ``mark``, unless it already
    carries that mark (or ``owner`` has no such function: a vcrpy without it is left
    alone). ``wrap`` must use ``functools.wraps``, so the marks inside reach the outside."""
    current = getattr(owner, name, None)
    if not callable(current) or getattr(current, mark, False):
        return
    wrapped = wrap(current)
    setattr(wrapped, mark, True)
    setattr(owner, name, wrapped)
