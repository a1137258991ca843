"""Keys spelled where a plain shape search does not look: joined to a word by ``-`` or
``_`` (or glued to it, when the key carries OpenAI's marker), inside base64 wrapped
into lines as MIME writes it, written with HTML character references or
percent-encoding, and across quoted-printable's soft line breaks.

Each is found in every place a cassette holds text, by the scanner and the
scrubber alike, and look-alikes stay as they are. Every key is synthetic: the
right shape, never a real credential.
"""

from __future__ import annotations

import base64
import html
import json
import quopri
from collections.abc import Callable
from urllib.parse import quote, unquote, unquote_plus, urlencode

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


def _assert_found_everywhere_and_scrubbed(
    text: str, key: str, kind: str, places: set[str] = PLACES
) -> Cassette:
    dirty = _everywhere(text)
    findings = [f for f in find_secrets(dirty) if f.location in places]
    assert {f.location for f in findings} == places
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
    # the key's marker never survives; text before it may spell the marker itself
    assert request.body.count(MARKER.encode()) <= before.count(MARKER)
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


# --- HTML character references, percent-encoding, quoted-printable ----------------------

GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
SLACK_HOOK = "https://hooks.slack.com/services/T0001ABCD/B0001ABCD/" + "Xy9Zw8Vu7Ts6Rq5Po4Nm3Lk2"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"  # AWS's documented example
PEM = (
    "-----BEGIN PRIVATE KEY-----\n"
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vq9xZ3nR\n"
    "-----END PRIVATE KEY-----\n"
)


def _references(text: str, hexadecimal: bool = False, zeros: int = 0) -> str:
    """Every character as a numeric character reference (he's ``encodeEverything``)."""
    pad = "0" * zeros
    return "".join(f"&#x{pad}{ord(c):X};" if hexadecimal else f"&#{pad}{ord(c)};" for c in text)


def _non_alphanumeric_references(text: str) -> str:
    """What an encoder of every character but letters and digits writes, named where
    HTML names the character (``&lowbar;``, ``&period;``), in hex where not (``-``)."""
    named = {"_": "&lowbar;", ".": "&period;", "/": "&sol;", "+": "&plus;", "=": "&equals;"}
    return "".join(c if c.isalnum() else named.get(c, f"&#x{ord(c):X};") for c in text)


def _every_byte(text: str, lower: bool = False) -> str:
    encoded = "".join(f"%{byte:02X}" for byte in text.encode())
    return encoded.lower() if lower else encoded


def _quoted_printable(text: str) -> str:
    """``text`` in quoted-printable, as a mail carries it (CRLF, lines of 76)."""
    return quopri.encodestring(text.encode()).decode().replace("\n", "\r\n")


REFERENCES = {
    "every character, decimal": (_references(PROJECT_MARKED), PROJECT_MARKED, "OpenAI-style key"),
    "every character, hex": (_references(LEGACY, True), LEGACY, "OpenAI-style key"),
    "leading zeros": (_references(PROJECT, zeros=2), PROJECT, "OpenAI-style key"),
    "only the first character": ("&#115;" + PROJECT[1:], PROJECT, "OpenAI-style key"),
    "only the dashes": (PROJECT.replace("-", "&#45;"), PROJECT, "OpenAI-style key"),
    "named underscore": (_non_alphanumeric_references(GITHUB), GITHUB, "GitHub token"),
    "escaped twice": (html.escape(_references(PROJECT)), PROJECT, "OpenAI-style key"),
}
PERCENT = {
    "percent, dashes": (PROJECT.replace("-", "%2D"), PROJECT, "OpenAI-style key"),
    "percent, every byte": (_every_byte(PROJECT), PROJECT, "OpenAI-style key"),
    "percent, every byte in lower case": (_every_byte(LEGACY, True), LEGACY, "OpenAI-style key"),
    "percent, twice": (quote(_every_byte(PROJECT), safe=""), PROJECT, "OpenAI-style key"),
    "percent, underscore": (GITHUB.replace("_", "%5F"), GITHUB, "GitHub token"),
    "percent, a webhook URL": (quote(SLACK_HOOK, safe=""), SLACK_HOOK[8:], "Slack webhook"),
    # ESAPI's encoder for JavaScript: every character but letters, digits, ",", "." and "_"
    "JavaScript, \\x": (PROJECT.replace("-", "\\x2D"), PROJECT, "OpenAI-style key"),
}
ENCODED = {**REFERENCES, **PERCENT}


@pytest.mark.parametrize(("text", "key", "kind"), list(REFERENCES.values()), ids=list(REFERENCES))
def test_a_key_spelled_with_character_references_is_found_everywhere(
    text: str, key: str, kind: str
) -> None:
    # In a URL "&", "#" and ";" are separators, which the query's rewrite goes by: the key
    # is redacted before it, and the URL's other findings are its query and fragment's.
    _assert_found_everywhere_and_scrubbed(text, key, kind, PLACES - {"/interactions/0/request/uri"})


