"""Readable failures for requests a cassette cannot answer.

vcrpy raises ``CannotOverwriteExistingCassetteException`` inside the HTTP
transport; the OpenAI SDK and the adapter wrap it (``APIConnectionError``,
``PromptEvaluationError``), so the reason would be buried three exceptions
deep. These functions find it again and say what to do.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from tooltape.testing.cassette import CassetteError
from tooltape.testing.cassette._errors import CassettePathError

# tooltape's vcrpy matchers, by what they compare
_MATCHER_NAMES = {"tooltape_body": "body", "tooltape_path": "path"}


def _find_in_chain(error: BaseException | None, kind: type[BaseException]) -> Any:
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, kind):
            return error
        error = error.__cause__ or error.__context__
    return None


def _find_vcr_error(error: BaseException | None) -> Any:
    from tooltape.testing.vcr._names import CannotOverwriteExistingCassetteException

    return _find_in_chain(error, CannotOverwriteExistingCassetteException)


def _unplayed_first(cassette: Any, similar: list[Any]) -> list[Any]:
    """vcrpy's closest recorded requests, those never played first.

    Played ones answered other requests; the one a changed request was
    recorded as is among those left (read as the test ends, when requests
    sent together have all been answered).
    """
    positions = {id(request): index for index, (request, _) in enumerate(cassette.data)}
    counts = cassette.play_counts
    return sorted(similar, key=lambda found: counts[positions.get(id(found[0]), -1)] > 0)


def record_command(nodeid: str, mode: str = "once") -> str:
    """The shell command that records the cassette of ``nodeid`` (``mode``: ``rewrite`` to
    record an existing one again)."""
    return f"OPENAI_API_KEY=<your key> pytest --record-mode={mode} {shlex.quote(nodeid)}"


def explain_cassette_failure(
    error: BaseException,
    nodeid: str,
    *,
    elsewhere: Callable[[str], str] | None = None,
    read_from: str = "",
) -> str | None:
    """A failure message for a cassette miss, or a cassette that cannot be read, anywhere in
    ``error``'s chain, else ``None``.

    ``elsewhere(path)`` says how to make the missing cassette at ``path`` from a recording
    kept somewhere else (``""``: there is none); ``read_from`` is the file the cassette
    was read from (``""``: none was read). A file read that left vcrpy nothing to play
    held no interactions.
    """
    unreadable = _find_in_chain(error, CassetteError)
    if isinstance(unreadable, CassettePathError):
        return f"{unreadable}; then record it with:\n\n    {record_command(nodeid)}\n"
    if unreadable is not None:
        # Its message names the file, the place in it and the fix: the traceback through
        # vcrpy and the plugin would only bury it.
        return f"{unreadable}\n"
    found = _find_vcr_error(error)
    if found is None:
        return None
    cassette = found.cassette
    path = getattr(cassette, "_path", "<cassette>")
    request = found.failed_request
    asked = f"{request.method} {request.path}" if request is not None else "a request"
    if found.reason == "cassette_not_found" and read_from:
        return (
            f"Cassette {read_from} for {nodeid} exists but holds no interactions (replay mode "
            "never calls the provider).\nRecord it again with:\n\n"
            f"    {record_command(nodeid, 'rewrite')}\n"
        )
    if found.reason == "cassette_not_found":
        missing = f"No cassette at {path} for {nodeid} (replay mode never calls the provider).\n"
        moved = elsewhere(str(path)) if elsewhere is not None else ""
        record = f"\n    {record_command(nodeid)}\n"
        if moved:
            return f"{missing}{moved}\nOr record it again with:\n{record}"
        return f"{missing}Record it with:\n{record}"
    lines = [
        f"Wire drift: {asked} made by {nodeid} matches no unplayed interaction of "
        f"{read_from or path}.",
    ]
    for recorded, _succeeded, failed in _unplayed_first(cassette, found.similar_requests)[:3]:
        lines.append("")
        lines.append(f"Closest recorded request: {recorded.method} {recorded.path}")
        for name, message in failed:
            first, *rest = str(message).splitlines() or [""]
            lines.append(f"  {_MATCHER_NAMES.get(name, name)}: {first}")
            lines.extend(f"    {line}" for line in rest)
    if found.reason == "already_played":
        lines.append("")
        lines.append(
            "Every matching interaction was already played: the code now makes more "
            "requests than when the cassette was recorded."
        )
    lines += [
        "",
        "If the change is intended, re-record the cassette:",
        f"    {record_command(nodeid, 'rewrite')}",
    ]
    return "\n".join(lines)
