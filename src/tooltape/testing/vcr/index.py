"""An index of a cassette's recorded requests, so replay time grows linearly with them.

vcrpy answers a request by trying every recorded request in turn, twice
(``can_play_response_for``, then ``play_response``), with every matcher.
With tooltape's body matcher that is a JSON diff per recorded request, and a
test replaying ``n`` interactions makes ``n`` of those scans: quadratic.

:func:`index_requests` is a vcrpy ``after_load_interaction`` hook that gives
a loaded cassette an index: recorded requests grouped by the key every
keyed matcher of the cassette gives them (method, API path, the body's match
key). A request is then tried only against the recorded requests that share
its key, in their order, with all of the cassette's matchers, exactly as
vcrpy would try them: the same interaction is played, and one that differs
is never diffed. When no recorded request matches, vcrpy's own report (which
compares the request with every recorded one) still shows each field diff.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from tooltape.testing.vcr._names import requests_match, vcr_method_matcher

__all__ = ["RequestIndex", "index_requests"]

Keyer = Callable[[Any], Hashable]


def _keyers(matchers: Sequence[Any]) -> tuple[Keyer, ...]:
    keyers: list[Keyer] = []
    for matcher in matchers:
        if matcher is vcr_method_matcher:
            keyers.append(lambda request: request.method)
            continue
        request_key = getattr(matcher, "request_key", None)
        if callable(request_key):
            keyers.append(request_key)
    return tuple(keyers)


class RequestIndex:
    """The positions of a cassette's recorded requests, by their key."""

    __slots__ = ("_buckets", "_indexed", "_keyers")

    def __init__(self, keyers: tuple[Keyer, ...]) -> None:
        self._keyers = keyers
        self._buckets: dict[tuple[Hashable, ...], list[int]] = {}
        self._indexed = 0

    def key(self, request: Any) -> tuple[Hashable, ...]:
        """What a request must share with a recorded one for the matchers to accept it."""
        return tuple(keyer(request) for keyer in self._keyers)

    def candidates(self, request: Any, data: Sequence[tuple[Any, Any]]) -> list[int]:
        """Positions in ``data`` (vcrpy's ``(request, response)`` list) worth trying, in order."""
        end = len(data)  # once: interactions recorded meanwhile are indexed next time
        if end < self._indexed:  # the interactions were replaced: start again
            self._buckets.clear()
            self._indexed = 0
        for position in range(self._indexed, end):
            self._buckets.setdefault(self.key(data[position][0]), []).append(position)
        self._indexed = max(self._indexed, end)
        return self._buckets.get(self.key(request), [])


def _indexed_responses(cassette: Any, index: RequestIndex) -> Callable[[Any], Iterator[Any]]:
    """vcrpy's ``Cassette._responses`` (matching ``(position, response)`` pairs), indexed."""

    def responses(request: Any) -> Iterator[tuple[int, Any]]:
        request = cassette._before_record_request(request)
        if request is None:
            return
        data: list[tuple[Any, Any]] = cassette.data
        matchers: Sequence[Any] = cassette._match_on
        for position in index.candidates(request, data):
            stored, response = data[position]
            if requests_match(request, stored, matchers):
                yield position, response

    return responses


def index_requests(request: Any, response: Any, cassette: Any) -> tuple[Any, Any]:
    """vcrpy ``after_load_interaction`` hook: index the cassette's recorded requests.

    It changes no interaction. The index is built on the first lookup and
    follows interactions recorded later. A cassette whose matchers give no
    key (none of tooltape's, nor vcrpy's ``method``) keeps vcrpy's own scan.
    """
    if "_responses" not in vars(cassette):
        keyers = _keyers(getattr(cassette, "_match_on", ()))
        if keyers:
            cassette._responses = _indexed_responses(cassette, RequestIndex(keyers))
        else:
            cassette._responses = cassette._responses  # decided: nothing to index on
    return request, response


# vcrpy asks inspect.signature whether the hook takes the cassette, once for
# every interaction it loads; a precomputed signature is the one it would find.
index_requests.__signature__ = inspect.signature(index_requests)
