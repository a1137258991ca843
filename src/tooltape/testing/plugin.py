"""tooltape's pytest plugin, on top of pytest-recording and vcrpy.

- ``pytest --record-mode=once`` with ``OPENAI_API_KEY`` set records one
  cassette per test under ``<rootdir>/cassettes/<test module path>/``
  (``cassette_dir`` in ``[tool.tooltape]``); plain ``pytest`` replays with no
  key and no network. Tests that use ``openai_client`` / ``openai_adapter``
  are marked ``vcr`` automatically; mark others ``@pytest.mark.vcr``.
- While a test replays an existing cassette and ``OPENAI_API_KEY`` is unset,
  a placeholder (not key-shaped) is in the environment for that test only, so
  code that builds its own clients (``openai.OpenAI()``, ``AsyncOpenAI()``,
  openai-agents, pydantic-ai) replays unchanged.
- Cassettes are tooltape JSON (readable, diff-friendly), scrubbed of secrets
  before they are written, written atomically, and only when the test passed.
- Requests match on method, API path and a semantic JSON body comparison;
  a mismatch shows a field-level diff. Imported cassettes (recorded by another
  client) match on method and path only. Interactions left unplayed fail the
  test unless ``@pytest.mark.tooltape(allow_unplayed=True)``.
- Fixtures: ``openai_client``, ``openai_adapter``, ``wire_snapshot``,
  ``provider_faults``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import ssl
from collections.abc import Generator, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, cast

import httpx2
import openai
import pytest

from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.cassette import (
    CassetteError,
    CassetteSecretError,
    CassetteSource,
    CassetteWriteError,
    ScrubPolicy,
    dump_cassette,
    find_secrets,
    load_cassette,
    scrub_policy,
    write_atomic,
)
from tooltape.testing.provider.faults import provider_faults
from tooltape.testing.settings import DEFAULT_MODEL, ProjectSettings, SettingsError, load_settings
from tooltape.testing.snapshots import wire_snapshot
from tooltape.testing.vcr import TooltapeSerializer
from tooltape.testing.vcr._names import CassetteNotFoundError
from tooltape.testing.vcr.loaded import vcr_interactions
from tooltape.testing.vcr.matchers import BodyMatcher, make_body_matcher
from tooltape.testing.vcr.misses import explain_cassette_failure, record_command
from tooltape.testing.vcr.persistence import recorded_source
from tooltape.testing.vcr.recorder import configure_vcr

__all__ = ["provider_faults", "wire_snapshot"]

REPLAY_API_KEY = "tooltape-replay-placeholder"
"""The API key a replaying client uses: not key-shaped, never sent anywhere."""
KEY_VARIABLE = "OPENAI_API_KEY"
TRACING_VARIABLE = "OPENAI_AGENTS_DISABLE_TRACING"

_STATE = pytest.StashKey["_TestState"]()
_SETTINGS = pytest.StashKey[ProjectSettings]()


@dataclass
class _TestState:
    """What the plugin knows about the running test (one per test, per process)."""

    nodeid: str
    module: PurePosixPath
    """The test module's path from rootdir without ``.py``: its cassettes' folder."""
    record_mode: str
    cassette_path: Path | None = None
    source: CassetteSource | None = None
    failed: bool = False
    save_error: BaseException | None = None
    provenance: str | None = None
    volatile: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=lambda: list[str]())


def pytest_addoption(parser: pytest.Parser) -> None:
    # Mirrors of [tool.tooltape] (see tooltape.testing.settings); empty means "not set here".
    parser.addini(
        "tooltape_cassette_dir",
        "Folder (relative to rootdir) of the cassettes; mirrors cassette_dir in [tool.tooltape] "
        "(default: cassettes).",
        default="",
    )
    parser.addini(
        "tooltape_model",
        f"Model the openai_adapter fixture uses; mirrors model in [tool.tooltape] "
        f"(default: {DEFAULT_MODEL}).",
        default="",
    )
    parser.addini(
        "tooltape_volatile",
        "Request body fields ignored when matching (one pattern per line, e.g. metadata.run_id); "
        "mirrors volatile in [tool.tooltape].",
        type="linelist",
        default=[],
    )


def _load_settings(config: pytest.Config) -> ProjectSettings:
    try:
        settings = load_settings(Path(str(config.rootpath)))
    except SettingsError as exc:
        raise pytest.UsageError(f"tooltape: {exc}") from exc
    # `-o tooltape_...=` on the command line wins over the files.
    folder = str(config.getini("tooltape_cassette_dir")).strip()
    model = str(config.getini("tooltape_model")).strip()
    volatile = tuple(cast("list[str]", config.getini("tooltape_volatile")))
    return dataclasses.replace(
        settings,
        cassette_dir=Path(folder) if folder else settings.cassette_dir,
        model=model or settings.model,
        volatile=tuple(dict.fromkeys((*settings.volatile, *volatile))),
    )


def project_settings(config: pytest.Config) -> ProjectSettings:
    """The project's settings as the plugin uses them (read once per session)."""
    settings = config.stash.get(_SETTINGS, None)
    if settings is None:
        settings = config.stash[_SETTINGS] = _load_settings(config)
    return settings


