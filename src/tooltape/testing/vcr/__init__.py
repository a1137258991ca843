"""The vcrpy bridge: tooltape's format, scrubbing and wire matching inside vcrpy.

- :func:`configure_vcr` points any ``vcr.VCR`` at all of it in one call (the
  pytest plugin uses it on pytest-recording's VCR);
- :class:`TooltapeSerializer` / :class:`TooltapePersister` read any cassette
  format and write tooltape JSON atomically, refusing one that holds a secret;
- :func:`before_record_request` / :func:`before_record_response` scrub what
  vcrpy is about to keep;
- :func:`make_body_matcher` / :func:`path_matcher` match requests semantically,
  and :func:`explain_cassette_failure` turns a miss into a message that says
  what to do.
"""

from tooltape.testing.vcr.matchers import make_body_matcher, path_matcher
from tooltape.testing.vcr.misses import explain_cassette_failure, record_command
from tooltape.testing.vcr.persistence import (
    CombinedTooltapePersister,
    TooltapePersister,
    TooltapeSerializer,
    serializer,
    use_cassette_safely,
)
from tooltape.testing.vcr.record_hooks import (
    ScrubHooks,
    before_record_request,
    before_record_response,
)
from tooltape.testing.vcr.recorder import MATCH_ON, SERIALIZER, configure_vcr

__all__ = [
    "MATCH_ON",
    "SERIALIZER",
    "CombinedTooltapePersister",
    "ScrubHooks",
    "TooltapePersister",
    "TooltapeSerializer",
    "before_record_request",
    "before_record_response",
    "configure_vcr",
    "explain_cassette_failure",
    "make_body_matcher",
    "path_matcher",
    "record_command",
    "serializer",
    "use_cassette_safely",
]
