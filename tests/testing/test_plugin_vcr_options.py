"""The vcrpy options a pytest-recording project already sets, with tooltape installed.

``vcr_config``, ``@pytest.mark.vcr(...)``, ``vcr_cassette_dir`` and
``pytest_recording_configure`` reach the same vcrpy recorder tooltape
configures. Each option is either honoured alongside tooltape's format,
scrubbing and matching, or refused with an error naming it: none may let a
secret through, and none may be dropped without a word.

Small projects (``pytester``) record against a real HTTP server on loopback.
Every canary and every reply is synthetic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Vc7" * 12
CANARIES = {
    "HEADER": "hdr-canary-71d0",
    "QUERY": "qry-canary-93ab",
    "REPLY_KEY": "sk-proj-" + "OpTiOnScAnArY042" * 3,
}
USER = "user-7c1e"  # sent in metadata.user: not a secret, but a body field filters can drop

TEST_MODULE = """
import os

import openai
import pytest

C = {{name[7:]: value for name, value in os.environ.items() if name.startswith("CANARY_")}}


@pytest.fixture
def vcr_config():
    return {config}


def client():
    return openai.OpenAI(
        default_headers={{"X-Custom-Auth": C["HEADER"]}},
        default_query={{"token": C["QUERY"]}},
    )


@pytest.mark.vcr{mark}
def test_answer():
    response = client().responses.create(
        model="gpt-5", input=os.environ["PROBE_INPUT"], metadata={{"user": C["USER"]}}
    )
    assert response.id == "resp_1"
"""

REPLY = {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5"}


def _reply() -> LoopbackReply:
    return LoopbackReply.json({**REPLY, "note": "the key is " + CANARIES["REPLY_KEY"]})


def _project(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    config: str = "{}",
    *,
    mark: str = "",
    conftest: str = "",
) -> None:
    pytester.makepyfile(test_options=TEST_MODULE.format(config=config, mark=mark))
    if conftest:
        pytester.makeconftest(conftest)
    pytester.makepyprojecttoml("[tool.tooltape]\n")
    for name, value in {**CANARIES, "USER": USER}.items():
        monkeypatch.setenv(f"CANARY_{name}", value)
    monkeypatch.setenv("PROBE_INPUT", "hi")


def _run(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    replies: int = 1,
) -> tuple[pytest.RunResult, str]:
    """Run the project with a loopback provider and the key; the result and all it printed."""
    with LoopbackProvider([_reply()] * replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-l", "-rA", *args)
    return result, result.stdout.str() + result.stderr.str()


def _replay(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> tuple[pytest.RunResult, str]:
    """Run the project with no key and no server (``OPENAI_BASE_URL`` kept as recorded)."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-l", "-rA")
    return result, result.stdout.str() + result.stderr.str()


def _secrets_in(text: str) -> list[str]:
    return [name for name, value in {**CANARIES, "API_KEY": API_KEY}.items() if value in text]


def _files(root: Path) -> dict[Path, str]:
    """Every file the runs wrote outside the project's sources, by path."""
    # pytester's own: the project's sources, its captured output, its runs' temp folders
    ignored = {"test_options.py", "conftest.py", "pyproject.toml", "stdout", "stderr"}
    return {
        path.relative_to(root): path.read_text(encoding="utf-8", errors="replace")
        for path in root.rglob("*")
        if path.is_file()
        and path.relative_to(root).parts[0] not in ignored
        and not path.relative_to(root).parts[0].startswith("runpytest-")
        and "__pycache__" not in path.parts
    }


