"""Recording with secrets on the wire: none reaches a cassette, none reaches the terminal.

A small project (``pytester``) records against a real HTTP server on loopback
with canaries wherever a user's credentials can travel: custom request and
response headers, URL userinfo, query strings, an MCP tool in the body, a
key behind a JSON escape, a key split across stream deltas, a key inside
base64. Every canary is synthetic.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

API_KEY = "sk-proj-" + "Wd4" * 12
CANARIES = {
    "HEADER": "hdr-canary-3b9d",
    "QUERY": "qry-canary-51ce",
    "USERINFO": "pw-canary-a07f",
    "MCP_QUERY": "mcpq-canary-6e2a",
    "MCP_HEADER": "mcph-canary-c4d8",
    "REPLY_HEADER": "reply-canary-19f3",
    "ESCAPED": "xoxb-" + "1122334455-6677889900-EsCaPeDcAnArY",
    "BASE64": "glpat-" + "B64canaryB64canary0042",
    "SPLIT": "sk_live_" + "SpLiTcAnArY0123456789abc",
    "ARGUMENTS": "hf_" + "ArGuMeNtScAnArY0123456789abcdef",
}

TEST_MODULE = """
import base64
import os

import openai
import pytest

C = {name[7:]: value for name, value in os.environ.items() if name.startswith("CANARY_")}
MCP = {
    "type": "mcp",
    "server_label": "tickets",
    "server_url": "https://mcp.example.test/mcp?token=" + C["MCP_QUERY"],
    "headers": {"X-Tenant": C["MCP_HEADER"]},
    "require_approval": "never",
}


def client():
    return openai.OpenAI(
        default_headers={
            "Ocp-Apim-Subscription-Key": C["HEADER"],
            "X-Custom-Auth": C["HEADER"],
            "apikey": C["HEADER"],
            "X-Api-Secret": C["HEADER"],
            "X-Trace-Id": "trace-kept-77",
        },
        default_query={"custom_q": C["QUERY"]},
    )


@pytest.mark.vcr
def test_answer():
    notes = base64.b64encode(("token: " + C["BASE64"]).encode()).decode()
    notes = "data:text/plain;base64," + notes
    response = client().responses.create(
        model="gpt-5",
        input=[{"role": "user", "content": [
            {"type": "input_text", "text": "first line\\n" + C["ESCAPED"]},
            {"type": "input_file", "filename": "n.txt", "file_data": notes},
        ]}],
        tools=[MCP],
    )
    assert response.output[0].arguments


@pytest.mark.vcr
def test_stream():
    stream = client().responses.create(model="gpt-5", input="Say the key.", stream=True)
    text = "".join(e.delta for e in stream if e.type == "response.output_text.delta")
    assert text.startswith("The key is ")
