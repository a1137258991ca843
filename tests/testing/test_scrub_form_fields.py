"""Secret fields in a form body: redacted as in a JSON body, and found by the scanner.

An OAuth token request (Azure AD client credentials for Azure OpenAI, a
password grant) sends its secret as a URL-encoded or multipart form field, of
no shape a key rule knows and often not in the environment. Every secret
below is synthetic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooltape.testing.cassette import (
    REDACTED,
    Cassette,
    CassetteHeader,
    EmptyBody,
    Interaction,
    RecordedRequest,
    RecordedResponse,
    TextBody,
    find_secrets,
    scrub_body,
    scrub_cassette,
    scrub_policy,
)
from tooltape.testing.cassette._scrub import might_need_scrubbing
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.settings import ScrubSettings

pytest_plugins = ["pytester"]

CLIENT_SECRET = "Q9x8Kd.Lm2nOp5qRs8tUv1wXy4z_3Fe"
PASSWORD = "correct-horse-battery-staple-91"
TOKEN_REQUEST = (
    "grant_type=client_credentials&client_id=4f1c2b7e"
    f"&client_secret={CLIENT_SECRET}"
    "&scope=https%3A%2F%2Fcognitiveservices.azure.com%2F.default"
)
MULTIPART = (
    "--b0undary\r\n"
    'Content-Disposition: form-data; name="username"\r\n\r\n'
    "bob\r\n"
    "--b0undary\r\n"
    'Content-Disposition: form-data; name="password"\r\n'
    "Content-Type: text/plain\r\n\r\n"
    f"{PASSWORD}\r\n"
    "--b0undary--\r\n"
)


def _cassette(body: str) -> Cassette:
    request = RecordedRequest("POST", "https://login.example.test/token", {}, TextBody(body))
    header = CassetteHeader("0.1.0", "synthetic", "synthetic: test_scrub_form_fields")
    return Cassette(header, (Interaction(request, RecordedResponse(200, "OK", {}, EmptyBody())),))


def _secret_in(text: str) -> bool:
    return CLIENT_SECRET in text or PASSWORD in text


def test_a_urlencoded_secret_field_is_redacted_and_the_rest_kept() -> None:
    scrubbed = scrub_body(TextBody(TOKEN_REQUEST))

    assert isinstance(scrubbed, TextBody)
    assert scrubbed.text == TOKEN_REQUEST.replace(CLIENT_SECRET, REDACTED)


def test_a_multipart_secret_field_is_redacted_and_the_rest_kept() -> None:
    scrubbed = scrub_body(TextBody(MULTIPART))

    assert isinstance(scrubbed, TextBody)
    assert scrubbed.text == MULTIPART.replace(PASSWORD, REDACTED)


@pytest.mark.parametrize("body", [TOKEN_REQUEST, MULTIPART], ids=["urlencoded", "multipart"])
def test_the_scanner_finds_a_form_secret_until_it_is_scrubbed(body: str) -> None:
    cassette = _cassette(body)

    findings = find_secrets(cassette)
    scrubbed = scrub_cassette(cassette)

    assert [(f.location, f.kind) for f in findings] == [
        ("/interactions/0/request/body/text", "secret body field")
    ]
    assert not any(_secret_in(finding.excerpt) for finding in findings)
    assert find_secrets(scrubbed) == []
    assert scrub_cassette(scrubbed) is scrubbed


@pytest.mark.parametrize("body", [TOKEN_REQUEST, MULTIPART], ids=["urlencoded", "multipart"])
def test_recording_does_not_skip_a_form_body_as_clean(body: str) -> None:
    assert might_need_scrubbing(body.encode())


def test_a_projects_secret_body_fields_count_in_forms_too() -> None:
    policy = scrub_policy(ScrubSettings(secret_body_fields=("pin",)))

    scrubbed = scrub_body(TextBody("account=7&pin=48151623"), policy)

    assert scrubbed == TextBody(f"account=7&pin={REDACTED}")


@pytest.mark.parametrize(
    "text",
    [
        "grant_type=client_credentials&client_id=4f1c2b7e",
        "password=",
        f"password={REDACTED}",
        "a sentence that says password=hunter2 is not a form",
        "x = 1\npassword = 2\n",
    ],
)
def test_what_is_no_secret_field_of_a_form_is_left_alone(text: str) -> None:
    body = TextBody(text)

    assert scrub_body(body) is body


TOKEN_TEST = """
import httpx
import os
import pytest


@pytest.mark.vcr
def test_token():
    secret = "{secret}"
    url = os.environ["LOGIN_URL"]
    answer = httpx.post(url, data={{"grant_type": "client_credentials", "client_secret": secret}})
    assert answer.json()["token_type"] == "Bearer"
    files = {{"password": (None, "{password}"), "username": (None, "bob")}}
    fixed = {{"content-type": "multipart/form-data; boundary=b0undary"}}  # replays as sent
    assert httpx.post(url, files=files, headers=fixed).status_code == 200
"""


def test_a_recorded_token_request_keeps_no_form_secret(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_oauth=TOKEN_TEST.format(secret=CLIENT_SECRET, password=PASSWORD))
    replies = [LoopbackReply.json({"token_type": "Bearer", "expires_in": 3599})] * 2
    with LoopbackProvider(replies) as server:
        monkeypatch.setenv("LOGIN_URL", server.base_url + "/oauth2/token")
        result = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert CLIENT_SECRET in server.requests[0].body.decode()  # on the wire
    [cassette] = Path(pytester.path, "cassettes").rglob("*.json")
    written = cassette.read_text(encoding="utf-8")
    assert not _secret_in(written)
    assert "client_secret=REDACTED" in written

    monkeypatch.setenv("LOGIN_URL", "http://127.0.0.1:9/v1/oauth2/token")  # nothing listens
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
