"""Point any vcrpy ``VCR`` at tooltape: its cassette format, scrubbers and wire matchers.

The pytest plugin calls :func:`configure_vcr` on pytest-recording's VCR; a
script or another test runner calls it on its own::

    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with recorder.use_cassette("cassettes/checkout.json"):
        ...
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, cast

from tooltape.testing.cassette._policy import live_policy
from tooltape.testing.settings import ScrubSettings
from tooltape.testing.vcr.cut_responses import note_cut_responses
from tooltape.testing.vcr.hook_chain import scrub_last
from tooltape.testing.vcr.httpx_text import replay_any_text
from tooltape.testing.vcr.matchers import make_body_matcher, path_matcher
from tooltape.testing.vcr.matchers import query_matcher as url_query_matcher
from tooltape.testing.vcr.options import VCRPY_MATCH_ON, tooltape_load_hooks, tooltape_matchers
from tooltape.testing.vcr.persistence import TooltapePersister, TooltapeSerializer
from tooltape.testing.vcr.playback import play_or_record_matches_taken, record_matches_taken
from tooltape.testing.vcr.record_hooks import ScrubHooks
from tooltape.testing.vcr.send_order import record_in_send_order
from tooltape.testing.vcr.thread_resets import keep_resets_to_their_thread

SERIALIZER = "tooltape"
"""The name tooltape's serializer is registered under."""

MATCH_ON = ("method", "tooltape_path", "tooltape_query", "tooltape_body")
"""What a request must share with a recorded one to be answered by it."""


_PATCHED_MODULES = {
    "requests": "requests",
    "boto3": "botocore",
    "urllib3": "urllib3",
    "httplib2": "httplib2",
    "tornado": "tornado",
    "aiohttp": "aiohttp",
    "httpx": "httpx",
    "httpx2": "httpx2",
}
"""vcrpy's patcher groups and the module each one patches (``http.client`` is always there)."""


@functools.cache
def absent_patchers() -> tuple[str, ...]:
    """vcrpy patchers whose HTTP library is not installed.

    vcrpy tries (and fails) to import each of them on every ``use_cassette``,
    a search of ``sys.path`` each time; a patcher for a missing library
    patches nothing, so skipping it changes nothing but that cost.
    """
    return tuple(
        name
        for name, module in _PATCHED_MODULES.items()
        if importlib.util.find_spec(module) is None
    )


def configure_vcr(
    recorder: Any,
    *,
    volatile: Sequence[str] = (),
    serializer: TooltapeSerializer | None = None,
    persister: Any = TooltapePersister,
    body_matcher: Callable[[Any, Any], None] | None = None,
    query_matcher: Callable[[Any, Any], None] | None = None,
    scrub: ScrubSettings | None = None,
    unrecorded: Callable[[Any], Any] | None = None,
) -> Any:
    """Configure ``recorder`` (a ``vcr.VCR``) in place and return it.

    - cassettes are read and written as tooltape JSON by ``serializer`` (its
      header says where recordings come from) and ``persister`` (atomic writes,
      refused when a secret survives scrubbing);
    - credentials are scrubbed from requests and responses before recording,
      compressed bodies decoded: header and query values outside the safe
      set, URL userinfo, key-shaped strings, plus what ``scrub`` (a project's
      ``[tool.tooltape.scrub]``, ``ProjectSettings.scrub``) adds; hooks of
      the project's own (``before_record_request`` / ``before_record_response``
      given to the recorder or to ``use_cassette``) run first, and the
      scrubbing on what they return;
    - requests match on method, API path, query parameters and a semantic
      JSON body comparison that ignores the ``volatile`` fields
      (``metadata.run_id``), unless ``body_matcher`` replaces that
      comparison (``query_matcher`` the query's); a recorder (or a cassette)
      given a ``match_on`` of its own keeps it, with vcrpy's ``body`` /
      ``raw_body``, ``path`` and ``query`` read as tooltape's
      (``tooltape.testing.vcr.options``);
    - a loaded cassette indexes its recorded requests by what the matchers
      compare (``tooltape.testing.vcr.index``), so a request is compared only
      with the recorded ones that may match it, and plays each one once even
      to threads asking at the same moment (``tooltape.testing.vcr.playback``); a
      cassette that may record records a request whose match another thread took;
    - requests sent through urllib3 (requests) from other threads stay on the
      cassette while vcrpy builds or sends through a real connection
      (``tooltape.testing.vcr.thread_resets``);
    - interactions recorded together (``asyncio.gather``, threads) are written
      in the order their requests were sent (``tooltape.testing.vcr.send_order``);
    - vcrpy skips its patchers for HTTP libraries that are not installed;
    - a recorded response header or reason past ASCII replays through httpx (vcrpy's own
      httpx stub fails it, ``tooltape.testing.vcr.httpx_text``);
    - a response the server cut off mid-body while recording is noted on its cassette
      (``tooltape.testing.vcr.cut_responses``): it cannot be recorded;
    - ``unrecorded``, a request hook run before all others, keeps the requests it
      returns ``None`` for out of every cassette (the plugin's
      ``tooltape.testing.vcr.telemetry.UnrecordedTelemetry``).
    """
    replay_any_text()
    record_matches_taken()  # inside the send order's wrapper: what it sends gets a place
    record_in_send_order()
    note_cut_responses()
    play_or_record_matches_taken()  # around the cut noting: each try notes its own cut
    keep_resets_to_their_thread()
    policy = live_policy(scrub)
    recorder.serializer = SERIALIZER
    recorder.register_serializer(
        SERIALIZER, replace(serializer or TooltapeSerializer(), scrub=policy)
    )
    recorder.register_persister(persister)
    # tooltape's decoding step (see hook_chain) replaces vcrpy's: the same step,
    # but a response loaded from a tooltape cassette passes unread.
    recorder.decode_compressed_response = False
    scrub_last(recorder, ScrubHooks(policy), () if unrecorded is None else (unrecorded,))
    matcher = body_matcher or make_body_matcher(volatile, name="tooltape_body")
    recorder.register_matcher("tooltape_body", matcher)
    recorder.register_matcher("tooltape_path", path_matcher)
    recorder.register_matcher("tooltape_query", query_matcher or url_query_matcher)
    own = tuple(cast("Sequence[str]", recorder.match_on))
    recorder.match_on = MATCH_ON if own == VCRPY_MATCH_ON else tooltape_matchers(own)
    skipped = tuple(cast("Sequence[str]", getattr(recorder, "skip_patchers", None) or ()))
    recorder.skip_patchers = (*skipped, *(n for n in absent_patchers() if n not in skipped))
    hooks = getattr(recorder, "after_load_interaction", None)
    recorder.after_load_interaction = tooltape_load_hooks(hooks)
    return recorder
