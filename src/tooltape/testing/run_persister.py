"""Where the running test's cassette is read from and written to.

Replay reads any cassette format; recording writes tooltape JSON, scrubbed,
atomically, and only for a test that passed. A refused save is reported when
the test is torn down.
"""

from __future__ import annotations

import os.path
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pytest

from tooltape.testing.cassette import (
    CassetteError,
    CassetteSecretError,
    CassetteWriteError,
    dump_cassette,
    find_secrets,
    live_policy,
    load_cassette,
    refuse_encoded_bodies,
    scrub_cassette,
    scrub_text,
    write_atomic,
)
from tooltape.testing.cassette._errors import REPAIR_HINT, StructureError
from tooltape.testing.cassette._paths import refuse_irregular_file
from tooltape.testing.cassette._scrub import scrub_uri
from tooltape.testing.cassette_run import CassetteRun
from tooltape.testing.settings import ScrubSettings
from tooltape.testing.vcr import TooltapeSerializer
from tooltape.testing.vcr._names import CassetteNotFoundError
from tooltape.testing.vcr.cut_responses import cut_message, cut_responses
from tooltape.testing.vcr.loaded import SHARED_FROM, vcr_interactions
from tooltape.testing.vcr.persistence import recorded_source
from tooltape.testing.vcr.send_order import in_send_order

__all__ = ["RunPersister", "cut_note", "raise_save_error", "unsaved_note"]


class RunPersister:
    """Reads any cassette format; writes tooltape JSON only for passing tests.

    Saving never raises inside vcrpy (that would leave its HTTP patches in
    place): a refused cassette is kept as ``save_error`` and reported when the
    test is torn down (``raise_save_error``).
    """

    def __init__(
        self,
        state: CassetteRun,
        extra_paths: Sequence[str],
        scrub: ScrubSettings | None = None,
        known: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.state = state
        self.extra_paths = tuple(extra_paths)
        self.scrub = scrub
        self.known = known
        """The credentials the recording hooks redact (``live_secrets`` when they were made)."""

    def load_cassette(self, cassette_path: str, serializer: object) -> tuple[list[Any], list[Any]]:
        del serializer
        if self.state.record_mode == "rewrite":
            refuse_irregular_file(cassette_path)  # before any request: it could not be written
            raise CassetteNotFoundError(cassette_path)
        requests: list[Any] = []
        responses: list[Any] = []
        for index, path in enumerate((cassette_path, *self.extra_paths)):
            # os.path: a pathlib.Path costs more than the check itself, for every test
            if not os.path.isfile(path):
                # A folder, a pipe, a device or a dangling symlink fails the test before it
                # sends anything: replay finds nothing there, and no recording fits there.
                refuse_irregular_file(path)
                if index != 0:
                    continue
                yaml_path = os.path.splitext(path)[0] + ".yaml"
                if not os.path.isfile(yaml_path):
                    refuse_irregular_file(yaml_path)  # the fallback is refused the same way
                    continue
                path = yaml_path
            # NaN and Infinity are refused as it loads; a number past a double, when
            # the body holding it is played (a walk of every value costs a sixth of a load).
            cassette = load_cassette(path, check_numbers=False)
            more_requests, more_responses = vcr_interactions(cassette, path)
            if index == 0:
                self.state.source = cassette.header.source
                self.state.read_from = path
                self.state.loaded = len(more_requests)
            else:
                for request in more_requests:  # vcrpy's copies of them keep the mark
                    setattr(request, SHARED_FROM, path)
            requests.extend(more_requests)
            responses.extend(more_responses)
        if not requests:
            raise CassetteNotFoundError(cassette_path)
        self.state.shared = len(requests) - self.state.loaded
        return requests, responses

    def save_cassette(
        self, cassette_path: str, cassette_dict: Mapping[str, Any], serializer: object
    ) -> None:
        del serializer
        state = self.state
        if state.failed:
            return  # the failure says so (unsaved_note)
        pairs = zip(
            cast("Sequence[Any]", cassette_dict["requests"]),
            cast("Sequence[Any]", cassette_dict["responses"]),
            strict=True,
        )
        # vcrpy writes every interaction it holds: not those of a shared cassette
        kept = [(r, response) for r, response in pairs if getattr(r, SHARED_FROM, None) is None]
        requests = [request for request, _ in kept]
        source = recorded_source([r.uri for r in requests])
        loopback = source == "loopback"
        provenance = state.provenance
        if provenance is None:
            where = "a loopback server" if loopback else "the live API"
            provenance = f"recorded by {state.nodeid} against {where}"
        policy = live_policy(self.scrub, state.secrets)
        shown_path = scrub_text(cassette_path, policy)
        if shown_path != cassette_path:
            state.save_error = CassetteError(
                shown_path,
                "not written: its name holds a credential (from the test's name or a "
                "parameter's id)",
                hint="give the parameter an id that names no secret "
                '(`pytest.param(value, id="...")` or `ids=[...]` of parametrize), then record',
            )
            return
        # The recording hooks scrubbed with the credentials known when the cassette
        # opened; ones the test's own fixtures set meanwhile are scrubbed here.
        late = any(secret not in self.known for secret in state.secrets)
        serializer_ = TooltapeSerializer(source, scrub_text(provenance, policy), policy)
        interactions = [
            {"request": request._to_dict(), "response": response}  # pyright: ignore[reportPrivateUsage]
            for request, response in kept
        ]
        interactions = in_send_order(requests, interactions)
        try:
            try:
                cassette = serializer_.to_cassette({"interactions": interactions})
            except StructureError as error:  # a body no cassette may hold (NaN in JSON)
                raise CassetteError(
                    cassette_path,
                    f"not written: {error.where}: {error.problem}",
                    hint=error.hint or REPAIR_HINT,
                ) from None
            if late:
                cassette = scrub_cassette(cassette, policy)
            findings = find_secrets(cassette, policy)
            if findings:
                raise CassetteSecretError(cassette_path, findings)
            refuse_encoded_bodies(cassette, cassette_path)
            write_atomic(cassette_path, dump_cassette(cassette))
        except Exception as exc:
            state.save_error = exc.with_traceback(None)  # its frames hold the interactions


def unsaved_note(cassette: Any) -> str | None:
    """What the report of a failing test says of the interactions it recorded: they are
    not written (``None`` when it recorded none)."""
    if cassette is None or getattr(cassette, "write_protected", True):
        return None
    if not getattr(cassette, "dirty", False):
        return None
    return (
        f"{cassette._path} not written: a test that fails writes no cassette; record it "
        "again once it passes"
    )


def cut_note(
    cassette: Any, scrub: ScrubSettings | None, secrets: tuple[tuple[str, str], ...]
) -> str | None:
    """Why the test failed, or will, when the provider cut off a response it recorded: a
    cut cannot be recorded, so the cassette is not written (``None``: nothing was cut)."""
    cuts = cut_responses(cassette)
    if not cuts:
        return None
    policy = live_policy(scrub, secrets)
    path = scrub_text(str(cassette._path), policy)
    return cut_message(cuts, path, lambda uri: scrub_uri(uri, policy))


def raise_save_error(state: CassetteRun) -> None:
    """Fail the test whose cassette was refused when saved; nothing when it was saved."""
    if state.save_error is None:
        return
    error, state.save_error = state.save_error, None
    if isinstance(error, (CassetteError, CassetteWriteError)):
        # The message names the file, the place and the rule; a traceback would only
        # add frames whose locals (`pytest -l`) hold what was refused.
        pytest.fail(f"tooltape: {error}", pytrace=False)
    raise error