@pytest.mark.parametrize(("text", "key", "kind"), list(PERCENT.values()), ids=list(PERCENT))
def test_a_percent_encoded_key_is_found_everywhere(text: str, key: str, kind: str) -> None:
    _assert_found_everywhere_and_scrubbed(text, key, kind)


@pytest.mark.parametrize(("text", "key", "kind"), list(ENCODED.values()), ids=list(ENCODED))
def test_the_recording_hooks_redact_an_encoded_key(text: str, key: str, kind: str) -> None:
    raw = json.dumps({"input": [{"role": "user", "content": f"page:\n<p>{text}</p>"}]}).encode()
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", raw, {}))
    assert text not in json.loads(request.body)["input"][0]["content"]
    response = before_record_response(
        {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": raw}}
    )
    assert json.loads(response["body"]["string"]) == json.loads(request.body)


@pytest.mark.parametrize(
    ("text", "decode"),
    [
        (f'<a title="{_references(PROJECT)}" href="/x?a=1&amp;b=2">it&#39;s</a>', html.unescape),
        (f"<p>{_non_alphanumeric_references(GITHUB)} &amp; {AWS_SECRET}</p>", html.unescape),
        ("region=eu&aws_secret_access_key=" + quote(AWS_SECRET, safe="") + "&n=1", unquote),
        ("Authorization%3A%20Bearer%20" + "Tk7" * 8 + "%0A", unquote),
        ("Authorization:&#32;Bearer&#32;" + "Tk7" * 8, html.unescape),
        ("key=" + quote(PEM, safe="") + "&n=1", unquote),
        (urlencode({"private_key": PEM, "n": 1}), unquote_plus),
    ],
    ids=[
        "html",
        "html named",
        "form",
        "percent, bearer",
        "html, bearer",
        "percent, PEM",
        "form, PEM",
    ],
)
def test_an_encoded_key_is_replaced_in_the_same_encoding(
    text: str, decode: Callable[[str], str]
) -> None:
    """What replaces it decodes to what replaces the decoded key: the page, the form
    or the URL stays valid, and decodes to the scrubbed text."""
    scrubbed = scrub_text(text)
    assert scrubbed != text
    assert decode(scrubbed) == scrub_text(decode(text)) != decode(text)
    assert scrub_text(scrubbed) == scrubbed


MAIL = "Subject: deploy\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"


@pytest.mark.parametrize("before_break", [1, 3, 11, 12, 30])
@pytest.mark.parametrize("key", [PROJECT_MARKED, PROJECT, GITHUB], ids=["long", "short", "github"])
def test_a_key_across_quoted_printable_soft_line_breaks_is_found_and_lines_stay_short(
    before_break: int, key: str
) -> None:
    # The first line breaks after 75 characters: ``before_break`` of them the key's.
    words = ("Your new key is below, keep it safe. " * 3)[: 75 - before_break - 1] + " "
    note = words + key + "\nRotate it monthly. Caf\u00e9 = 1 \u20ac.\n"
    body = _quoted_printable(note)
    assert key not in body  # a soft break inside it
    mail = MAIL + body
    dirty = _everywhere(mail)
    places = PLACES - {"/interactions/0/request/uri"}  # no line break in a URL
    findings = [f for f in find_secrets(dirty) if f.location in places]
    kind = "GitHub token" if key is GITHUB else "OpenAI-style key"
    assert {f.location for f in findings} == places
    assert {f.kind for f in findings} == {kind}
    clean = scrub_cassette(dirty)
    assert find_secrets(clean) == []
    assert scrub_cassette(clean) == clean
    body_data = clean.interactions[0].response.body
    assert isinstance(body_data, JsonBody)
    scrubbed = body_data.data["output_text"]  # type: ignore[index]
    assert isinstance(scrubbed, str)
    lines = scrubbed.removeprefix(MAIL).split("\r\n")
    assert max(len(line) for line in lines) <= 76
    decoded = quopri.decodestring(scrubbed.removeprefix(MAIL).encode()).decode()
    assert decoded == scrub_text(note).replace("\n", "\r\n") != note.replace("\n", "\r\n")


ENV_FILE = {
    "GitHub token": f"GITHUB_TOKEN={GITHUB}\n",
    "Hugging Face token": "export HF_TOKEN=" + OTHER_FAMILIES["Hugging Face token"] + "\n",
    "Anthropic API key": "ANTHROPIC_API_KEY=" + OTHER_FAMILIES["Anthropic API key"] + "\n",
    # the soft break falls after the cookie's name, before its "=3D"
    "Cloudflare cookie": "x" * 67 + " _cfuvid=" + "Cf7uViD" * 4 + "-1700000000\n",
}


@pytest.mark.parametrize(("kind", "text"), list(ENV_FILE.items()), ids=list(ENV_FILE))
def test_a_key_after_an_equals_sign_a_mail_writes_as_3d_is_found(kind: str, text: str) -> None:
    """A mail quoting an environment file: quoted-printable writes each "=" as "=3D",
    which glues the key to a word; such a text's escapes are decoded too."""
    mail = MAIL + _quoted_printable("Your settings:\n" + text + "Caf\u00e9\n")
    dirty = _everywhere(mail)
    findings = [f for f in find_secrets(dirty) if f.location != "/interactions/0/request/uri"]
    assert {f.kind for f in findings} == {kind}
    clean = scrub_cassette(dirty)
    assert find_secrets(clean) == []
    body = clean.interactions[2].response.body
    assert isinstance(body, TextBody)
    scrubbed = body.text.removeprefix("log line ").removesuffix(" end").removeprefix(MAIL)
    decoded = quopri.decodestring(scrubbed.encode()).decode()
    assert decoded.replace("\r\n", "\n") == scrub_text("Your settings:\n" + text + "Caf\u00e9\n")


@pytest.mark.parametrize("before", [0, 9, 20, 26])
def test_a_url_across_quoted_printable_soft_line_breaks_is_rewritten_whole(before: int) -> None:
    """A mail's URL runs on across soft line breaks: a query value the rewrite hides is
    hidden whole, not up to the first break (the rest of it was left as written)."""
    value = "invite-" + "Gq4Zr8" * 6  # synthetic, of no known shape: only the URL hides it
    note = "x" * before + f" Open https://app.example.test/join?invite={value}&step=2 now.\n"
    mail = _quoted_printable(note)
    assert value not in mail  # a soft break inside it
    scrubbed = scrub_text(mail)
    assert scrub_text(scrubbed) == scrubbed
    assert max(len(line) for line in scrubbed.split("\r\n")) <= 76
    decoded = quopri.decodestring(scrubbed.encode()).decode()
    assert decoded == note.replace(
        f"invite={value}&step=2", "invite=REDACTED&step=REDACTED"
    ).replace("\n", "\r\n")


def test_a_replacement_keeps_the_characters_a_text_holds_unescaped() -> None:
    # A bearer token runs on through a JSON escape: found in the escapes' view, it is
    # written back escaped only where the text was (its tab stays a tab).
    text = "Authorization: Bearer\tAbCdEfGhIjKlMnOp\\u0071rStUvWx done"
    assert scrub_text(text) == "Authorization: Bearer\tREDACTED done"


@pytest.mark.parametrize(
    "text",
    [
        "&#115;k-proj-short and &#x73;k-",  # too short for a key
        "sk&hyphen;proj&hyphen;Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",  # U+2010, another character
        "Tom &amp; Jerry &lt;3 it&#39;s 100&#37; &quot;fine&quot; &#x1F600; &#0; &#99999999;",
        "progress: 50%2D and %s of %d, 100%",
        "search for caf%C3%A9%20au%20lait%26lang%3Dfr%2Dbe",
        "%73%6B%2D%70%72%6F%6A%2D%73%68%6F%72%74",  # sk-proj-short
        "total =\nsubtotal_for_the_whole_quarter_in_euros + tax_for_each_item",
        "dash-separated-words-=\r\nmore-dash-separated-words-in-a-row-here",
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ei0=\n--boundary--",
    ],
)
def test_look_alikes_of_an_encoded_key_are_left_alone(text: str) -> None:
    assert scrub_text(text) == text
    # (In the URI, "&" starts another query parameter: a value to redact.)
    uri = "/interactions/0/request/uri"
    assert [f for f in find_secrets(_everywhere(text)) if f.location != uri] == []


def test_a_find_its_escapes_lengthen_past_another_is_redacted_for_good() -> None:
    # As written, "BEARER sk-..." is a bearer token ending at the escape; decoded, "%BE"
    # is one character and the key runs on through "0": the two finds overlap.
    text = f"%BEARER {PROJECT}%30"
    scrubbed = scrub_text(text)
    assert PROJECT[8:] not in scrubbed
    assert scrub_text(scrubbed) == scrubbed
    assert find_secrets(_everywhere(text)) != []
    assert find_secrets(scrub_cassette(_everywhere(text))) == []


def test_a_key_spelled_every_byte_is_written_alike_known_by_its_value_or_its_shape() -> None:
    text = f"see /v1/keys/{_every_byte(PROJECT)} and <b>{_references(PROJECT, True)}</b>"
    recording = scrub_policy(None, (("OPENAI_API_KEY", PROJECT),))
    assert scrub_text(text, recording) == scrub_text(text) != text