def test_the_projects_filters_run_and_what_they_leave_is_scrubbed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = (
        '{"filter_headers": ["x-custom-auth"], "filter_query_parameters": ["token"],'
        ' "filter_post_data_parameters": ["metadata"]}'
    )
    _project(pytester, monkeypatch, config)
    result, output = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(passed=1)
    [(path, text)] = _files(pytester.path).items()
    assert path == Path("cassettes/test_options/test_answer.json")
    assert _secrets_in(output + text) == []
    request = json.loads(text)["interactions"][0]["request"]
    # What the project's filters removed is gone, not merely redacted.
    assert "x-custom-auth" not in request["headers"]
    assert request["headers"]["authorization"] == ["REDACTED"]
    assert "token" not in request["uri"]
    assert request["body"]["json"] == {"model": "gpt-5", "input": "hi"}

    replay, _ = _replay(pytester, monkeypatch)
    replay.assert_outcomes(passed=1)


CUSTOM_PERSISTER = """
from vcr.persisters.filesystem import FilesystemPersister


class PlainPersister(FilesystemPersister):
    pass


def pytest_recording_configure(config, vcr):
    vcr.register_persister(PlainPersister)
"""


CUSTOM_SERIALIZER = """
def pytest_recording_configure(config, vcr):
    vcr.serializer = "json"
"""


@pytest.mark.parametrize(
    ("config", "mark", "conftest", "named"),
    [
        ('{"serializer": "yaml"}', "", "", "serializer='yaml' (vcr_config)"),
        ("{}", '(serializer="json")', "", "serializer='json' (the vcr mark)"),
        (
            '{"persister": __import__("vcr").persisters.filesystem.FilesystemPersister}',
            "",
            "",
            "persister=FilesystemPersister (vcr_config)",
        ),
        (
            "{}",
            "",
            CUSTOM_PERSISTER,
            "pytest_recording_configure registered the persister conftest.PlainPersister",
        ),
        (
            '{"path_transformer": __import__("vcr").VCR.ensure_suffix(".yaml")}',
            "",
            "",
            "path_transformer (vcr_config) names the cassette 'test_answer.yaml'",
        ),
        ("{}", "", CUSTOM_SERIALIZER, "pytest_recording_configure set vcr.serializer = 'json'"),
        ('{"decode_compressed_response": False}', "", "", "decode_compressed_response=False"),
    ],
    ids=[
        "serializer",
        "serializer-mark",
        "persister",
        "registered-persister",
        "path",
        "set-serializer",
        "decode",
    ],
)
def test_an_option_that_would_bypass_tooltapes_format_is_refused_by_name(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    config: str,
    mark: str,
    conftest: str,
    named: str,
) -> None:
    _project(pytester, monkeypatch, config, mark=mark, conftest=conftest)
    result, output = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(errors=1)
    assert f"tooltape: {named}" in output
    assert "remove" in output
    assert _files(pytester.path) == {}  # nothing written, in any format
    assert _secrets_in(output) == []


PLAIN_TEST = """
@pytest.mark.vcr
def test_{name}():
    response = openai.OpenAI().responses.create(model="gpt-5", input=os.environ["PROBE_INPUT"])
    assert response.id == "resp_1"
"""


@pytest.mark.parametrize(
    ("config", "mark", "refused"),
    [('{"serializer": "yaml"}', "", 2), ("{}", '(serializer="yaml")', 1)],
    ids=["vcr_config", "mark"],
)
def test_a_refused_option_fails_only_the_tests_it_is_given_to(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    config: str,
    mark: str,
    refused: int,
) -> None:
    _project(pytester, monkeypatch, config, mark=mark)
    # A plain test after it in its module (vcr_config is the module's: it gets the option
    # too; a mark is its test's), and one in another module.
    module = TEST_MODULE.format(config=config, mark=mark) + PLAIN_TEST.format(name="after")
    other = "import os\n\nimport openai\nimport pytest\n" + PLAIN_TEST.format(name="other")
    pytester.makepyfile(test_options=module, test_other=other)
    result, output = _run(pytester, monkeypatch, "--record-mode=once", replies=3)
    assert output.count("tooltape: serializer='yaml'") >= refused
    assert "AssertionError" not in output
    result.assert_outcomes(errors=refused, passed=3 - refused)


