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
  Hooks a project names in ``vcr_config`` (``before_record_request``,
  ``before_record_response``) run first; the scrubbing runs on what they return.
- A project's other pytest-recording options (``vcr_config``, ``vcr`` marks,
  ``pytest_recording_configure``) are honoured or refused by name, never
  dropped: vcrpy's filters run before the scrubbing; ``match_on`` keeps its
  matchers with ``body`` / ``raw_body`` / ``path`` read as tooltape's;
  ``record_mode`` there wins over ``--record-mode`` as pytest-recording has it
  (``rewrite`` included); a ``vcr_cassette_dir`` fixture or
  ``default_cassette_name`` of the project's own places the cassette;
  ``serializer``, ``persister`` (option or ``register_persister``), a
  ``path_transformer`` not ending in ``.json`` and
  ``decode_compressed_response=False`` are refused
  (``tooltape.testing.cassette_options``, ``tooltape.testing.vcr.options``).
- Requests match on method, API path, query and a semantic JSON body
  comparison; a mismatch shows a field-level diff. Imported cassettes
  (recorded by another client) match on method and path only. Interactions left unplayed fail the
  test unless ``@pytest.mark.tooltape(allow_unplayed=True)``.
- Fixtures: ``openai_client``, ``openai_adapter``, ``wire_snapshot``,
  ``provider_faults``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Generator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import openai
import pytest

from tooltape.testing.cassette import live_secrets, redaction
from tooltape.testing.cassette_options import (
    VcrOptionError,
    asks_for_body,
    default_recording_dir,
    own_cassette_dir,
    project_options,
    projects_own_folder,
    refuse_recorder_bypasses,
)
from tooltape.testing.cassette_run import (
    CASSETTE_RUN,
    CassetteRun,
    UnlessImported,
    cassette_folder_of,
    command_nodeid,
    json_cassette_path,
    marker_options,
    marker_volatile,
)
from tooltape.testing.early_clients import explain_import_without_key
from tooltape.testing.failure_explained import explained
from tooltape.testing.recorded_elsewhere import (
    kept_from_rewrite,
    rewritten_by_pytest_recording,
)
from tooltape.testing.replay_key import (
    REPLAY_API_KEY,
    client_api_key,
    replay_environment,
)
from tooltape.testing.report_scrub import parameter_id, scrub_report
from tooltape.testing.run_persister import (
    RunPersister,
    cut_note,
    raise_save_error,
    unsaved_note,
)
from tooltape.testing.sdk_client import sdk_client
from tooltape.testing.settings import (
    DEFAULT_MODEL,
    ProjectSettings,
    SettingsError,
    load_settings,
    volatile_paths,
)
from tooltape.testing.snapshots import wire_snapshot
from tooltape.testing.stale_cassettes import stale_message
from tooltape.testing.vcr.matchers import make_body_matcher, query_matcher
from tooltape.testing.vcr.recorder import configure_vcr
from tooltape.testing.vcr.telemetry import UnrecordedTelemetry
from tooltape.testing.websocket_refusal import websockets_refused

if TYPE_CHECKING:
    from tooltape.adapters.openai import OpenAIAdapter
    from tooltape.testing.provider.faults import ProviderFaults

__all__ = ["REPLAY_API_KEY", "cassette_folder_of", "provider_faults", "wire_snapshot"]

_SETTINGS = pytest.StashKey[ProjectSettings]()


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
    # `-o tooltape_...=` on the command line wins over the files.
    folder = str(config.getini("tooltape_cassette_dir")).strip()
    model = str(config.getini("tooltape_model")).strip()
    volatile = cast("list[str]", config.getini("tooltape_volatile"))
    try:
        settings = load_settings(Path(str(config.rootpath)))
        volatile = volatile_paths(volatile, "the pytest options", "tooltape_volatile")
    except SettingsError as exc:
        raise pytest.UsageError(f"tooltape: {exc}") from exc
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


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """A parameter value holding a credential is redacted in the test's id."""
    del argname
    return parameter_id(val, redaction(project_settings(config).scrub, live_secrets(os.environ)))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = cast("Sequence[str]", getattr(item, "fixturenames", ()))
        uses_provider = "openai_client" in fixtures or "openai_adapter" in fixtures
        if uses_provider and item.get_closest_marker("vcr") is None:
            item.add_marker(pytest.mark.vcr)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    options = marker_options(item)
    volatile, refusal = marker_volatile(item)
    item.stash[CASSETTE_RUN] = CassetteRun(
        nodeid=item.nodeid,
        command_nodeid=command_nodeid(item),
        module=cassette_folder_of(item.nodeid),
        record_mode=item.config.getoption("--record-mode") or "none",
        provenance=options.get("provenance") if refusal is None else None,
        volatile=volatile,
        pytest_recording_dir=default_recording_dir(item),
        own_cassette_dir=own_cassette_dir(item),
    )
    item.config.stash[CASSETTE_RUN] = item.stash[CASSETTE_RUN]
    result = yield
    if refusal is not None:  # once the setup other plugins do is done, as they expect
        pytest.fail(refusal, pytrace=False)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
) -> Generator[None, object, object]:
    """Before pytest-recording opens a test's cassette: its record mode as pytest-recording
    will use it, and options that would write the cassette another way refused."""
    if fixturedef.argname != "vcr":
        return (yield)
    refusal = _take_project_options(request)
    if refusal is None:
        with _kept_from_rewrite(request):
            return (yield)
    # Raised once the fixture is set up (and so torn down as usual): an error raised before
    # pytest ran the fixture would leave its bookkeeping half done for every later test.
    with contextlib.suppress(Exception):  # a setup the option broke: the refusal says why
        yield
    raise refusal


