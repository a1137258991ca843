"""Plug the tooltape format into vcrpy: a serializer and persisters that refuse secrets.

::

    my_vcr = vcr.VCR()
    my_vcr.register_serializer("tooltape", TooltapeSerializer())
    my_vcr.register_persister(TooltapePersister)
    with my_vcr.use_cassette("cassettes/test_x.json", serializer="tooltape"): ...

:func:`tooltape.testing.vcr.configure_vcr` does all of this (and the scrub
hooks and matchers) in one call.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from tooltape.testing.cassette._encoded import refuse_encoded_bodies
from tooltape.testing.cassette._errors import (
    CassetteError,
    CassetteSecretError,
    CassetteWriteError,
)
from tooltape.testing.cassette._format import (
    dump_cassette,
    parse_cassette,
    tooltape_version,
    write_atomic,
)
from tooltape.testing.cassette._model import Cassette, CassetteHeader, CassetteSource
from tooltape.testing.cassette._paths import refuse_irregular_file
from tooltape.testing.cassette._policy import DEFAULT_POLICY, ScrubPolicy
from tooltape.testing.cassette._scan import find_secrets
from tooltape.testing.cassette._vcrpy_format import (
    SCANNED,
    cassette_from_vcr,
    cassette_to_vcr,
    raw_body_bytes,
)
from tooltape.testing.vcr._names import (
    CassetteNotFoundError,
    VcrRequest,
    make_request,
    serialize_with,
)
from tooltape.testing.vcr.send_order import in_send_order

__all__ = [
    "CombinedTooltapePersister",
    "TooltapePersister",
    "TooltapeSerializer",
    "serializer",
    "use_cassette_safely",
]

VcrResponse = dict[str, Any]
"""vcrpy's response dict: ``{"status": {...}, "headers": {...}, "body": {"string": b}}``."""


@dataclass(frozen=True, slots=True)
class TooltapeSerializer:
    """A vcrpy serializer writing tooltape JSON and reading tooltape JSON or vcrpy YAML.

    ``source`` and ``provenance`` go into the header of every cassette it writes
    (no ``source``: ``loopback`` when every request went to this machine, else
    ``live``); ``scrub`` is the policy the persisters check a cassette against
    before writing it. Register it with
    ``vcr.VCR().register_serializer("tooltape", TooltapeSerializer())``.
    """

    source: CassetteSource | None = None
    provenance: str | None = None
    scrub: ScrubPolicy = DEFAULT_POLICY

    def header(self, uris: Sequence[str] = ()) -> CassetteHeader:
        """The header written into a new cassette of requests to ``uris``."""
        source = self.source if self.source is not None else recorded_source(uris)
        return CassetteHeader(tooltape_version(), source, self.provenance)

    def to_cassette(self, cassette_dict: Mapping[str, Any]) -> Cassette:
        """A cassette from vcrpy's serialised data (``{"interactions": [...]}``)."""
        pairs = cast("Sequence[Mapping[str, Any]]", cassette_dict.get("interactions") or ())
        uris = [str(pair["request"]["uri"]) for pair in pairs]
        return cassette_from_vcr(cassette_dict, self.header(uris))

    def serialize(self, cassette_dict: dict[str, Any]) -> str:
        """vcrpy's serialised data as tooltape JSON text."""
        return dump_cassette(self.to_cassette(cassette_dict))

    def deserialize(self, cassette_string: str) -> dict[str, Any]:
        """Cassette text of either format as vcrpy's serialised data."""
        return cassette_to_vcr(parse_cassette(cassette_string))


serializer = TooltapeSerializer()
"""A ready serializer (the source is told from the requests' hosts)."""

_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def recorded_source(uris: Sequence[str]) -> CassetteSource:
    """``loopback`` when every request went to this machine, else ``live``."""
    loopback = bool(uris) and all((urlsplit(uri).hostname or "") in _LOOPBACK_HOSTS for uri in uris)
    return "loopback" if loopback else "live"


def _request_dict(request: VcrRequest) -> dict[str, object]:
    """vcrpy's request dict, headers as lists (what ``Request._to_dict`` gives)."""
    return {
        "method": request.method,
        "uri": request.uri,
        "body": raw_body_bytes(request.body, "/request/body"),
        "headers": {name: [value] for name, value in request.headers.items()},
    }


def _unmarked(response: VcrResponse) -> VcrResponse:
    """The response without tooltape's in-memory mark (never written to a file)."""
    if SCANNED not in response:
        return response
    return {key: value for key, value in response.items() if key != SCANNED}


def _interactions(cassette_dict: Mapping[str, Any]) -> dict[str, Any]:
    """vcrpy's in-memory ``{"requests", "responses"}`` as its serialised data shape."""
    requests = cast(Sequence[VcrRequest], cassette_dict["requests"])
    responses = cast(Sequence[VcrResponse], cassette_dict["responses"])
    interactions = [
        {"request": _request_dict(request), "response": _unmarked(response)}
        for request, response in zip(requests, responses, strict=True)
    ]
    data: dict[str, Any] = {"interactions": in_send_order(requests, interactions)}
    if cassette_dict.get("metadata"):
        data["metadata"] = cassette_dict["metadata"]
    return data


def _request_from_pair(value: Mapping[str, Any]) -> VcrRequest:
    headers = cast(Mapping[str, list[str]], value["headers"])
    return make_request(
        cast(str, value["method"]),
        cast(str, value["uri"]),
        cast(bytes, value["body"]),
        {name: values[0] for name, values in headers.items() if values},
    )