"""


def _delta(text: str, number: int) -> str:
    data = {
        "type": "response.output_text.delta",
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": text,
        "sequence_number": number,
    }
    return f"event: {data['type']}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _replies() -> list[LoopbackReply]:
    """Synthetic answers in the Responses API's shape."""
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "save",
        "arguments": json.dumps({"note": "line\n" + CANARIES["ARGUMENTS"]}),
        "status": "completed",
    }
    answer = {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5"}
    split = CANARIES["SPLIT"]
    pieces = ["The key is ", split[:6], split[6:17], split[17:], "."]
    completed = {
        "type": "response.completed",
        "sequence_number": len(pieces),
        "response": {**answer, "output": []},
    }
    stream = "".join(_delta(piece, i) for i, piece in enumerate(pieces))
    stream += f"event: response.completed\ndata: {json.dumps(completed)}\n\n"
    return [
        LoopbackReply.json(
            {**answer, "output": [call]}, headers={"x-upstream-auth": CANARIES["REPLY_HEADER"]}
        ),
        LoopbackReply.sse(stream, headers={"x-upstream-auth": CANARIES["REPLY_HEADER"]}),
    ]


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(test_canaries=TEST_MODULE)
    pytester.makepyprojecttoml('[tool.tooltape.scrub]\nsafe_headers = ["x-trace-id"]\n')
    for name, value in CANARIES.items():
        monkeypatch.setenv(f"CANARY_{name}", value)
    return pytester


def _record(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, replies: Any) -> Any:
    with LoopbackProvider(replies) as server:
        base = server.base_url.replace("http://", f"http://user:{CANARIES['USERINFO']}@")
        monkeypatch.setenv("OPENAI_BASE_URL", base)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        result = project.runpytest_subprocess(
            "--record-mode=once", "-p", "no:cacheprovider", "-l", "-rA", "-vv"
        )
    return result, server


def _written(root: Path) -> dict[Path, str]:
    return {
        path: path.read_text(encoding="utf-8", errors="replace")
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_no_canary_reaches_a_written_file_or_the_output(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, server = _record(project, monkeypatch, _replies())
    result.assert_outcomes(passed=2)
    received = server.requests[0]
    sent = {name.lower(): value for name, value in received.headers.items()}
    assert sent["x-custom-auth"] == CANARIES["HEADER"]  # really on the wire
    assert CANARIES["QUERY"] in received.path
    assert CANARIES["ESCAPED"] in received.body.decode()

    output = result.stdout.str() + result.stderr.str()
    files = _written(project.path)
    cassettes = [path for path in files if path.suffix == ".json"]
    assert len(cassettes) == 2
    for name, canary in CANARIES.items():
        assert canary not in output, name
        for path, text in files.items():
            assert canary not in text, (name, path)
    assert API_KEY not in output and all(API_KEY not in text for text in files.values())
    recorded = "".join(files[path] for path in cassettes)
    assert '"trace-kept-77"' in recorded  # the project's safe header keeps its value
    [streamed] = [path for path in cassettes if path.stem == "test_stream"]
    events = json.loads(files[streamed])["interactions"][0]["response"]["body"]["sse"]
    deltas = [event["data"]["delta"] for event in events if "delta" in event["data"]]
    assert deltas == ["The key is ", "REDACTED", "", "", "."]  # each piece of the key redacted

    # The scrubbed recordings replay, with the server gone.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    replay = project.runpytest_subprocess("-p", "no:cacheprovider")
    replay.assert_outcomes(passed=2)


GATE_MODULE = """
import openai
import pytest


@pytest.mark.vcr
def test_keyed():
    assert openai.OpenAI().responses.create(model="gpt-5", input="hi").id
"""


def test_a_key_in_a_json_key_or_a_header_name_is_renamed_and_the_cassette_written(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hostile server can echo a key anywhere, names included; the write gate
    (what a save hook adds after scrubbing is refused) has its own test."""
    key_as_key = "sk-proj-" + "KeYaSaKeYcAnArY000042" * 2
    pytester.makepyfile(test_gate=GATE_MODULE)
    reply = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "metadata": {key_as_key: "1", "kept": "2"},
    }
    headers = {f"x-seen.{key_as_key}": "1"}  # a key's shape starts after no name character
    result, _ = _record(pytester, monkeypatch, [LoopbackReply.json(reply, headers=headers)])
    result.assert_outcomes(passed=1)
    output = result.stdout.str() + result.stderr.str()
    [cassette] = pytester.path.rglob("test_keyed.json")
    text = cassette.read_text(encoding="utf-8")
    assert "keyasakey" not in output.lower() and "keyasakey" not in text.lower()
    response = json.loads(text)["interactions"][0]["response"]
    assert response["body"]["json"]["metadata"] == {"sk-REDACTED": "1", "kept": "2"}
    assert response["headers"]["x-seen.sk-redacted"] == ["REDACTED"]  # not a safe header


def test_a_cassette_that_cannot_be_written_names_the_file(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_gate=GATE_MODULE)
    (pytester.path / "cassettes").write_text("a file where the cassette folder should be")
    reply = {"id": "resp_1", "object": "response", "status": "completed"}
    result, _ = _record(pytester, monkeypatch, [LoopbackReply.json(reply)])
    result.assert_outcomes(passed=1, errors=1)
    output = result.stdout.str()
    assert "tooltape: could not write " in output
    assert "test_keyed.json" in output
    assert "free disk space or fix the folder's permissions" in output


LIVE_KEY = "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e"  # a compatible provider's 32-hex key: no known shape
OTHER_KEY = "0c4e8a2f6b1d5c9e3a7f0b4d8c2e6a1f"
PROXY_TOKEN = "prx." + "TkN" * 8  # synthetic

LIVE_MODULE = """
import os

import openai
import pytest


@pytest.mark.vcr
def test_live_key():
    # The key travels inside the body too: a proxy that wants it there.
    caller = os.environ["OPENAI_API_KEY"] + "|" + os.environ["PROXY_TOKEN"]
    response = openai.OpenAI().responses.create(
        model="gpt-5", input="hi", instructions="Caller: " + caller
    )
    assert response.status == "completed"
"""


def test_a_live_key_of_no_known_shape_never_reaches_a_cassette_and_replays_without_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The environment's credentials are redacted by value, wherever they travel.

    A hostile (or merely chatty) server echoes the key and a token back; the
    test sends them in the body. Neither is key-shaped, so only their values
    can find them. The cassette then replays with no key at all (the
    placeholder stands where the key was) and with another key.
    """
    pytester.makepyfile(test_live=LIVE_MODULE)
    monkeypatch.setenv("PROXY_TOKEN", PROXY_TOKEN)
    echoed = f"Invalid API key: {LIVE_KEY}; proxy token {PROXY_TOKEN} accepted"
    reply = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-5",
        "output": [],
        "instructions": echoed,
        "metadata": {f"seen-{LIVE_KEY}": "yes"},  # in a key: renamed
    }
    headers = {f"x-echo-{PROXY_TOKEN}": "1"}  # in a header's name: renamed
    with LoopbackProvider([LoopbackReply.json(reply, headers=headers)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", LIVE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert LIVE_KEY in server.requests[0].body.decode()  # it really travelled in the body
    [cassette] = pytester.path.rglob("test_live_key.json")
    text = cassette.read_text(encoding="utf-8")
    assert LIVE_KEY not in text and PROXY_TOKEN not in text
    body = json.loads(text)["interactions"][0]
    sent = body["request"]["body"]["json"]["instructions"]
    assert sent == "Caller: sk-REDACTED|REDACTED"  # compared on replay: not a volatile field
    assert body["response"]["body"]["json"]["instructions"] == (
        "Invalid API key: sk-REDACTED; proxy token REDACTED accepted"
    )
    assert body["response"]["body"]["json"]["metadata"] == {"seen-sk-REDACTED": "yes"}
    assert "x-echo-redacted" in body["response"]["headers"]  # names are kept lowercase
    output = result.stdout.str() + result.stderr.str()
    assert LIVE_KEY not in output and PROXY_TOKEN not in output

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY")  # CI: no key, the placeholder is sent in the body
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    monkeypatch.setenv("OPENAI_API_KEY", OTHER_KEY)  # another developer's key
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


BASE64_MODULE = """
import base64

import openai
import pytest

KEY = "sk-proj-" + "Bq7w" * 10  # synthetic; the same key the recording ran with


def b64(text):
    return base64.b64encode(text.encode()).decode()


@pytest.mark.vcr
def test_encoded_key():
    openai.OpenAI().responses.create(
        model="gpt-5",
        input="hi",
        metadata={"alone": b64(KEY), "inside": b64("token: " + KEY), "url": b64(KEY + "?")},
    )
"""


def test_a_key_sent_in_base64_replays_with_no_key_as_it_was_recorded(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key a recording ran with, base64-encoded in the body, is recorded as the
    placeholder's base64; replayed with no key set, the key shape is found in the same
    text and written the same way: whatever the key's place among base64's groups."""
    pytester.makepyfile(test_encoded=BASE64_MODULE)
    reply = {"id": "resp_1", "object": "response", "status": "completed", "output": []}
    with LoopbackProvider([LoopbackReply.json(reply)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-" + "Bq7w" * 10)
        pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    [cassette] = pytester.path.rglob("test_encoded_key.json")
    sent = json.loads(cassette.read_text(encoding="utf-8"))["interactions"][0]["request"]
    metadata = sent["body"]["json"]["metadata"]
    assert base64.b64decode(metadata["alone"] + "==") == b"sk-REDACTED"
    assert base64.b64decode(metadata["inside"] + "==") == b"token: sk-REDACTED"

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


NAMED_MODULE = """
import os

import openai
import pytest

SHAPED = "sk-proj-" + "Pa9" * 14  # synthetic: a key the test writes out itself
TOKENS = [os.environ["PROXY_TOKEN"], SHAPED, b"raw " + SHAPED.encode(), "plain"]


@pytest.mark.vcr
@pytest.mark.parametrize("token", TOKENS)
def test_named(token):
    openai.OpenAI(max_retries=0).responses.create(model="gpt-5", input="hi")
"""
SHAPED_KEY = "sk-proj-" + "Pa9" * 14


def test_a_parameter_holding_a_credential_is_redacted_in_the_test_id(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pytest makes a text parameter the test's id, and the id is in every line naming
    the test, in JUnit XML and in the cassette's file name: a credential there is redacted."""
    pytester.makepyfile(test_named=NAMED_MODULE)
    monkeypatch.setenv("PROXY_TOKEN", PROXY_TOKEN)
    collected = pytester.runpytest_subprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    reply = {"id": "resp_1", "object": "response", "status": "completed", "output": []}
    junit = pytester.path / "junit.xml"
    with LoopbackProvider([LoopbackReply.json(reply)] * 4) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", LIVE_KEY)
        args = ("--record-mode=once", "-v", "-rA", f"--junitxml={junit}", "-p", "no:cacheprovider")
        recorded = pytester.runpytest_subprocess(*args)
    recorded.assert_outcomes(passed=4)
    names = sorted(path.name for path in pytester.path.rglob("*.json"))
    assert len(names) == 4 and "test_named[plain].json" in names
    shown = [collected.stdout.str(), recorded.stdout.str(), recorded.stderr.str()]
    shown += [junit.read_text(encoding="utf-8"), *names]
    for text in shown:
        assert PROXY_TOKEN not in text and SHAPED_KEY not in text
    assert "REDACTED" in collected.stdout.str()

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY")  # CI: the same ids, so the same cassettes
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=4)


ID_MODULE = """
import os

import openai
import pytest


@pytest.mark.vcr
@pytest.mark.parametrize("token", ["a", "b"], ids=[os.environ["PROXY_TOKEN"], "plain"])
def test_named(token):
    openai.OpenAI(max_retries=0).responses.create(model="gpt-5", input="hi")
"""


def test_a_cassette_a_credential_would_name_is_refused_without_showing_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An id written out by the test names the cassette file: one that is a live token
    is refused (a file name is not scrubbed, and a folder listing or a commit would show it)."""
    pytester.makepyfile(test_named=ID_MODULE)
    monkeypatch.setenv("PROXY_TOKEN", PROXY_TOKEN)
    reply = {"id": "resp_1", "object": "response", "status": "completed", "output": []}
    with LoopbackProvider([LoopbackReply.json(reply)] * 2) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", LIVE_KEY)
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, errors=1)  # refused when the cassette is saved
    names = [path.name for path in pytester.path.rglob("*.json")]
    assert names == ["test_named[plain].json"]
    output = result.stdout.str()
    assert "its name holds a credential" in output and "pytest.param(value, id=" in output
    assert "test_named[REDACTED].json" in output
    # pytest prints the id the test gave as it is (``test_named[<id>]``); nothing else shows it
    assert PROXY_TOKEN not in output.replace(f"test_named[{PROXY_TOKEN}]", "")


REFUSED_MODULE = """
import logging
import os

import openai
import pytest


@pytest.mark.vcr
def test_refused():
    logging.getLogger("proxy").warning("calling with %s", os.environ["PROXY_TOKEN"])
    print("token in use:", os.environ["PROXY_TOKEN"])
    openai.OpenAI(max_retries=0).responses.create(model="gpt-5", input="hi")
"""


def test_a_server_echoing_the_live_key_in_an_error_does_not_put_it_on_the_terminal(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SDK's exception carries the server's message: the failure report is
    scrubbed like a cassette, its captured output and log sections too."""
    pytester.makepyfile(test_refused=REFUSED_MODULE)
    monkeypatch.setenv("PROXY_TOKEN", PROXY_TOKEN)
    error = {
        "error": {
            "message": f"Incorrect API key provided: {LIVE_KEY}.",
            "type": "invalid_request_error",
            "code": "invalid_api_key",
        }
    }
    with LoopbackProvider([LoopbackReply.json(error, status=401)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", LIVE_KEY)
        result = pytester.runpytest_subprocess(
            "--record-mode=once", "-p", "no:cacheprovider", "-l", "-rA"
        )
    result.assert_outcomes(failed=1)
    output = result.stdout.str() + result.stderr.str()
    assert "AuthenticationError" in output and "Incorrect API key provided: sk-REDACTED" in output
    assert "token in use: REDACTED" in output  # the captured stdout section
    assert "calling with REDACTED" in output  # the captured log section
    assert LIVE_KEY not in output and PROXY_TOKEN not in output


PIECES_MODULE = """
import os

import openai
import pytest


@pytest.fixture
def vault_key(monkeypatch):
    # A key the test's own fixture sets after the cassette opened, and undoes before it is saved.
    monkeypatch.setenv("OPENAI_API_KEY", os.environ["VAULT_VALUE"])


@pytest.mark.vcr
def test_recorded(vault_key):
    response = openai.OpenAI().responses.create(model="gpt-5", input="hi")
    assert response.status == "completed"


@pytest.mark.vcr
def test_compared(vault_key, record_property):
    record_property("key in use", os.environ["OPENAI_API_KEY"])  # written to JUnit XML
    response = openai.OpenAI().responses.create(model="gpt-5", input="again")
    assert response.instructions.upper() == "something else"  # shown upper-cased, shortened


@pytest.mark.vcr
def test_skipped(vault_key):
    try:
        openai.OpenAI(max_retries=0).responses.create(model="gpt-5", input="no")
    except openai.AuthenticationError as error:
        pytest.skip(f"no access: {error}")
"""


def test_a_key_a_fixture_sets_and_its_pieces_reach_neither_cassette_nor_terminal(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Credentials are read again while the test runs, and pytest's shortened values
    (``'9f3a7c21e4b0...c2e3b4d5f6071'``) lose what they keep of one."""
    pytester.makepyfile(test_pieces=PIECES_MODULE)
    monkeypatch.setenv("VAULT_VALUE", LIVE_KEY)  # not a credential's name: only the fixture's
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    echoed = {**_answer(), "instructions": f"key {LIVE_KEY} in use"}
    long = {**_answer(), "instructions": LIVE_KEY + " " + "y" * 40}  # shown shortened
    refused = {"error": {"message": f"Incorrect API key provided: {LIVE_KEY}.", "code": "k"}}
    replies = [
        LoopbackReply.json(echoed, reason=f"OK for {LIVE_KEY}"),
        LoopbackReply.json(long),
        LoopbackReply.json(refused, status=401),
    ]
    with LoopbackProvider(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        result = pytester.runpytest_subprocess(
            "--record-mode=once", "-p", "no:cacheprovider", "-rA", "-l", "--junitxml=out.xml"
        )
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    output = result.stdout.str() + result.stderr.str()
    [cassette] = pytester.path.rglob("test_recorded.json")
    recorded = json.loads(cassette.read_text(encoding="utf-8"))["interactions"][0]["response"]
    assert recorded["reason"] == "OK for sk-REDACTED"
    assert recorded["body"]["json"]["instructions"] == "key sk-REDACTED in use"
    assert "SKIPPED" in output and "no access: Error code: 401" in output
    assert "FAILED test_pieces.py::test_compared - AssertionError" in output  # crash line kept
    junit = (pytester.path / "out.xml").read_text(encoding="utf-8")
    assert 'name="key in use" value="sk-REDACTED"' in junit
    for text in (output, junit):
        for start in range(len(LIVE_KEY) - 8):
            assert LIVE_KEY[start : start + 9].lower() not in text.lower(), (start, text)


def _answer() -> dict[str, object]:
    return {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-5"}


REDIRECT_MODULE = """
import openai
import pytest


@pytest.mark.vcr
def test_redirected():
    assert openai.OpenAI().responses.create(model="gpt-5", input="hi").id == "resp_1"
"""


def test_a_redirect_keeps_its_location_scrubbed_as_a_url_and_replays(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_redirect=REDIRECT_MODULE)
    to = "/v1/moved/responses?token=" + CANARIES["QUERY"] + "&limit=5"
    replies = [
        LoopbackReply(307, b"", "text/plain", {"location": to}),
        LoopbackReply.json(_answer()),
    ]
    with LoopbackProvider(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        pytester.runpytest_subprocess(
            "--record-mode=once", "-p", "no:cacheprovider"
        ).assert_outcomes(passed=1)
    assert [request.path for request in server.requests][1] == to
    [cassette] = pytester.path.rglob("test_redirected.json")
    first, second = json.loads(cassette.read_text(encoding="utf-8"))["interactions"]
    assert first["response"]["headers"]["location"] == [
        "/v1/moved/responses?token=REDACTED&limit=5"
    ]
    assert second["request"]["uri"].endswith("/v1/moved/responses?token=REDACTED&limit=5")

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