def _kept_from_rewrite(request: pytest.FixtureRequest) -> contextlib.AbstractContextManager[None]:
    """pytest-recording's own .yaml of the test, put back if its ``rewrite`` deletes it."""
    state = request.node.stash.get(CASSETTE_RUN, None)
    if state is None or state.record_mode != "rewrite":
        return contextlib.nullcontext()
    folder = str(request.getfixturevalue("vcr_cassette_dir"))
    name = str(request.getfixturevalue("default_cassette_name"))
    return kept_from_rewrite(rewritten_by_pytest_recording(folder, name))


def _take_project_options(request: pytest.FixtureRequest) -> VcrOptionError | None:
    """Take the test's record mode; the refusal of an option, if one is refused."""
    item = request.node
    state = item.stash.get(CASSETTE_RUN, None)
    markers = list(item.iter_markers("vcr"))
    config = request.config
    if state is None or not markers or config.getoption("--disable-recording", default=False):
        return None  # pytest-recording opens no cassette
    options = project_options(request.getfixturevalue("vcr_config"), markers)
    state.compares_bodies = options.compares_bodies()
    state.record_mode, state.record_mode_from = options.record_mode(
        config.getoption("--record-mode", default=None)
    )
    try:
        options.refuse_bypasses(lambda: str(request.getfixturevalue("default_cassette_name")))
    except VcrOptionError as refusal:
        return refusal
    return None