def test_a_path_transformer_that_keeps_the_json_suffix_is_honoured(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = '{"path_transformer": lambda path: path + ".recorded.json"}'
    _project(pytester, monkeypatch, config)
    result, _ = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(passed=1)
    assert list(_files(pytester.path)) == [Path("cassettes/test_options/test_answer.recorded.json")]
    _replay(pytester, monkeypatch)[0].assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("config", "mark"),
    [
        ('{"match_on": ["method", "scheme", "host", "port", "path", "query", "body"]}', ""),
        ("{}", '(match_on=("method", "path", "raw_body"))'),
    ],
    ids=["vcr_config", "mark"],
)
def test_a_projects_match_on_keeps_tooltapes_body_comparison_and_its_diff(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, config: str, mark: str
) -> None:
    _project(pytester, monkeypatch, config, mark=mark)
    _run(pytester, monkeypatch, "--record-mode=once")[0].assert_outcomes(passed=1)
    _replay(pytester, monkeypatch)[0].assert_outcomes(passed=1)

    typed_key = "sk-proj-" + "TyPeDmAtChOn0042" * 3
    monkeypatch.setenv("PROBE_INPUT", "hello " + typed_key)
    replay, output = _replay(pytester, monkeypatch)
    replay.assert_outcomes(failed=1)
    assert "Wire drift: POST /v1/responses" in output
    assert '~ input: "hi" -> "hello sk-' in output  # tooltape's field diff, the key redacted
    assert typed_key not in output
    assert _secrets_in(output) == []


def test_a_projects_match_on_without_the_body_is_honoured(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch, mark='(match_on=["method", "path"])')
    _run(pytester, monkeypatch, "--record-mode=once")[0].assert_outcomes(passed=1)
    monkeypatch.setenv("PROBE_INPUT", "a different question")
    _replay(pytester, monkeypatch)[0].assert_outcomes(passed=1)


def _inputs(pytester: pytest.Pytester) -> list[str]:
    path = pytester.path / "cassettes" / "test_options" / "test_answer.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    return [
        interaction["request"]["body"]["json"]["input"] for interaction in document["interactions"]
    ]


@pytest.mark.parametrize(
    ("config", "mark"),
    [('{"record_mode": "rewrite"}', ""), ("{}", '(record_mode="rewrite")')],
    ids=["vcr_config", "mark"],
)
def test_rewrite_asked_by_vcr_config_or_a_mark_starts_the_cassette_again(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, config: str, mark: str
) -> None:
    _project(pytester, monkeypatch)
    _run(pytester, monkeypatch, "--record-mode=once")[0].assert_outcomes(passed=1)
    assert _inputs(pytester) == ["hi"]

    _project(pytester, monkeypatch, config, mark=mark)
    monkeypatch.setenv("PROBE_INPUT", "hello")
    _run(pytester, monkeypatch)[0].assert_outcomes(passed=1)  # no --record-mode
    assert _inputs(pytester) == ["hello"]  # not ["hi", "hello"]


def test_a_record_mode_pinned_in_vcr_config_is_named_when_a_cassette_is_missing(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch, '{"record_mode": "none"}')
    result, output = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(failed=1)
    assert "No cassette at" in output
    # pytest-recording lets vcr_config win: the usual command would not record.
    assert "record_mode='none' comes from vcr_config" in output
    assert _files(pytester.path) == {}


def test_a_pinned_record_mode_that_records_is_not_blamed_for_a_missing_key(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch, '{"record_mode": "once"}')
    result, output = _replay(pytester, monkeypatch)  # no cassette, no key: once would record
    result.assert_outcomes(failed=1)
    assert "needs OPENAI_API_KEY" in output and "--record-mode" in output
    assert "comes from vcr_config" not in output


FEWER_REQUESTS = """
import os

import openai
import pytest


@pytest.fixture
def vcr_config():
    return {config}


@pytest.mark.vcr
def test_answer():
    for _ in range(int(os.environ["PROBE_CALLS"])):
        assert openai.OpenAI().responses.create(model="gpt-5", input="hi").id == "resp_1"
"""