def pytest_configure(config: pytest.Config) -> None:
    project_settings(config)
    config.addinivalue_line(
        "markers",
        "tooltape(volatile=(), allow_unplayed=False, provenance=None): per-test cassette "
        "options: extra volatile request fields, whether unplayed interactions are allowed, "
        "and a provenance note written into new cassettes.",
    )


def _marker_kwargs(item: pytest.Item) -> Mapping[str, Any]:
    marker = item.get_closest_marker("tooltape")
    return marker.kwargs if marker is not None else {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = cast("Sequence[str]", getattr(item, "fixturenames", ()))
        uses_provider = "openai_client" in fixtures or "openai_adapter" in fixtures
        if uses_provider and item.get_closest_marker("vcr") is None:
            item.add_marker(pytest.mark.vcr)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    options = _marker_kwargs(item)
    volatile = options.get("volatile", ())
    item.stash[_STATE] = _TestState(
        nodeid=item.nodeid,
        module=cassette_folder_of(item.nodeid),
        record_mode=item.config.getoption("--record-mode") or "none",
        provenance=options.get("provenance"),
        volatile=(volatile,) if isinstance(volatile, str) else tuple(volatile),
    )
    item.config.stash[_STATE] = item.stash[_STATE]
    return (yield)


def cassette_folder_of(nodeid: str) -> PurePosixPath:
    """The folder (under the cassette folder) of the cassettes of the test ``nodeid``.

    It is the test module's path from rootdir without ``.py``
    (``tests/a/test_api.py::test_x`` -> ``tests/a/test_api``), so two modules
    with one file name in different folders never share a cassette.
    """
    module = PurePosixPath(nodeid.split("::", 1)[0])
    parts = [part for part in module.with_suffix("").parts if part not in ("", ".", "..", "/")]
    return PurePosixPath(*parts) if parts else PurePosixPath(module.stem or "tests")


class _PluginPersister:
    """Reads any cassette format; writes tooltape JSON only for passing tests.

    Saving never raises inside vcrpy (that would leave its HTTP patches in
    place): a refused cassette is kept as ``save_error`` and reported when the
    test is torn down.
    """

    def __init__(self, state: _TestState, extra_paths: Sequence[str], policy: ScrubPolicy) -> None:
        self.state = state
        self.extra_paths = tuple(extra_paths)
        self.policy = policy

    def load_cassette(self, cassette_path: str, serializer: object) -> tuple[list[Any], list[Any]]:
        del serializer
        if self.state.record_mode == "rewrite":
            raise CassetteNotFoundError(cassette_path)
        requests: list[Any] = []
        responses: list[Any] = []
        for index, raw_path in enumerate((cassette_path, *self.extra_paths)):
            path = Path(raw_path)
            if not path.is_file() and index == 0 and path.with_suffix(".yaml").is_file():
                path = path.with_suffix(".yaml")
            if not path.is_file():
                continue
            cassette = load_cassette(path)
            if index == 0:
                self.state.source = cassette.header.source
            more_requests, more_responses = vcr_interactions(cassette)
            requests.extend(more_requests)
            responses.extend(more_responses)
        if not requests:
            raise CassetteNotFoundError(cassette_path)
        return requests, responses

    def save_cassette(
        self, cassette_path: str, cassette_dict: Mapping[str, Any], serializer: object
    ) -> None:
        del serializer
        state = self.state
        if state.failed:
            state.notes.append(f"not saved (the test failed): {cassette_path}")
            return
        requests = cast("Sequence[Any]", cassette_dict["requests"])
        responses = cast("Sequence[Any]", cassette_dict["responses"])
        source = recorded_source([r.uri for r in requests])
        loopback = source == "loopback"
        provenance = state.provenance
        if provenance is None:
            where = "a loopback server" if loopback else "the live API"
            provenance = f"recorded by {state.nodeid} against {where}"
        serializer_ = TooltapeSerializer(source, provenance, self.policy)
        interactions = [
            {"request": request._to_dict(), "response": response}  # pyright: ignore[reportPrivateUsage]
            for request, response in zip(requests, responses, strict=True)
        ]
        try:
            cassette = serializer_.to_cassette({"interactions": interactions})
            findings = find_secrets(cassette, self.policy)
            if findings:
                raise CassetteSecretError(cassette_path, findings)
            write_atomic(cassette_path, dump_cassette(cassette))
        except Exception as exc:
            state.save_error = exc.with_traceback(None)  # its frames hold the interactions


def pytest_recording_configure(config: pytest.Config, vcr: Any) -> None:
    """Point pytest-recording's VCR at tooltape's folder, format, matchers and scrubbers."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    settings = project_settings(config)
    root = Path(str(config.rootpath)) / settings.cassette_dir
    recorder: Any = vcr
    extra_paths = tuple(getattr(recorder.persister, "extra_paths", ()))
    recorder.cassette_library_dir = str(root.joinpath(*state.module.parts))
    recorder.path_transformer = recorder.ensure_suffix(".json")
    volatile = (*settings.volatile, *state.volatile)
    configure_vcr(
        recorder,
        persister=_PluginPersister(state, extra_paths, scrub_policy(settings.scrub)),
        body_matcher=_BodyUnlessImported(state, make_body_matcher(volatile, name="tooltape_body")),
        scrub=settings.scrub,
    )


class _BodyUnlessImported:
    """The body matcher, except for imported cassettes.

    Another client made the requests of an imported cassette: its body says
    nothing about this code's wire, so only method and path count.
    """

    __name__ = "tooltape_body"  # vcrpy labels failures with it
    __qualname__ = "tooltape_body"

    def __init__(self, state: _TestState, matcher: BodyMatcher) -> None:
        self.state = state
        self.matcher = matcher

    def __call__(self, current: Any, recorded: Any) -> None:
        if self.state.source != "import":
            self.matcher(current, recorded)

    def request_key(self, request: Any) -> Hashable:
        return None if self.state.source == "import" else self.matcher.request_key(request)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    state = item.stash.get(_STATE, None)
    if state is None:
        return report
    if report.when in ("setup", "call") and report.failed:
        state.failed = True
        if call.excinfo is not None:
            message = explain_cassette_failure(call.excinfo.value, state.nodeid)
            if message is None:
                message = _explain_missing_key(item, call.excinfo.value)
            if message is not None:
                report.longrepr = message
    return report


def _explain_missing_key(item: pytest.Item, error: BaseException) -> str | None:
    """The fix for a client that refused to start while recording without a key."""
    if os.environ.get(KEY_VARIABLE):
        return None
    cassette = cast("Mapping[str, Any]", getattr(item, "funcargs", {})).get("vcr")
    if cassette is None or getattr(cassette, "write_protected", True):
        return None  # not recording: a placeholder was there
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if KEY_VARIABLE in str(cause):
            mode = getattr(getattr(cassette, "record_mode", None), "value", "once")
            return (
                f"Recording ({mode!r} mode) needs {KEY_VARIABLE}, and the client this test "
                f"builds found none ({type(cause).__name__}). Set it to a real key (or, with "
                "OPENAI_BASE_URL pointing at a local server, to any value):\n\n"
                f"    {record_command(item.nodeid)}\n"
            )
        cause = cause.__cause__ or cause.__context__
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    result = yield
    state = item.stash.get(_STATE, None)
    if state is not None and state.save_error is not None:
        error, state.save_error = state.save_error, None
        if isinstance(error, (CassetteError, CassetteWriteError)):
            # The message names the file, the place and the rule; a traceback would only
            # add frames whose locals (`pytest -l`) hold what was refused.
            pytest.fail(f"tooltape: {error}", pytrace=False)
        raise error
    return result


@pytest.fixture(autouse=True)
def _tooltape_replay_key(vcr: Any) -> Iterator[None]:
    """A placeholder ``OPENAI_API_KEY`` while a test replays and no key is set.

    Clients the test builds itself (``openai.OpenAI()``, openai-agents,
    pydantic-ai) refuse to start without a key, even though replay never
    sends one anywhere. Recording gets no placeholder: it needs the real key.
    """
    if vcr is None or not getattr(vcr, "write_protected", False) or os.environ.get(KEY_VARIABLE):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(KEY_VARIABLE, REPLAY_API_KEY)
        # openai-agents would export traces with the placeholder: nothing to
        # export without a real key, and replay must not touch the network.
        if TRACING_VARIABLE not in os.environ:
            patch.setenv(TRACING_VARIABLE, "1")
        yield


def _stale_message(item: pytest.Item, cassette: Any) -> str | None:
    """Why a passing test's replayed cassette is stale, or ``None`` when it is not."""
    state = item.stash.get(_STATE, None)
    if cassette is None or state is None:
        return None
    if not getattr(cassette, "rewound", False) or not getattr(cassette, "write_protected", False):
        return None
    if _marker_kwargs(item).get("allow_unplayed", False):
        return None
    counts = cast("Mapping[int, int]", cassette.play_counts)
    unplayed = [i for i in range(len(cassette)) if counts.get(i, 0) == 0]
    if not unplayed:
        return None
    described = ", ".join(
        f"#{i} {cassette.requests[i].method} {cassette.requests[i].path}" for i in unplayed
    )
    rerecord = record_command(state.nodeid).replace("--record-mode=once", "--record-mode=rewrite")
    return (
        f"Stale cassette {cassette._path}: recorded interaction(s) {described} were never "
        "played. The code now makes fewer requests than when it was recorded: re-record "
        f"with `{rerecord}`, or mark the test @pytest.mark.tooltape(allow_unplayed=True)."
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A test that passed but left recorded interactions unplayed fails, as stale."""
    result = yield  # a test that raised stops here: its own failure says more
    funcargs = cast("Mapping[str, Any]", getattr(item, "funcargs", {}))
    message = _stale_message(item, funcargs.get("vcr"))
    if message is not None:
        pytest.fail(message, pytrace=False)
    return result


@pytest.fixture
def openai_client(vcr: Any) -> openai.OpenAI:
    """An OpenAI client: the real key when recording, a placeholder when replaying.

    ``OPENAI_BASE_URL`` is honoured (the SDK reads it), so recording can target
    any server, a loopback one included.
    """
    key = os.environ.get(KEY_VARIABLE)
    replaying = vcr is not None and bool(getattr(vcr, "write_protected", False))
    if not replaying and not key:
        mode = getattr(getattr(vcr, "record_mode", None), "value", None)
        doing = f"Recording ({mode!r} mode)" if mode else "Calling the API with recording disabled"
        pytest.fail(
            f"{doing} needs OPENAI_API_KEY: set it to a real key "
            "(or, with OPENAI_BASE_URL pointing at a local server, to any value).",
            pytrace=False,
        )
    return _openai_client(REPLAY_API_KEY if replaying or not key else key)


@functools.cache
def _ssl_context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    """httpx2's default verifying SSL context, built once per ``SSL_CERT_*`` setting.

    The arguments are only the cache key: httpx2 reads the same variables itself.
    """
    del cert_file, cert_dir
    return httpx2.create_ssl_context()


def _openai_client(api_key: str) -> openai.OpenAI:
    """What ``openai.OpenAI(api_key=api_key)`` builds, minus a new SSL context per test.

    The SDK's default HTTP client loads the CA bundle into a fresh SSL context
    every time (~35 ms); here the clients share one, built the same way. The
    HTTP client has the SDK's own defaults (``openai.DefaultHttpxClient``).
    """
    context = _ssl_context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
    return openai.OpenAI(api_key=api_key, http_client=openai.DefaultHttpxClient(verify=context))


@pytest.fixture
def openai_adapter(request: pytest.FixtureRequest, openai_client: openai.OpenAI) -> OpenAIAdapter:
    """An ``OpenAIAdapter`` on ``openai_client``; the model is ``model`` in ``[tool.tooltape]``
    (default ``gpt-4o-mini``)."""
    return OpenAIAdapter(project_settings(request.config).model, client=openai_client)
