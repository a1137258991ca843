"""A cassette's vcrpy options, as tooltape honours them.

vcrpy takes a cassette's options (``use_cassette``'s keywords; pytest-recording
passes a project's ``vcr_config`` fixture and ``vcr`` marks as them) in place
of the recorder's, so a few of them would switch part of tooltape off:

- ``match_on`` / ``additional_matchers``: vcrpy's ``body`` and ``raw_body``
  become tooltape's JSON body comparison (volatile fields ignored, a field
  diff on a mismatch), ``path`` its API path and ``query`` its query
  comparison (a field diff too); every other matcher named
  is kept as it is, and a body left out is not compared.
- ``decode_compressed_response``: tooltape decodes every compressed body, so
  ``True`` changes nothing; ``False`` is refused, since a body kept compressed
  would hide what it holds from the secret scan.
- ``after_load_interaction``: the project's hooks run, then tooltape's
  request index is built (``tooltape.testing.vcr.index``) and playing is
  locked (``tooltape.testing.vcr.playback``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from tooltape.testing.vcr.index import index_requests
from tooltape.testing.vcr.playback import play_each_once

__all__ = ["VcrOptionError", "tooltape_load_hooks", "tooltape_matchers", "tooltape_options"]

_LOAD_HOOKS = (index_requests, play_each_once)


class VcrOptionError(ValueError):
    """A vcrpy option tooltape cannot honour: the message names it and says what to do."""


_TOOLTAPE_MATCHERS = {
    "body": "tooltape_body",
    "raw_body": "tooltape_body",
    "path": "tooltape_path",
    "query": "tooltape_query",
}

VCRPY_MATCH_ON = ("method", "scheme", "host", "port", "path", "query")
"""vcrpy's own default ``match_on`` (a recorder given nothing else)."""


def tooltape_matchers(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` with vcrpy's body and path matchers replaced by tooltape's, each once."""
    return tuple(dict.fromkeys(_TOOLTAPE_MATCHERS.get(name, name) for name in names))


def tooltape_load_hooks(hooks: object) -> tuple[object, ...]:
    """An ``after_load_interaction`` option (nothing, one hook or several) ending with
    tooltape's (the index, the playing lock)."""
    if hooks is None:
        listed: tuple[object, ...] = ()
    elif isinstance(hooks, (list, tuple)):
        listed = tuple(cast("Sequence[object]", hooks))
    else:
        listed = (hooks,)
    return (*listed, *(hook for hook in _LOAD_HOOKS if hook not in listed))


def tooltape_options(options: dict[str, Any], recorder_match_on: Sequence[str]) -> dict[str, Any]:
    """A cassette's ``options`` as tooltape honours them (a new dict; see the module).

    Raises :class:`VcrOptionError` for ``decode_compressed_response=False``.
    """
    options = dict(options)
    if not options.pop("decode_compressed_response", True):
        raise VcrOptionError(
            "decode_compressed_response=False: tooltape decodes every compressed body, "
            "so the cassette stays readable and a secret inside it is found; remove the "
            "option (from vcr_config, the vcr mark or use_cassette)"
        )
    if "match_on" in options:
        options["match_on"] = tooltape_matchers(cast("Iterable[str]", options["match_on"]))
    if "additional_matchers" in options:
        matched = options.get("match_on", recorder_match_on)
        extra = tooltape_matchers(cast("Iterable[str]", options["additional_matchers"]))
        options["additional_matchers"] = tuple(name for name in extra if name not in matched)
    if "after_load_interaction" in options:
        options["after_load_interaction"] = tooltape_load_hooks(options["after_load_interaction"])
    return options
