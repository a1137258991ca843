"""Readable failures for requests a cassette cannot answer.

vcrpy raises ``CannotOverwriteExistingCassetteException`` inside the HTTP
transport; the OpenAI SDK and the adapter wrap it (``APIConnectionError``,
``PromptEvaluationError``), so the reason would be buried three exceptions
deep. These functions find it again and say what to do.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tooltape.testing.cassette import CassetteError
from tooltape.testing.cassette._errors import CassettePathError
from tooltape.testing.error_chain import error_chain
from tooltape.testing.vcr._names import matchers_results
from tooltape.testing.vcr.loaded import SHARED_FROM
from tooltape.testing.vcr.matchers import differing_fields

# tooltape's vcrpy matchers, by what they compare
_MATCHER_NAMES = {"tooltape_body": "body", "tooltape_path": "path", "tooltape_query": "query"}


def _find_in_chain(error: BaseException | None, kind: type[BaseException]) -> Any:
    return next((e for e in error_chain(error) if isinstance(e, kind)), None)


def _find_vcr_error(error: BaseException | None) -> Any:
    from tooltape.testing.vcr._names import CannotOverwriteExistingCassetteException

    return _find_in_chain(error, CannotOverwriteExistingCassetteException)


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
    held no interactions. An interaction of a cassette shared through the ``vcr`` mark is
    named by the file it came from.
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
    own = read_from or str(path)
    shared = _labels(cassette)
    label: Callable[[int], str] = shared or (lambda index: f"#{index}")
    files = own if shared is None else f"{own} or of the shared cassettes of its vcr mark"
    candidates = _candidates(found)
    unplayed = [c for c in candidates if not c.played]
    replayed = [c for c in candidates if c.played and not c.failed]
    if replayed and not unplayed:
        numbers = ", ".join(label(c.index) for c in replayed)
        which = "interaction" if len(replayed) == 1 else "interactions"
        of = f" of {own}" if shared is None else ""
        lines = [
            f"Too many requests: {asked} made by {nodeid} matches only {which} {numbers}{of}, "
            "already played: the code now makes more requests than when the cassette was "
            "recorded."
        ]
    else:
        lines = [
            f"Wire drift: {asked} made by {nodeid} matches no unplayed interaction of {files}."
        ]
        shown = unplayed or [c for c in candidates if c.played]
        for rank, candidate in enumerate(shown[:3]):
            lines += ["", _heading(candidate, rank, label)]
            for name, message in candidate.failed:
                first, *rest = message.splitlines() or [""]
                lines.append(f"  {_MATCHER_NAMES.get(name, name)}: {first}")
                lines.extend(f"    {line}" for line in rest)
        if unplayed and replayed:
            numbers = ", ".join(label(c.index) for c in replayed)
            lines += ["", f"It matches {numbers} exactly, already played."]
    lines += [
        "",
        "If the change is intended, re-record the cassette:",
        f"    {record_command(nodeid, 'rewrite')}",
    ]
    return "\n".join(lines)


def _labels(cassette: Any) -> Callable[[int], str] | None:
    """How to name a cassette position when some interactions came from shared cassettes
    (the ``vcr`` mark's): ``#i of <file>``, numbered within the file it came from;
    ``None`` when every one is the test's own (then ``#i``)."""
    files = [getattr(request, SHARED_FROM, None) for request, _ in cassette.data]
    if not any(files):
        return None
    starts: dict[object, int] = {}
    for index, file in enumerate(files):
        starts.setdefault(file, index)

    def label(index: int) -> str:
        file = files[index]
        number = index - starts[file]
        return f"#{number}" if file is None else f"#{number} of {file}"

    return label


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A recorded interaction compared with the request no interaction answered."""

    index: int
    method: str
    path: str
    played: bool
    failed: tuple[tuple[str, str], ...]
    """``(matcher name, why it rejects)`` of each matcher that rejects the request."""

    @property
    def distance(self) -> tuple[int, int, int]:
        """Fewer rejecting matchers first, then fewer differing fields, then cassette order."""
        fields = sum(differing_fields(message) for _, message in self.failed)
        return (len(self.failed), fields, self.index)


def _candidates(found: Any) -> list[_Candidate]:
    """The recorded interactions that some matcher accepts the request against, closest
    first (as vcrpy's own report, but with their numbers and whether they were played)."""
    cassette = found.cassette
    request = found.failed_request
    if request is None:
        return []
    request = cassette._before_record_request(request)
    if not request:
        return []
    counts = cassette.play_counts
    matchers = cassette._match_on
    candidates: list[_Candidate] = []
    for index, (stored, _) in enumerate(cassette.data):
        accepted, rejected = matchers_results(request, stored, matchers)
        if not accepted:
            continue  # nothing in common: vcrpy leaves these out too
        failed = tuple((name, message or "") for name, message in rejected)
        played = counts.get(index, 0) > 0
        candidates.append(_Candidate(index, stored.method, stored.path, played, failed))
    return sorted(candidates, key=lambda c: c.distance)


def _heading(candidate: _Candidate, rank: int, label: Callable[[int], str]) -> str:
    where = f"{label(candidate.index)} {candidate.method} {candidate.path}"
    if candidate.played:
        return f"Closest interaction, already played: {where}"
    return f"{'Closest' if rank == 0 else 'Next closest'} unplayed interaction: {where}"
