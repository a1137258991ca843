"""A project's own recording hooks run first; tooltape's scrub hooks run on what they return.

vcrpy takes ``before_record_request`` / ``before_record_response`` from the
options of ``use_cassette`` in place of the recorder's, and pytest-recording
passes a project's ``vcr_config`` fixture and ``vcr`` marks as those options:
a project filtering its own requests would otherwise switch tooltape's
scrubbing off. :class:`ScrubbedLast` takes the recorder's place in building a
cassette's options and chains the hooks instead, as vcrpy chains its own
filters: each hook gets what the one before returned, and one that returns
``None`` drops the interaction. The cassette's other options pass through
``tooltape.testing.vcr.options`` first (matchers, decoding, load hooks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from tooltape.testing.vcr.options import tooltape_options
from tooltape.testing.vcr.record_hooks import ScrubHooks, decode_compressed_response

__all__ = ["ScrubbedLast", "scrub_last"]

Hook = Callable[[Any], Any]


def _hooks(option: object) -> tuple[Hook, ...]:
    """A hook option as vcrpy reads it: nothing, one hook, or an iterable of hooks."""
    if not option:
        return ()
    if isinstance(option, Iterable):
        return tuple(cast("Iterable[Hook]", option))
    return (cast("Hook", option),)


@dataclass(frozen=True, slots=True)
class ScrubbedLast:
    """``VCR.get_merged_config`` with tooltape's hooks around the project's.

    A request goes through the project's hooks (the cassette's options, else
    the recorder's), then is scrubbed; a response is decoded, goes through
    the project's hooks, then is scrubbed.
    """

    recorder: Any
    merged_config: Callable[..., dict[str, Any]]
    scrub: ScrubHooks
    first: tuple[Hook, ...] = ()
    """Request hooks that run before the project's (``None`` keeps a request out)."""

    def __call__(self, **options: Any) -> dict[str, Any]:
        recorder = self.recorder
        options = tooltape_options(options, recorder.match_on)
        # vcrpy's precedence: before_record_request, its older name, the recorder's.
        own = options.pop("before_record", recorder.before_record_request)
        own = options.pop("before_record_request", own)
        options["before_record_request"] = (
            *self.first,
            *_hooks(own),
            self.scrub.before_record_request,
        )
        own = options.pop("before_record_response", recorder.before_record_response)
        options["before_record_response"] = (
            decode_compressed_response,
            *_hooks(own),
            self.scrub.before_record_response,
        )
        return self.merged_config(**options)


def scrub_last(recorder: Any, scrub: ScrubHooks, first: tuple[Hook, ...] = ()) -> None:
    """Make every cassette of ``recorder`` (a ``vcr.VCR``) end its hooks with ``scrub``'s
    (and start its request hooks with ``first``).

    Configuring the same recorder again replaces the hooks, never stacks them.
    """
    merged_config = recorder.get_merged_config
    if isinstance(merged_config, ScrubbedLast):
        merged_config = merged_config.merged_config
    recorder.get_merged_config = ScrubbedLast(recorder, merged_config, scrub, first)
