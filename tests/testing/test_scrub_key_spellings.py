"""Keys spelled where a plain shape search does not look: joined to a word by ``-`` or
``_`` (or glued to it, when the key carries OpenAI's marker), written with HTML
character references, and inside base64 wrapped into lines as MIME writes it.

Each is found in every place a cassette holds text, by the scanner and the
scrubber alike, and look-alikes stay as they are. Every key is synthetic: the
right shape, never a real credential.
"""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vcr.request import Request

from tooltape.testing.cassette import (
    Cassette,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    TextBody,
    dump_cassette,
    find_secrets,
    parse_sse,
    scrub_cassette,
    scrub_policy,
    scrub_text,
    scrub_tree,
)
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.vcr import before_record_request, before_record_response

pytest_plugins = ["pytester"]

HEADER = CassetteHeader("0.1.0", "synthetic", "synthetic: test_scrub_key_spellings")

MARKER = "T3BlbkFJ"  # base64 of "OpenAI": every OpenAI key carries it
LEGACY = "sk-" + "Ab3dEf6hIj9kLm2nOp5q" + MARKER + "Rs8tUv1wXy4zAb7cDe0f"
PROJECT = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"  # no marker: a test's own key
PROJECT_MARKED = "sk-proj-" + "Qw7eRt4yUi1oPa8sDf5g" * 3 + MARKER + "Zx2cVb9nMl6kJh3gFd0s" * 3
SERVICE = "sk-svcacct-" + "Lp0oKi9jUh8yGt7fRd6eSw5a"
ADMIN = "sk-admin-" + "Mn4bVc3xZa2sDf1gHj0kLq9w"

JOINED = {
    "after -": ("raw-" + PROJECT, PROJECT),
    "after _": ("token_" + LEGACY, LEGACY),
    "service account after -": ("x-" + SERVICE, SERVICE),
    "admin after _": ("backup_" + ADMIN, ADMIN),
    "glued to letters": ("abc" + LEGACY, LEGACY),
    "glued to digits": ("2024" + PROJECT_MARKED, PROJECT_MARKED),
    "glued to a scheme": ("Bearer" + PROJECT_MARKED, PROJECT_MARKED),
}


def _everywhere(text: str) -> Cassette:
    """``text`` in each place a cassette holds text: the URI's path and a kept query
    value, a kept header's value, a JSON request body, a JSON response body, a
    stream's event and a text body."""
    stream = parse_sse(
        "event: response.output_text.delta\ndata: "
        + json.dumps({"type": "response.output_text.delta", "delta": f"here: {text}"})
        + "\n\n"
    )
    return Cassette(
        HEADER,
        (
            Interaction(
                RecordedRequest(
                    "POST",
                    f"https://api.example.test/v1/files/{text}?after={text}",
                    {"x-request-id": (text,)},
                    JsonBody({"input": f"note: {text}."}),
                ),
                RecordedResponse(200, "OK", {}, JsonBody({"output_text": text})),
            ),
            Interaction(
                RecordedRequest("GET", "https://api.example.test/v1/x", {}, EmptyBody()),
                RecordedResponse(200, "OK", {}, stream),
            ),
            Interaction(
                RecordedRequest("GET", "https://api.example.test/v1/y", {}, EmptyBody()),
                RecordedResponse(200, "OK", {}, TextBody(f"log line {text} end")),
            ),
        ),
    )


PLACES = {
    "/interactions/0/request/uri",
    "/interactions/0/request/headers/x-request-id/0",
    "/interactions/0/request/body/json/input",
    "/interactions/0/response/body/json/output_text",
    "/interactions/1/response/body/sse/0/data/delta",
    "/interactions/2/response/body/text",
}


def _assert_found_everywhere_and_scrubbed(text: str, key: str, kind: str) -> Cassette:
    dirty = _everywhere(text)
    findings = find_secrets(dirty)
    assert {f.location for f in findings} >= PLACES
    assert {f.kind for f in findings} == {kind}
    assert all(key[:6] not in f.excerpt for f in findings)
    clean = scrub_cassette(dirty)
    written = dump_cassette(clean)
    assert key[8:] not in written
    assert find_secrets(clean) == []
    assert scrub_cassette(clean) == clean  # idempotent
    return clean


@pytest.mark.parametrize(("text", "key"), list(JOINED.values()), ids=list(JOINED))
def test_an_openai_key_joined_to_a_word_is_found_everywhere(text: str, key: str) -> None:
    clean = _assert_found_everywhere_and_scrubbed(text, key, "OpenAI-style key")
    # Only the key is replaced, by the placeholder: what it was joined to stays.
    body = clean.interactions[0].response.body
    assert isinstance(body, JsonBody)
    assert body.data == {"output_text": text.removesuffix(key) + "sk-REDACTED"}


