"""A project's own recording hooks (``vcr_config``) and tooltape's scrubbing.

pytest-recording passes a project's ``vcr_config`` fixture to vcrpy as the
cassette's options, where a hook replaces the recorder's: the project's hooks
must run and tooltape's scrubbing must still apply to what they return.

A small project (``pytester``) records against a real HTTP server on
loopback. Every canary and every reply is synthetic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Hk7" * 12
CANARIES = {
    "HEADER": "hdr-canary-8e1a",
    "QUERY": "qry-canary-2c7b",
    "REPLY_KEY": "sk-proj-" + "RePlYcAnArY0042" * 3,
    "REPLY_HEADER": "reply-canary-40d6",
}

HOOKS = """
import json
from pathlib import Path

LOG = Path(__file__).with_name("hooks.log")


def request_unchanged(request):
    with LOG.open("a") as log:
        log.write("request " + request.path + "\\n")
    return request


def response_unchanged(response):
    with LOG.open("a") as log:
        log.write("response\\n")
    return response


def request_marked(request):
    request = request_unchanged(request)
    request.headers["X-Trace-Id"] = "trace-set-by-hook"
    return request


def response_marked(response):
    response = response_unchanged(response)
    body = json.loads(response["body"]["string"])
    response["body"]["string"] = json.dumps({**body, "filtered_by": "project hook"}).encode()
    return response


def request_without_models(request):
    return None if request.path.endswith("/models") else request_unchanged(request)


def response_without_dropped(response):
    names = {name.lower() for name in response["headers"]}
    return None if "x-drop-me" in names else response_unchanged(response)
"""

TEST_MODULE = """
import os

import openai
import pytest

from hooks import *  # noqa: F403

C = {{name[7:]: value for name, value in os.environ.items() if name.startswith("CANARY_")}}


@pytest.fixture(scope="module")
def vcr_config():
    return {config}


def client():
    return openai.OpenAI(
        default_headers={{"X-Custom-Auth": C["HEADER"], "X-Trace-Id": "trace-sent-77"}},
        default_query={{"token": C["QUERY"]}},
    )


@pytest.mark.vcr
def test_answer():
    assert client().responses.create(model="gpt-5", input=os.environ["PROBE_INPUT"]).id
"""

REPLY = {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5"}


def _reply(**headers: str) -> LoopbackReply:
    note = "the key is " + CANARIES["REPLY_KEY"]
    return LoopbackReply.json(
        {**REPLY, "note": note},
        headers={"x-upstream-auth": CANARIES["REPLY_HEADER"], **headers},
    )


def _project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, config: str) -> None:
    pytester.makepyfile(hooks=HOOKS, test_hooks=TEST_MODULE.format(config=config))
    pytester.makepyprojecttoml('[tool.tooltape.scrub]\nsafe_headers = ["x-trace-id"]\n')
    for name, value in CANARIES.items():
        monkeypatch.setenv(f"CANARY_{name}", value)
    monkeypatch.setenv("PROBE_INPUT", "hi")


def _record(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, replies: list[LoopbackReply]
) -> pytest.RunResult:
    with LoopbackProvider(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        result = pytester.runpytest_subprocess(
            "--record-mode=once", "-p", "no:cacheprovider", "-l", "-rA", "-vv"
        )
    assert server.requests, "the project never reached the server"
    return result


def _secrets_in(text: str) -> list[str]:
    return [name for name, value in {**CANARIES, "API_KEY": API_KEY}.items() if value in text]


def _cassettes(root: Path) -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in root.rglob("cassettes/**/*.json")}


@pytest.mark.parametrize(
    ("config", "ran"),
    [
        ('{"before_record_request": request_unchanged}', {"request"}),
        ('{"before_record_response": response_unchanged}', {"response"}),
        (
            '{"before_record_request": request_unchanged, '
            '"before_record_response": response_unchanged}',
            {"request", "response"},
        ),
        (
            '{"before_record_request": [request_marked], '
            '"before_record_response": response_marked, "filter_headers": ["x-custom-auth"]}',
            {"request", "response"},
        ),
    ],
    ids=["request", "response", "both", "both-mutating"],
)
def test_the_projects_hooks_run_and_the_cassette_is_still_scrubbed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, config: str, ran: set[str]
) -> None:
    _project(pytester, monkeypatch, config)
    result = _record(pytester, monkeypatch, [_reply()])
    output = result.stdout.str() + result.stderr.str()
    result.assert_outcomes(passed=1)
    assert _secrets_in(output) == []
    [(path, text)] = _cassettes(pytester.path).items()
    assert path.name == "test_answer.json"
    assert _secrets_in(text) == []
    calls = (pytester.path / "hooks.log").read_text().split()
    assert {call for call in calls if call in ("request", "response")} == ran
    interaction = json.loads(text)["interactions"][0]
    headers = interaction["request"]["headers"]
    note = interaction["response"]["body"]["json"]["note"]
    assert note.startswith("the key is sk-") and note.endswith("REDACTED")
    if "marked" in config:  # the project's changes are what was recorded, scrubbed
        assert headers["x-trace-id"] == ["trace-set-by-hook"]
        assert interaction["response"]["body"]["json"]["filtered_by"] == "project hook"
    else:
        assert headers["x-trace-id"] == ["trace-sent-77"]

    # The recording replays, through the project's hooks, with the server gone.
    (pytester.path / "hooks.log").unlink()
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(passed=1)
    assert set((pytester.path / "hooks.log").read_text().split()) & {"request", "response"} == ran


DROPPING_TEST = """

@pytest.mark.vcr
def test_dropped():
    models = client().models.list()
    assert models.data == []
    assert client().responses.create(model="gpt-5", input="drop me").id
"""


def test_a_projects_hook_that_returns_none_still_drops_the_interaction(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = (
        '{"before_record_request": request_without_models, '
        '"before_record_response": response_without_dropped}'
    )
    _project(pytester, monkeypatch, config)
    (pytester.path / "test_hooks.py").write_text(
        TEST_MODULE.format(config=config) + DROPPING_TEST, encoding="utf-8"
    )
    replies = [
        _reply(),  # test_answer: kept
        LoopbackReply.json({"object": "list", "data": []}),  # GET /v1/models: dropped
        _reply(**{"x-drop-me": "1"}),  # dropped by the response hook
    ]
    result = _record(pytester, monkeypatch, replies)
    result.assert_outcomes(passed=2)
    cassettes = {path.stem: json.loads(text) for path, text in _cassettes(pytester.path).items()}
    assert len(cassettes["test_answer"]["interactions"]) == 1
    assert "test_dropped" not in cassettes  # nothing left to write


def test_a_replay_miss_through_a_projects_hook_shows_the_key_redacted(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(pytester, monkeypatch, "{}")
    _record(pytester, monkeypatch, [_reply()]).assert_outcomes(passed=1)
    config = '{"before_record_request": request_unchanged}'
    pytester.makepyfile(test_hooks=TEST_MODULE.format(config=config))

    typed_key = "sk-proj-" + "TyPeDcAnArY0042" * 3
    monkeypatch.setenv("PROBE_INPUT", "hi " + typed_key)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-l", "-rA", "-vv")
    replay.assert_outcomes(failed=1)
    output = replay.stdout.str() + replay.stderr.str()
    assert "Wire drift: POST /v1/responses" in output
    assert '~ input: "hi" -> "hi sk-' in output  # the changed field, its key redacted
    assert typed_key not in output
    assert _secrets_in(output) == []
    assert (pytester.path / "hooks.log").read_text().startswith("request /v1/responses")