def test_a_stale_cassette_under_a_pinned_record_mode_says_where_it_was_pinned(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch)
    pytester.makepyfile(test_options=FEWER_REQUESTS.format(config="{}"))
    monkeypatch.setenv("PROBE_CALLS", "2")
    _run(pytester, monkeypatch, "--record-mode=once", replies=2)[0].assert_outcomes(passed=1)

    pytester.makepyfile(test_options=FEWER_REQUESTS.format(config='{"record_mode": "none"}'))
    monkeypatch.setenv("PROBE_CALLS", "1")
    replay, output = _replay(pytester, monkeypatch)
    replay.assert_outcomes(failed=1)
    assert "Stale cassette" in output and "--record-mode=rewrite" in output
    assert "record_mode='none' comes from vcr_config" in output


CASSETTE_FOLDER = """
import os

import pytest


@pytest.fixture(scope="module")
def vcr_cassette_dir(request):
    return os.path.join(str(request.config.rootpath), "recorded", request.module.__name__)


@pytest.fixture
def default_cassette_name(request):
    return "named-" + request.node.name
"""


def test_a_projects_vcr_cassette_dir_and_cassette_name_are_where_the_cassette_goes(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch, conftest=CASSETTE_FOLDER)
    result, output = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(passed=1)
    [(path, text)] = _files(pytester.path).items()
    assert path == Path("recorded/test_options/named-test_answer.json")
    assert json.loads(text)["tooltape"]["source"] == "loopback"
    assert _secrets_in(output + text) == []
    _replay(pytester, monkeypatch)[0].assert_outcomes(passed=1)


def test_a_cassette_name_kept_from_pytest_recording_is_read_as_the_imported_json(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``tooltape import`` writes forecast.yaml as forecast.json: the plugin reads that file.
    _project(pytester, monkeypatch, mark='(record_mode="once")')
    pytester.makeconftest(
        "import pytest\n\n@pytest.fixture\ndef default_cassette_name():\n"
        '    return "forecast.yaml"\n'
    )
    result, _ = _run(pytester, monkeypatch)
    result.assert_outcomes(passed=1)
    assert list(_files(pytester.path)) == [Path("cassettes/test_options/forecast.json")]
    _replay(pytester, monkeypatch)[0].assert_outcomes(passed=1)


SAME_AS_PYTEST_RECORDING = """
import os

import pytest


@pytest.fixture(scope="module")
def vcr_cassette_dir(request):  # word for word what pytest-recording does without it
    module = request.node.fspath
    return os.path.join(module.dirname, "cassettes", module.purebasename)
"""


def test_a_projects_vcr_cassette_dir_giving_pytest_recordings_folder_is_still_its_own(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch, conftest=SAME_AS_PYTEST_RECORDING)
    (pytester.path / "tests").mkdir()
    (pytester.path / "test_options.py").rename(pytester.path / "tests" / "test_options.py")
    result, _ = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(passed=1)
    # where the fixture says, not <cassette_dir>/tests/test_options/
    assert list(_files(pytester.path / "tests")) == [
        Path("cassettes/test_options/test_answer.json")
    ]
    assert not (pytester.path / "cassettes").exists()
    _replay(pytester, monkeypatch)[0].assert_outcomes(passed=1)


SAVE_HOOK = """
def add_a_key(request, response):
    headers = {**response["headers"], "x-added-at-save": ["sk-proj-" + "SaVeHoOk0042" * 3]}
    return request, {**response, "headers": headers}
"""


def test_a_key_a_save_hook_adds_after_the_scrubbing_is_refused_not_written(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(
        pytester,
        monkeypatch,
        '{"before_save_interaction": __import__("conftest").add_a_key}',
        conftest=SAVE_HOOK,
    )
    result, output = _run(pytester, monkeypatch, "--record-mode=once")
    result.assert_outcomes(passed=1, errors=1)
    assert "not written, it would hold 1 secret(s)" in output
    assert "/interactions/0/response/headers/x-added-at-save/0" in output
    assert "SaVeHoOk0042" not in output
    assert _files(pytester.path) == {}