@pytest.mark.parametrize(("text", "key"), list(JOINED.values()), ids=list(JOINED))
def test_the_recording_hooks_redact_a_joined_key(text: str, key: str) -> None:
    # The hooks skip parsing what a literal search calls clean: it must not miss these.
    raw = json.dumps({"input": [{"role": "user", "content": f"key\n{text}"}]}).encode()
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", raw, {}))
    assert key.encode() not in request.body
    response = before_record_response(
        {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": raw}}
    )
    assert key.encode() not in response["body"]["string"]


OTHER_FAMILIES = {
    "Anthropic API key": "sk-ant-api03-" + "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1",
    "GitHub token": "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "Hugging Face token": "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "npm token": "npm_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "AWS access key id": "AKIA" + "ZXCVBNMLKJHGFDSA",
    "Groq API key": "gsk_" + "Qw7eRt4yUi1oPa8sDf5gHj2kLz9xCv6bNm3qWe0r",
    "PyPI token": "pypi-AgEIcHlwaS5vcmc" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9k",
    "JSON web token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXBhcnQ",
}


@pytest.mark.parametrize("joiner", ["-", "_"])
@pytest.mark.parametrize(("kind", "key"), list(OTHER_FAMILIES.items()))
def test_a_key_of_a_strict_shape_joined_to_a_word_is_found(
    kind: str, key: str, joiner: str
) -> None:
    _assert_found_everywhere_and_scrubbed(f"backup{joiner}{key}", key, kind)


@pytest.mark.parametrize(
    "text",
    [
        "task-12345678901234567890123 is done",
        "the cz-sk-admin-console-for-regional-managers page",  # a slug, not a key
        "team_sk-proj-roadmap-2024-q3-planning-notes-v2",  # no capital: not random
        "en-sk-None-of-the-above-Options-apply",  # no digit: not random
        "ask-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",  # after a letter, without the marker
        f"risk-{MARKER}-mentions-OpenAI-in-base64",  # the marker, but no sk- before it
        "load_github_pat_from_environment_variable_now",  # a name with underscores
        "mock_sk_live_environment_for_billing",  # Stripe's prefix inside a name
        "my-glpat-rotation-schedule-notes-here",  # GitLab's prefix inside a slug
        "love_xoxo-see-you-at-the-station-tomorrow",
        "msg_68c1f2a9b3d4e5f60718293a4b5c6d7e8f9012345678",
        "call_Ab3dEf6hIj9kLm2nOp5qRs8t",
        "resp_68c1f2a9b3d4e5f60718293a4b5c6d7e8f9012345678",
        "fc_68c1f2a9b3d4e5f60718293a4b5c6d7e8f9012345678",
        "tmp_AKIA-is-how-access-key-ids-start",
    ],
)
def test_look_alikes_of_a_joined_key_are_left_alone(text: str) -> None:
    assert scrub_tree({"text": text}) == {"text": text}
    assert find_secrets(_everywhere(text)) == []


@pytest.mark.parametrize(
    ("sk_at", "marker_at"),
    [
        (10, 310),  # near the run's start, but the marker far after it
        (200, 260),  # the marker near, but deep inside the run
    ],
)
def test_openai_s_marker_inside_url_safe_base64_is_no_key(sk_at: int, marker_at: int) -> None:
    # Base64 of a text that names OpenAI holds the marker; URL-safe base64 can hold
    # "sk-" by chance too. Far apart, or deep inside one long run, they are no key.
    noise = base64.urlsafe_b64encode(bytes(range(256)) * 2).decode()
    text = noise[:sk_at] + "sk-" + noise[sk_at:marker_at] + MARKER + noise[marker_at:]
    assert scrub_text(text) == text
    assert find_secrets(_everywhere(text)) == []


_TAIL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@settings(max_examples=200)
@given(
    before=st.text(alphabet=_TAIL_CHARS + "_-", min_size=1, max_size=30),
    prefix=st.sampled_from(["sk-", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-myproject-"]),
    head=st.text(alphabet=_TAIL_CHARS, min_size=20, max_size=20),
    tail=st.text(alphabet=_TAIL_CHARS + "_-", min_size=20, max_size=80),
)
def test_a_marked_key_glued_to_anything_never_survives(
    before: str, prefix: str, head: str, tail: str
) -> None:
    key = prefix + head + MARKER + tail
    raw = json.dumps({"input": f"x {before}{key} y"}).encode()
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", raw, {}))
    assert MARKER.encode() not in request.body
    assert b"sk-REDACTED" in request.body
    assert find_secrets(_everywhere(before + key))


JOINED_MODULE = """
import openai
import pytest

KEY = {key!r}  # synthetic; the same key the recording ran with


@pytest.mark.vcr
def test_joined_key():
    openai.OpenAI().responses.create(
        model="gpt-5",
        input="hi",
        instructions="Backups in backups/raw-" + KEY + ", and token" + KEY,
    )
"""


@pytest.mark.parametrize("key", [PROJECT_MARKED, LEGACY], ids=["project", "user"])
def test_a_joined_key_replays_with_no_key_as_it_was_recorded(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    """Recording knows the key by its value and redacts it wherever it is; replaying
    with no key set, only its shape can find it: in the same text, it must be found
    and written the same way, or the request no longer matches its recording."""
    pytester.makepyfile(test_joined=JOINED_MODULE.format(key=key))
    reply = {"id": "resp_1", "object": "response", "status": "completed", "output": []}
    with LoopbackProvider([LoopbackReply.json(reply)]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", key)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    assert key in server.requests[0].body.decode()  # it really travelled
    [cassette] = pytester.path.rglob("test_joined_key.json")
    text = cassette.read_text(encoding="utf-8")
    assert key[8:] not in text
    sent = json.loads(text)["interactions"][0]["request"]["body"]["json"]["instructions"]
    # compared on replay (not a volatile field)
    assert sent == "Backups in backups/raw-sk-REDACTED, and tokensk-REDACTED"

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY")
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    replayed.assert_outcomes(passed=1)
    assert key[8:] not in replayed.stdout.str() + replayed.stderr.str()


# --- base64 wrapped into lines --------------------------------------------------------

NOTES = "Deploy notes\n\nThe service reads its key from the vault; today it is\n"


def _wrapped(text: str, width: int = 76, newline: str = "\r\n") -> str:
    """``text`` in base64 as MIME writes it: lines of ``width`` characters."""
    encoded = base64.b64encode(text.encode()).decode()
    return newline.join(encoded[i : i + width] for i in range(0, len(encoded), width))


def _unwrapped(block: str) -> str:
    return base64.b64decode("".join(block.split())).decode()


@pytest.mark.parametrize(
    ("width", "newline"), [(76, "\r\n"), (76, "\n"), (64, "\n")], ids=["mime", "lf", "pem"]
)
def test_a_key_across_the_lines_of_wrapped_base64_is_found_and_rewrapped(
    width: int, newline: str
) -> None:
    block = _wrapped(NOTES + PROJECT_MARKED + "\nRotate it monthly.\n", width, newline)
    assert all(PROJECT_MARKED not in _b64_line(line) for line in block.split(newline))
    email = f"Content-Transfer-Encoding: base64{newline}{newline}{block}{newline}{newline}--b--"
    dirty = _everywhere(email)
    findings = find_secrets(dirty)
    assert {f.location for f in findings} >= PLACES - {"/interactions/0/request/uri"}
    assert {f.kind for f in findings} == {"OpenAI-style key in base64"}
    clean = scrub_cassette(dirty)
    assert find_secrets(clean) == []
    body = clean.interactions[0].request.body
    assert isinstance(body, JsonBody)
    note = body.data["input"]  # type: ignore[index]
    assert isinstance(note, str)
    rewritten = note.split(newline * 2)[1]
    lines = rewritten.split(newline)
    assert {len(line) for line in lines[:-1]} == {width}  # still wrapped as it was
    assert _unwrapped(rewritten) == NOTES + "sk-REDACTED\nRotate it monthly.\n"
    assert scrub_cassette(clean) == clean


def _b64_line(line: str) -> str:
    return base64.b64decode(line + "=" * (-len(line) % 4)).decode("utf-8", "replace")


def test_the_recording_hooks_redact_a_key_in_wrapped_base64() -> None:
    block = _wrapped(NOTES + LEGACY + "\n")
    raw = json.dumps({"input": f"attachment:\r\n{block}\r\n"}).encode()
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", raw, {}))
    sent = json.loads(request.body)["input"]
    assert _unwrapped(sent.split("\r\n", 1)[1]) == NOTES + "sk-REDACTED\n"
    response = before_record_response(
        {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": raw}}
    )
    assert json.loads(response["body"]["string"]) == json.loads(request.body)


def test_lines_of_base64_of_other_widths_or_data_are_left_alone() -> None:
    ragged = "\n".join(["QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", "QUJDREVGR0hJSktM"] * 3)
    image = _wrapped("\x89PNG" + "".join(map(chr, range(256))))
    for text in (ragged, image, "word\nanother word\n" * 5):
        assert scrub_text(text) == text


@pytest.mark.parametrize(
    ("text", "key"),
    [
        *JOINED.values(),
        ("keys: raw-" + LEGACY + "_v2, x" + PROJECT_MARKED + "-old", LEGACY),
        ("attachment:\r\n" + _wrapped(NOTES + LEGACY + "\n") + "\r\n", LEGACY),
    ],
)
def test_the_key_known_by_its_value_or_only_by_its_shape_is_written_alike(
    text: str, key: str
) -> None:
    # Recording knows the live key's value; replay with no key knows only shapes. The
    # request replay sends must scrub to what was recorded.
    recording = scrub_policy(None, (("OPENAI_API_KEY", key),))
    assert scrub_text(text, recording) == scrub_text(text) != text
