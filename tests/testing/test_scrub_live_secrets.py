"""Credentials in the environment are redacted by value, whatever their shape.

Every value below is synthetic.
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Callable
from dataclasses import replace
from urllib.parse import quote, quote_plus

import pytest

from tooltape.testing.cassette import (
    KEY_PLACEHOLDER,
    REPLAY_API_KEY,
    Cassette,
    CassetteHeader,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    find_secrets,
    live_secrets,
    scrub_policy,
    scrub_response,
    scrub_tree,
)
from tooltape.testing.cassette._scrub import scrub_text  # pyright: ignore[reportPrivateUsage]
from tooltape.testing.vcr.record_hooks import ScrubHooks

HEX_KEY = "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e"


def test_credentials_are_chosen_by_name_length_and_shape() -> None:
    environ = {
        "OPENAI_API_KEY": HEX_KEY,
        "GITHUB_TOKEN": "ghx_" + "T0k" * 8,
        "AWS_SECRET_ACCESS_KEY": "wJalr" + "XUtnF" * 6,
        "DB_PASSWORD": "correct-horse-battery",
        "PGPASSWORD": "staple-" + "9" * 12,
        "CLIENT_SECRETS": "cs." + "Sc7" * 6,
        "AWS_ACCESS_KEY_ID": "AKIA" + "Q" * 16,
        "HF_TOKEN": "short",  # too short to be told from ordinary text
        "SESSION_SECRET": "two words are not one credential",  # whitespace
        "TOKENIZERS_PARALLELISM": "false",
        "KEYRING_BACKEND": "keyring.backends.null.Keyring",  # KEY is not a name part here
        "PROJECT_DIR": "projects/someone/with/a/long/path",
    }
    names = [name for name, _ in live_secrets(environ)]
    assert names == [
        "OPENAI_API_KEY",  # the replay placeholder, always first
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "CLIENT_SECRETS",
        "DB_PASSWORD",
        "GITHUB_TOKEN",
        "OPENAI_API_KEY",
        "PGPASSWORD",
    ]
    assert live_secrets({})[0] == ("OPENAI_API_KEY", REPLAY_API_KEY)
    assert live_secrets({"OPENAI_API_KEY": REPLAY_API_KEY}) == live_secrets({})


def test_a_value_is_found_as_a_url_or_a_form_spells_it() -> None:
    key = "q7/Xk+2Lm9Pz/Rt+Wv4Yb8Nc1Hd5Js6Ee0Ff3Gg=="  # base64 characters: / + =
    policy = scrub_policy(None, live_secrets({"OPENAI_API_KEY": key}))
    for spelled in (key, quote(key, safe=""), quote(key), quote_plus(key)):
        assert scrub_text(f"key={spelled}&x=1", policy) == f"key={KEY_PLACEHOLDER}&x=1", spelled


def _base64_decodings(text: str) -> list[bytes]:
    """What ``text`` decodes to from each starting character, in either base64 alphabet."""
    decoded: list[bytes] = []
    for start in range(4):
        for alphabet in (None, b"-_"):
            with contextlib.suppress(ValueError):
                decoded.append(base64.b64decode(text[start:] + "===", altchars=alphabet))
    return decoded


@pytest.mark.parametrize("before", [b"\xff", b"\xff\xfe", b"\xff\xfe\x00", b"\x89PNG\r\n"])
@pytest.mark.parametrize("encode", [base64.b64encode, base64.urlsafe_b64encode])
def test_a_value_inside_base64_of_binary_data_is_found_wherever_it_starts(
    before: bytes, encode: Callable[[bytes], bytes]
) -> None:
    token = "svc_" + "Zq8" * 8  # binary around it: no text to decode and search
    policy = scrub_policy(None, live_secrets({"SERVICE_TOKEN": token}))
    blob = encode(before + token.encode() + b"\xff\x00").decode()
    assert any(token.encode() in data for data in _base64_decodings(blob))
    scrubbed = scrub_text(f'{{"blob": "{blob}"}}', policy)
    assert "REDACTED" in scrubbed
    assert not any(token.encode() in data for data in _base64_decodings(scrubbed[10:-2]))
    cassette = _cassette_with_body({"blob": blob})
    assert [f.kind for f in find_secrets(cassette, policy)] == ["the value of $SERVICE_TOKEN"]


def test_a_value_is_found_in_hex_and_fully_or_twice_percent_encoded_in_any_case() -> None:
    token = "p@ss/" + "Hx9" * 6  # synthetic
    policy = scrub_policy(None, live_secrets({"DB_PASSWORD": token}))
    every_byte = "".join(f"%{byte:02X}" for byte in token.encode())
    twice = quote(quote(token, safe=""), safe="")
    hexed = token.encode().hex()
    for spelled in (every_byte, every_byte.lower(), twice, hexed, hexed.upper(), token.upper()):
        assert scrub_text(f"v={spelled};", policy) == "v=REDACTED;", spelled


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_value_in_a_utf16_body_kept_as_bytes_is_found(encoding: str) -> None:
    token = "svc_" + "Wq2" * 8
    policy = scrub_policy(None, live_secrets({"SERVICE_TOKEN": token}))
    blob = base64.b64encode(f'{{"echo": "{token}"}}'.encode(encoding)).decode()
    scrubbed = scrub_text(blob, policy)
    assert "REDACTED" in scrubbed
    assert not any(token.encode(encoding)[2:] in data for data in _base64_decodings(scrubbed))


def test_the_openai_key_becomes_the_key_placeholder_and_others_redacted() -> None:
    token = "prx." + "TkN" * 8
    policy = scrub_policy(None, live_secrets({"OPENAI_API_KEY": HEX_KEY, "PROXY_TOKEN": token}))
    text = f"key={HEX_KEY} token={token} replay={REPLAY_API_KEY}"
    assert scrub_text(text, policy) == (
        f"key={KEY_PLACEHOLDER} token=REDACTED replay={KEY_PLACEHOLDER}"
    )
    tree = {"error": {"message": f"Invalid API key: {HEX_KEY}"}, "note": [token]}
    assert scrub_tree(tree, policy) == {
        "error": {"message": f"Invalid API key: {KEY_PLACEHOLDER}"},
        "note": ["REDACTED"],
    }
    assert scrub_text(text) == text  # tooltape's own rules alone: no shape matches


def test_a_value_holding_another_is_replaced_whole() -> None:
    inner = "abcdefghijklmnop"
    outer = inner + "qrstuvwxyz012345"
    policy = scrub_policy(None, live_secrets({"A_TOKEN": inner, "B_TOKEN": outer}))
    assert scrub_text(f"[{outer}] [{inner}]", policy) == "[REDACTED] [REDACTED]"


def _cassette_with(response: RecordedResponse) -> Cassette:
    request = RecordedRequest("POST", "https://api.example.test/v1/responses", {}, JsonBody({}))
    header = CassetteHeader("0.1.0", "synthetic", "synthetic: live secrets")
    return Cassette(header, (Interaction(request, response),))


def _cassette_with_body(body: dict[str, object]) -> Cassette:
    return _cassette_with(RecordedResponse(200, "OK", {}, JsonBody(body)))


def test_the_scanner_finds_a_live_value_left_in_a_cassette() -> None:
    cassette = _cassette_with_body({"echo": f"key {HEX_KEY}"})
    policy = scrub_policy(None, live_secrets({"OPENAI_API_KEY": HEX_KEY}))
    [finding] = find_secrets(cassette, policy)
    assert "the value of $OPENAI_API_KEY" in str(finding)
    assert HEX_KEY not in str(finding)
    assert find_secrets(cassette) == []  # no shape of tooltape's own finds it


def test_a_reason_phrase_is_scrubbed_and_scanned() -> None:
    response = RecordedResponse(401, f"Bad key {HEX_KEY}", {}, JsonBody({}))
    cassette = _cassette_with(response)
    policy = scrub_policy(None, live_secrets({"OPENAI_API_KEY": HEX_KEY}))
    [finding] = find_secrets(cassette, policy)
    assert finding.location == "/interactions/0/response/reason"
    assert scrub_response(response, policy).reason == f"Bad key {KEY_PLACEHOLDER}"
    shaped = replace(response, reason="Bad key sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8t")
    assert scrub_response(shaped).reason == f"Bad key {KEY_PLACEHOLDER}"  # a key shape too
    vcr_response = {
        "status": {"code": 401, "message": f"Bad key {HEX_KEY}"},
        "headers": {"content-type": ["application/json"]},
        "body": {"string": b"{}"},
    }
    hooked = ScrubHooks(policy).before_record_response(vcr_response)
    assert hooked["status"]["message"] == f"Bad key {KEY_PLACEHOLDER}"


def test_a_name_holding_a_live_value_in_any_case_is_renamed_and_scanned() -> None:
    token = "prx." + "TkN" * 8
    policy = scrub_policy(None, live_secrets({"PROXY_TOKEN": token}))
    headers = {f"x-echo-{token.lower()}": ("1",), "content-type": ("application/json",)}
    response = RecordedResponse(200, "OK", headers, JsonBody({f"seen {token.upper()}": 1}))
    scrubbed = scrub_response(response, policy)
    assert dict(scrubbed.headers) == {
        "x-echo-REDACTED": ("REDACTED",),
        "content-type": ("application/json",),
    }
    assert scrubbed.body == JsonBody({"seen REDACTED": 1})
    found = find_secrets(_cassette_with(response), policy)
    assert [(f.location, f.kind) for f in found] == [
        ("/interactions/0/response/headers/x-echo-<masked>", "the value of $PROXY_TOKEN in a name"),
        (
            "/interactions/0/response/headers/x-echo-<masked>/0",
            "header outside the safe set, not redacted",
        ),
        ("/interactions/0/response/body/json/seen <masked>", "the value of $PROXY_TOKEN in a key"),
    ]
    assert find_secrets(_cassette_with(scrubbed), policy) == []