@pytest.hookimpl(trylast=True)  # after the project's own, to see what they changed
def pytest_recording_configure(config: pytest.Config, vcr: Any) -> None:
    """Point pytest-recording's VCR at tooltape's folder, format, matchers and scrubbers."""
    state = config.stash.get(CASSETTE_RUN, None)
    if state is None:
        return
    settings = project_settings(config)
    root = Path(str(config.rootpath)) / settings.cassette_dir
    recorder: Any = vcr
    refuse_recorder_bypasses(recorder)
    if state.compares_bodies is None:  # the test gives no match_on: the recorder's holds
        state.compares_bodies = asks_for_body(recorder.match_on)
    extra_paths = tuple(getattr(recorder.persister, "extra_paths", ()))
    if not projects_own_folder(recorder.cassette_library_dir, state):
        recorder.cassette_library_dir = str(root.joinpath(*state.module.parts))
    recorder.path_transformer = json_cassette_path
    volatile = (*settings.volatile, *state.volatile)
    configure_vcr(
        recorder,
        persister=RunPersister(state, extra_paths, settings.scrub, live_secrets(os.environ)),
        body_matcher=UnlessImported(
            state, make_body_matcher(volatile, name="tooltape_body"), unless_asked=True
        ),
        query_matcher=UnlessImported(state, query_matcher, unless_asked=False),
        scrub=settings.scrub,
        unrecorded=UnrecordedTelemetry(lambda: state.recording),
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    state = item.stash.get(CASSETTE_RUN, None)
    if state is None:
        return report
    if report.when in ("setup", "call") and report.failed:
        state.failed = True
        if call.excinfo is not None:
            cassette_dir = project_settings(item.config).cassette_dir
            message = explained(item, state, call.excinfo.value, cassette_dir)
            report.longrepr = message or report.longrepr
        cassette = cast("Mapping[str, Any]", getattr(item, "funcargs", {})).get("vcr")
        scrub = project_settings(item.config).scrub
        unsaved = cut_note(cassette, scrub, state.secrets) or unsaved_note(cassette)
        failure = None if call.excinfo is None else getattr(call.excinfo.value, "msg", None)
        if unsaved is not None and unsaved != failure:  # not the failure itself
            report.sections.append(("tooltape", unsaved))
    if (
        report.longrepr is not None
        or report.sections
        or report.user_properties
        or hasattr(report, "wasxfail")
    ):
        secrets = live_secrets(os.environ, also=state.secrets)
        scrub_report(report, redaction(project_settings(item.config).scrub, secrets))
    return report


def pytest_exception_interact(
    node: pytest.Item | pytest.Collector,
    call: pytest.CallInfo[Any],
    report: pytest.CollectReport | pytest.TestReport,
) -> None:
    """A test module that did not import because a client built at import time found no
    key says so, and how to fix it, in place of the SDK's traceback."""
    if not isinstance(node, pytest.Collector) or call.excinfo is None:
        return
    root = Path(str(node.config.rootpath))
    message = explain_import_without_key(node.nodeid, call.excinfo.value, root)
    if message is not None:
        report.longrepr = message


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """An interrupted test (Ctrl-C, ``pytest.exit``) saves nothing: pytest tears it down at the
    session's end, which would save what it recorded so far (over a whole cassette, in rewrite)."""
    try:
        return (yield)
    except BaseException:
        state = item.stash.get(CASSETTE_RUN, None)
        if state is not None:
            state.failed = True
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    result = yield
    state = item.stash.get(CASSETTE_RUN, None)
    if state is not None:
        raise_save_error(state)
    return result


@pytest.fixture(autouse=True)
def _tooltape_replay_key(vcr: Any) -> Iterator[None]:
    """A placeholder ``OPENAI_API_KEY`` while a test replays and no key is set.

    Clients the test builds itself (``openai.OpenAI()``, openai-agents,
    pydantic-ai) refuse to start without a key, even though replay never
    sends one anywhere. Recording gets no placeholder: it needs the real key.
    While a cassette is open, websockets (which no cassette holds) are refused.
    """
    refused = websockets_refused() if vcr is not None else contextlib.nullcontext()
    with replay_environment(vcr), refused:
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A test that passed but left recorded interactions unplayed fails, as stale; one
    that recorded while the provider cut off a response fails, as nothing was recorded
    of that response.

    The credentials in the environment while the test runs (its fixtures' too)
    are kept for scrubbing its cassette and its report.
    """
    state = item.stash.get(CASSETTE_RUN, None)
    if state is not None:
        state.secrets = live_secrets(os.environ)
    try:
        result = yield  # a test that raised stops here: its own failure says more
    finally:
        if state is not None:  # and what the test itself set
            state.secrets = live_secrets(os.environ, also=state.secrets)
    funcargs = cast("Mapping[str, Any]", getattr(item, "funcargs", {}))
    if state is not None:  # what it recorded is not what it saw: nothing is saved
        cut = cut_note(funcargs.get("vcr"), project_settings(item.config).scrub, state.secrets)
        if cut is not None:
            pytest.fail(cut, pytrace=False)
    message = stale_message(item, funcargs.get("vcr"))
    if message is not None:
        pytest.fail(message, pytrace=False)
    return result


@pytest.fixture
def openai_client(vcr: Any) -> openai.OpenAI:
    """An OpenAI client: the real key when recording, a placeholder when replaying.

    ``OPENAI_BASE_URL`` is honoured (the SDK reads it), so recording can target
    any server, a loopback one included.
    """
    return sdk_client(client_api_key(vcr))


# The adapter (its codecs and the SDK types they read) and the fault script
# (respx) are imported by the tests that use them, not at every session start.


@pytest.fixture
def openai_adapter(request: pytest.FixtureRequest, openai_client: openai.OpenAI) -> OpenAIAdapter:
    """An ``OpenAIAdapter`` on ``openai_client``; the model is ``model`` in ``[tool.tooltape]``
    (default ``gpt-4o-mini``)."""
    from tooltape.adapters.openai import OpenAIAdapter

    return OpenAIAdapter(project_settings(request.config).model, client=openai_client)


@pytest.fixture
def provider_faults(request: pytest.FixtureRequest) -> Iterator[ProviderFaults]:
    """A fresh ``ProviderFaults``; unused scripted replies fail a passing test
    (set ``provider_faults.assert_all_played = False`` to allow them)."""
    from tooltape.testing.provider.faults import faults_for_test

    yield from faults_for_test(request)