def _read_vcr(path: Path) -> tuple[list[VcrRequest], list[VcrResponse], dict[str, Any]]:
    """The interactions of one cassette file, either format; missing or empty: not found.

    A folder, a named pipe, a device or a dangling symlink at ``path`` is refused
    (``CassettePathError``): nothing could be read from it, nor a recording written over it.
    """
    if not path.is_file():
        refuse_irregular_file(path)
        raise CassetteNotFoundError(f"no cassette at {path}")
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    if not text.strip():
        raise CassetteNotFoundError(f"cassette {path} is empty")
    data = cassette_to_vcr(parse_cassette(text, path=path))
    pairs = cast(list[dict[str, Any]], data["interactions"])
    requests = [_request_from_pair(pair["request"]) for pair in pairs]
    responses = [cast(VcrResponse, pair["response"]) for pair in pairs]
    return requests, responses, cast(dict[str, Any], data.get("metadata") or {})


def _save(cassette_path: str | Path, cassette_dict: Mapping[str, Any], serializer: object) -> None:
    path = Path(cassette_path)
    chosen = serializer if isinstance(serializer, TooltapeSerializer) else TooltapeSerializer()
    cassette = chosen.to_cassette(_interactions(cassette_dict))
    findings = find_secrets(cassette, chosen.scrub)
    if findings:
        raise CassetteSecretError(path, findings)
    refuse_encoded_bodies(cassette, path)
    if isinstance(serializer, TooltapeSerializer):
        text = dump_cassette(cassette)
    else:
        text = serialize_with(cassette_dict, serializer)
    write_atomic(path, text)


class TooltapePersister:
    """A vcrpy persister: refuses cassettes holding secrets and writes atomically.

    Reading detects the format (tooltape JSON, vcrpy YAML or JSON) from the
    content, whatever serializer is registered; writing uses that serializer.
    A missing or empty file raises vcrpy's ``CassetteNotFoundError`` (so vcrpy
    records it); a file that exists but cannot be read raises ``CassetteError``.
    Register with ``vcr.VCR().register_persister(TooltapePersister)``.
    """

    @classmethod
    def load_cassette(
        cls, cassette_path: str | Path, serializer: object
    ) -> (
        tuple[list[VcrRequest], list[VcrResponse]]
        | tuple[list[VcrRequest], list[VcrResponse], dict[str, Any]]
    ):
        """``(requests, responses[, metadata])`` as vcrpy's own deserialiser returns them."""
        del serializer  # the format is detected from the content
        requests, responses, metadata = _read_vcr(Path(cassette_path))
        if metadata:
            return requests, responses, metadata
        return requests, responses

    @staticmethod
    def save_cassette(
        cassette_path: str | Path, cassette_dict: dict[str, Any], serializer: object
    ) -> None:
        """Scan for secrets (raising ``CassetteSecretError``) and for bodies still encoded
        (``CassetteEncodedError``), then write atomically."""
        _save(cassette_path, cassette_dict, serializer)


@dataclass(frozen=True, slots=True)
class CombinedTooltapePersister:
    """:class:`TooltapePersister` that also reads extra cassettes (pytest-recording's
    ``@pytest.mark.vcr("shared.yaml")``); only the main cassette is ever written.
    """

    extra_paths: tuple[str, ...] = ()

    def load_cassette(
        self, cassette_path: str | Path, serializer: object
    ) -> tuple[list[VcrRequest], list[VcrResponse]]:
        """The interactions of the main cassette followed by those of each extra one."""
        del serializer
        requests: list[VcrRequest] = []
        responses: list[VcrResponse] = []
        seen: set[Path] = set()
        for path in (Path(cassette_path), *(Path(extra) for extra in self.extra_paths)):
            if path in seen:
                continue
            seen.add(path)
            try:
                more_requests, more_responses, _ = _read_vcr(path)
            except CassetteNotFoundError:
                continue
            requests.extend(more_requests)
            responses.extend(more_responses)
        if not requests:
            raise CassetteNotFoundError(f"no cassette at {cassette_path}")
        return requests, responses

    def save_cassette(
        self, cassette_path: str | Path, cassette_dict: dict[str, Any], serializer: object
    ) -> None:
        """Scan for secrets (raising ``CassetteSecretError``) and for bodies still encoded
        (``CassetteEncodedError``), then write atomically."""
        _save(cassette_path, cassette_dict, serializer)


@contextmanager
def use_cassette_safely(
    recorder: Any, path: str | Path, **options: Any
) -> Generator[Any, None, None]:
    """``recorder.use_cassette(path, **options)`` that always unpatches the HTTP clients.

    vcrpy saves the cassette before it removes its patches, so a save that
    raises (a :class:`CassetteSecretError` from :class:`TooltapePersister`)
    would leave every later request in the process going to the dead cassette.
    This context manager finishes vcrpy's own clean-up first, then re-raises;
    a refused or failed write comes without the traceback through vcrpy, whose
    frames hold the unwritten interactions (``pytest -l`` would show them).
    """
    context: Any = recorder.use_cassette(str(path), **options)
    cassette = context.__enter__()
    try:
        yield cassette
    except BaseException as error:
        if not _exit(context, error):
            raise
    else:
        _exit(context, None)


def _exit(context: Any, error: BaseException | None) -> bool:
    """Leave vcrpy's cassette context (whether it suppressed ``error``); a save that
    fails still unpatches, and its error is raised without vcrpy's frames."""
    try:
        if error is None:
            return bool(context.__exit__(None, None, None))
        return bool(context.__exit__(type(error), error, error.__traceback__))
    except (CassetteError, CassetteWriteError) as failure:
        _finish(context)
        raise failure.with_traceback(None) from None
    except BaseException:
        _finish(context)
        raise


def _finish(context: object) -> None:
    """Run the unpatching vcrpy skipped because saving raised."""
    finish = getattr(context, "_CassetteContextDecorator__finish", None)
    close = getattr(finish, "close", None)
    if callable(close):
        close()
