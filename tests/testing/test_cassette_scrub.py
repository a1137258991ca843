"""Scrubbing: credentials are redacted, structure is kept, and the scanner agrees."""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic_interactions import synthetic_interaction
from vcr.request import Request

from tooltape.testing.cassette import (
    Cassette,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    SseEvent,
    TextBody,
    find_secrets,
    is_credential_header,
    parse_sse,
    scrub_cassette,
    scrub_interaction,
    scrub_policy,
    scrub_tree,
)
from tooltape.testing.cassette._scrub import might_need_scrubbing
from tooltape.testing.settings import ScrubSettings
from tooltape.testing.vcr import ScrubHooks, before_record_request, before_record_response

OPENAI_KEY = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" * 2
GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
HEADER = CassetteHeader("0.1.0", "synthetic", "synthetic: test_cassette_scrub")


def _cassette(*interactions: Interaction) -> Cassette:
    return Cassette(HEADER, interactions)


def _shape(tree: object) -> object:
    """A tree's structure without its scalar values."""
    if isinstance(tree, dict):
        return {key: _shape(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [_shape(item) for item in tree]
    return type(tree).__name__


@pytest.mark.parametrize(
    "name",
    [
        "authorization",
        "Authorization",
        "api-key",
        "x-api-key",
        "cookie",
        "set-cookie",
        "openai-organization",
        "openai-project",
        "proxy-authorization",
        "x-goog-api-key",
        "x-auth-token",
        "x-amz-security-token",
    ],
)
def test_credential_headers_are_redacted(name: str) -> None:
    interaction = synthetic_interaction(
        request_headers={name.lower(): ("secret-value-1", "secret-value-2")},
        response_headers={name.lower(): ("secret-value-3",)},
    )
    assert is_credential_header(name)
    scrubbed = scrub_interaction(interaction)
    assert scrubbed.request.headers[name.lower()] == ("REDACTED", "REDACTED")
    assert scrubbed.response.headers[name.lower()] == ("REDACTED",)
    assert find_secrets(_cassette(interaction))  # the scanner sees what was there
    assert find_secrets(_cassette(scrubbed)) == []


@pytest.mark.parametrize(
    "name", ["content-type", "x-ratelimit-remaining-tokens", "openai-version", "x-request-id"]
)
def test_safe_headers_are_kept(name: str) -> None:
    interaction = synthetic_interaction(response_headers={name: ("12345",)})
    assert scrub_interaction(interaction) is interaction


def test_key_shaped_strings_in_safe_headers_are_redacted_in_place() -> None:
    interaction = synthetic_interaction(
        request_headers={
            "user-agent": (f"MyApp/1.0 key={OPENAI_KEY}; v=1",),
            "x-debug": ("key=nothing-key-shaped",),
        }
    )
    scrubbed = scrub_interaction(interaction)
    assert scrubbed.request.headers["user-agent"] == ("MyApp/1.0 key=sk-REDACTED; v=1",)
    assert scrubbed.request.headers["x-debug"] == ("REDACTED",)  # not on the safe list


def test_mcp_headers_and_authorization_in_request_bodies() -> None:
    body = {
        "model": "gpt-5",
        "tools": [
            {"type": "function", "name": "f", "headers": {"keep": "me"}},
            {
                "type": "mcp",
                "server_label": "deepwiki",
                "server_url": "https://mcp.example.test/mcp",
                "headers": {"Authorization": "Basic dXNlcjpwYXNz", "X-Tenant": "acme"},
                "authorization": "opaque-oauth-token",
                "require_approval": "never",
            },
        ],
    }
    original = copy.deepcopy(body)
    scrubbed = scrub_interaction(synthetic_interaction(request_body=body))
    assert isinstance(scrubbed.request.body, JsonBody)
    tools = scrubbed.request.body.data["tools"]  # type: ignore[index]
    assert tools[0] == original["tools"][0]
    assert tools[1] == {
        "type": "mcp",
        "server_label": "deepwiki",
        "server_url": "https://mcp.example.test/mcp",
        "headers": {"Authorization": "REDACTED", "X-Tenant": "REDACTED"},
        "authorization": "REDACTED",
        "require_approval": "never",
    }
    assert list(tools[1]) == list(original["tools"][1])  # key order kept
    assert body == original  # the input was not touched


def test_container_domain_secrets_in_request_bodies() -> None:
    policy = {
        "type": "allowlist",
        "allowed_domains": ["api.example.com"],
        "domain_secrets": [{"domain": "api.example.com", "name": "API_TOKEN", "value": "hunter2"}],
    }
    body = {
        "model": "gpt-5",
        "tools": [
            {"type": "shell", "environment": {"type": "container_auto", "network_policy": policy}}
        ],
    }
    raw = json.dumps(body).encode()
    assert might_need_scrubbing(raw)
    scrubbed = scrub_interaction(synthetic_interaction(request_body=body))
    assert isinstance(scrubbed.request.body, JsonBody)
    assert "hunter2" not in json.dumps(scrubbed.request.body.data)
    wire = scrubbed.request.body.data["tools"][0]["environment"]["network_policy"]  # type: ignore[index]
    assert wire["domain_secrets"] == [
        {"domain": "api.example.com", "name": "API_TOKEN", "value": "REDACTED"}
    ]
    assert wire["allowed_domains"] == ["api.example.com"]
    # the scanner (lint, the write gate) sees the value that was there, and only it
    [finding] = find_secrets(_cassette(synthetic_interaction(request_body=body)))
    assert finding.location == (
        "/interactions/0/request/body/json/tools/0/environment/network_policy/domain_secrets/0/value"
    )
    assert "hunter2" not in finding.excerpt
    assert find_secrets(_cassette(scrubbed)) == []


def test_encrypted_content_is_replaced_everywhere() -> None:
    blob = "gAAAAABoydL8ifhOG-FyLv1LaSVN3jCOFqfiwyNGWqfNc7hfzpL7qrPI9"
    item = {"id": "rs_1", "type": "reasoning", "encrypted_content": blob, "summary": []}
    stream = parse_sse(
        "event: response.output_item.done\n"
        f"data: {json.dumps({'item': item}, separators=(',', ':'))}\n\n"
        "event: odd\n"
        f'data: {{"encrypted_content": "{blob}"}}\n\n'  # not compact: kept as text
    )
    interaction = synthetic_interaction(
        request_body={"input": [item]},
        response_body=stream,
    )
    scrubbed = scrub_interaction(interaction)
    assert isinstance(scrubbed.request.body, JsonBody)
    assert scrubbed.request.body.data == {"input": [{**item, "encrypted_content": "REDACTED"}]}
    wire = scrubbed.response.body.to_bytes().decode()
    assert blob not in wire
    assert '"encrypted_content":"REDACTED"' in wire
    assert '{"encrypted_content": "REDACTED"}' in wire
    # the scanner sees each blob that was there (in the request, in an event's JSON, in
    # an event kept as text), never shows it, and finds nothing once scrubbed
    findings = find_secrets(_cassette(interaction))
    assert [f.location for f in findings] == [
        "/interactions/0/request/body/json/input/0/encrypted_content",
        "/interactions/0/response/body/sse/0/data/item/encrypted_content",
        "/interactions/0/response/body/sse/1/data/encrypted_content",
    ]
    assert all("encrypted content" in f.kind and blob not in f.excerpt for f in findings)
    assert find_secrets(_cassette(scrubbed)) == []


def test_keys_in_urls_are_redacted() -> None:
    interaction = synthetic_interaction(
        uri=(
            f"https://api.example.test/v1/keys/{OPENAI_KEY}/check"
            "?key=AIzaSyA1234567890abcdefghijklmnopqrstuv&api_key=abc123&limit=2&access_token=t0k"
        )
    )
    findings = find_secrets(_cassette(interaction))
    assert {finding.location for finding in findings} == {"/interactions/0/request/uri"}
    kinds = " ".join(finding.kind for finding in findings)
    assert "OpenAI-style key" in kinds  # the key in the path
    assert "query value key, api_key, access_token" in kinds  # limit is on the safe list
    scrubbed = scrub_interaction(interaction)
    assert scrubbed.request.uri == (
        "https://api.example.test/v1/keys/sk-REDACTED/check"
        "?key=REDACTED&api_key=REDACTED&limit=2&access_token=REDACTED"
    )
    assert find_secrets(_cassette(scrubbed)) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"token is {OPENAI_KEY}.", "token is sk-REDACTED."),
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9xyz", "Authorization: Bearer REDACTED"),
        ("bearer abcdefghijklmnop0123", "bearer REDACTED"),
        (
            "__cf_bm=SYNTHETICcookieValue0000000000-17613; _cfuvid=SYNTHETIC_x; a=b",
            "__cf_bm=REDACTED; _cfuvid=REDACTED; a=b",
        ),
        (f"gh: {GITHUB_TOKEN}", "gh: REDACTED"),
        ("aws AKIAABCDEFGHIJKLMNOP end", "aws REDACTED end"),
        # not key-shaped: left alone
        ("Use a Bearer token to authenticate.", "Use a Bearer token to authenticate."),
        ("task-1234 sk-short", "task-1234 sk-short"),
        (
            "iVBORw0Osk-z0QBLQdGtMuFiR00Bs1M_E4T0lMYEsF",
            "iVBORw0Osk-z0QBLQdGtMuFiR00Bs1M_E4T0lMYEsF",
        ),
    ],
)
def test_key_shaped_strings_in_bodies(text: str, expected: str) -> None:
    tree = {"output": [{"type": "message", "text": text}]}
    assert scrub_tree(tree) == {"output": [{"type": "message", "text": expected}]}
    text_body = scrub_interaction(synthetic_interaction(response_body=TextBody(text))).response.body
    assert text_body == TextBody(expected)


def test_clean_interactions_come_back_untouched() -> None:
    interaction = synthetic_interaction(
        request_headers={"content-type": ("application/json",)},
        request_body={"model": "gpt-5", "input": [{"role": "user", "content": "hi"}]},
        response_body=JsonBody({"id": "resp_1", "output": []}),
    )
    assert scrub_interaction(interaction) is interaction
    cassette = _cassette(interaction)
    assert scrub_cassette(cassette) is cassette


def test_structure_is_kept_and_scrubbing_is_idempotent() -> None:
    body = {
        "a": [OPENAI_KEY, {"encrypted_content": "blob", "n": 1}],
        "tools": [{"type": "mcp", "headers": {"h": "v"}, "authorization": "x"}],
        "t": f"Bearer {OPENAI_KEY}",
    }
    interaction = synthetic_interaction(
        request_headers={"authorization": (f"Bearer {OPENAI_KEY}",)},
        request_body=body,
        response_headers={"set-cookie": ("a=1", "b=2")},
    )
    once = scrub_interaction(interaction)
    assert isinstance(once.request.body, JsonBody)
    assert _shape(once.request.body.data) == _shape(body)
    assert once.response.headers["set-cookie"] == ("REDACTED", "REDACTED")
    twice = scrub_interaction(once)
    assert twice == once
    assert twice is once  # nothing left to change: the same object


def test_findings_name_the_place_and_mask_the_value() -> None:
    interaction = synthetic_interaction(
        request_headers={"authorization": (f"Bearer {OPENAI_KEY}",)},
        request_body={"input": [{"content": f"my key is {OPENAI_KEY}"}]},
        response_body=SseBody((SseEvent("x", {"item": {"note": OPENAI_KEY}}),)),
    )
    findings = find_secrets(_cassette(interaction))
    by_location = {finding.location: finding for finding in findings}
    assert set(by_location) == {
        "/interactions/0/request/headers/authorization/0",
        "/interactions/0/request/body/json/input/0/content",
        "/interactions/0/response/body/sse/0/data/item/note",
    }
    assert by_location["/interactions/0/request/headers/authorization/0"].kind == (
        "header outside the safe set, not redacted"
    )
    assert by_location["/interactions/0/request/body/json/input/0/content"].kind == (
        "OpenAI-style key"
    )
    for finding in findings:
        assert finding.excerpt.startswith("… (")  # a length, never a character of the value
        assert OPENAI_KEY[:4] not in finding.excerpt


def test_a_credential_fields_value_is_hidden_whatever_its_type() -> None:
    tree = {
        "APIKEY": 1234,
        "api_key": 0.5,
        "access-token": True,
        "client_secret": None,
        "password": ["x", 7],
    }
    assert scrub_tree(tree) == {
        "APIKEY": "REDACTED",  # a number may be a credential too
        "api_key": "REDACTED",
        "access-token": True,  # a flag or a null says nothing secret
        "client_secret": None,
        "password": ["REDACTED", "REDACTED"],  # a container keeps its shape
    }


# --- properties -----------------------------------------------------------------------

_KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_keys = st.builds(
    lambda prefix, tail: prefix + tail,
    st.sampled_from(["sk-", "sk-proj-", "sk-svcacct-"]),
    st.text(alphabet=_KEY_CHARS, min_size=20, max_size=60),
)
_json_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
# Field names that are not credentials': a credential field's number becomes the
# REDACTED string by design (test_a_credential_fields_value_is_hidden_whatever_its_type).
_field_names = st.text(max_size=8).filter(lambda name: not scrub_policy().is_secret_field(name))
_json_trees = st.recursive(
    _json_leaves,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(_field_names, children, max_size=4)
    ),
    max_leaves=25,
)
_separators = st.sampled_from([" ", "\n", '"', "'", "=", ":", "/", "(", ",", "?key=", "Bearer "])


def _insert(tree: object, secret: str, path: list[int]) -> object:
    """Put ``secret`` somewhere in ``tree``, chosen by ``path``."""
    if isinstance(tree, dict) and tree and path:
        key = list(tree)[path[0] % len(tree)]
        return {**tree, key: _insert(tree[key], secret, path[1:])}
    if isinstance(tree, list) and tree and path:
        index = path[0] % len(tree)
        return [*tree[:index], _insert(tree[index], secret, path[1:]), *tree[index + 1 :]]
    if isinstance(tree, dict):
        return {**tree, "inserted": secret}
    if isinstance(tree, list):
        return [*tree, secret]
    return secret


@settings(max_examples=300)
@given(
    tree=_json_trees,
    key=_keys,
    before=st.text(max_size=10),
    separator=_separators,
    after=st.text(max_size=10),
    path=st.lists(st.integers(min_value=0, max_value=50), max_size=6),
)
def test_an_inserted_key_never_survives_scrubbing(
    tree: object, key: str, before: str, separator: str, after: str, path: list[int]
) -> None:
    secret = before + separator + key + after
    dirty = _insert(tree, secret, path)
    scrubbed = scrub_tree(dirty)
    assert key not in json.dumps(scrubbed, ensure_ascii=False)
    assert _shape(scrubbed) == _shape(dirty)
    assert scrub_tree(scrubbed) == scrubbed
    # the scanner finds it before, and nothing after, in any body position
    dirty_cassette = _cassette(
        synthetic_interaction(request_body=dirty, response_body=SseBody((SseEvent("e", [dirty]),)))
    )
    assert len(find_secrets(dirty_cassette)) >= 2
    clean = scrub_cassette(dirty_cassette)
    assert find_secrets(clean) == []
    assert key not in clean.interactions[0].response.body.to_bytes().decode()


# --- vcrpy hooks ----------------------------------------------------------------------


@settings(max_examples=200)
@given(
    tree=_json_trees,
    key=_keys,
    separator=_separators,
    path=st.lists(st.integers(min_value=0, max_value=50), max_size=6),
    ascii_only=st.booleans(),
)
def test_the_vcrpy_hooks_never_let_an_inserted_key_through(
    tree: object, key: str, separator: str, path: list[int], ascii_only: bool
) -> None:
    # The hooks skip parsing bodies a literal search calls clean: that search
    # must never miss what the full walk would have redacted.
    raw = json.dumps(_insert(tree, separator + key, path), ensure_ascii=ascii_only).encode()
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", raw, {}))
    assert key.encode() not in request.body
    response = before_record_response(
        {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": raw}}
    )
    assert key.encode() not in response["body"]["string"]


def test_a_key_spelled_with_json_escapes_is_still_redacted() -> None:
    escaped = "\\u0073\\u006b" + OPENAI_KEY[2:]  # "sk-..." with s and k as \u escapes
    raw = ('{"input": "' + escaped + '"}').encode()
    assert json.loads(raw) == {"input": OPENAI_KEY}
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", raw, {}))
    assert json.loads(request.body) == {"input": "sk-REDACTED"}
    response = before_record_response(
        {"status": {"code": 200, "message": "OK"}, "headers": {}, "body": {"string": raw}}
    )
    assert json.loads(response["body"]["string"]) == {"input": "sk-REDACTED"}
    # the scanner sees through the escapes too, and the scrubbed body is clean
    kept_as_text = Interaction(
        RecordedRequest("POST", "https://api.example.test/v1/x", {}, TextBody(raw.decode())),
        RecordedResponse(200, "OK", {}, EmptyBody()),
    )
    [finding] = find_secrets(_cassette(kept_as_text))
    assert finding.location == "/interactions/0/request/body/text"
    assert find_secrets(scrub_cassette(_cassette(kept_as_text))) == []


def test_before_record_request_hook() -> None:
    body = json.dumps({"tools": [{"type": "mcp", "authorization": "tok"}]}).encode()
    request = Request(
        "POST",
        "https://api.example.test/v1/responses?api_key=abc",
        body,
        {"Authorization": f"Bearer {OPENAI_KEY}", "Content-Type": "application/json"},
    )
    scrubbed = before_record_request(request)
    assert scrubbed is not request
    assert request.headers["Authorization"] == f"Bearer {OPENAI_KEY}"  # original untouched
    assert request.body == body
    assert scrubbed.headers["authorization"] == "REDACTED"
    assert scrubbed.uri == "https://api.example.test/v1/responses?api_key=REDACTED"
    assert json.loads(scrubbed.body) == {"tools": [{"type": "mcp", "authorization": "REDACTED"}]}
    assert before_record_request(scrubbed) is scrubbed  # idempotent
    clean = Request("GET", "https://api.example.test/v1/models", b"", {"accept": "*/*"})
    assert before_record_request(clean) is clean


def test_the_request_hook_remembers_body_and_uri_checks_by_value_only() -> None:
    hooks = ScrubHooks()
    body = json.dumps({"model": "gpt-5", "input": "hi", "pin": "4321"}).encode()
    uri = "https://api.example.test/v1/responses"
    first = Request("POST", uri, body, {"accept": "*/*"})
    assert hooks.before_record_request(first) is first
    # Equal body and URI in other objects: each clean request is returned as itself...
    again = Request("POST", uri[:-1] + uri[-1], bytes(bytearray(body)), {"accept": "*/*"})
    assert hooks.before_record_request(again) is again
    # ...and what the body and URI do not say is still checked on every request.
    keyed = Request("POST", uri, bytes(bytearray(body)), {"Authorization": f"Bearer {OPENAI_KEY}"})
    assert hooks.before_record_request(keyed).headers["authorization"] == "REDACTED"
    leaked = Request("POST", f"{uri}?key={OPENAI_KEY}", body, {"accept": "*/*"})
    scrubbed = hooks.before_record_request(leaked)
    assert OPENAI_KEY not in scrubbed.uri
    assert hooks.before_record_request(Request("POST", leaked.uri, body, {})).uri == scrubbed.uri
    # Another policy decides for itself: "pin" is a secret field of this project.
    project = ScrubHooks(scrub_policy(ScrubSettings(secret_body_fields=("pin",))))
    fields = json.loads(project.before_record_request(Request("POST", uri, body, {})).body)
    assert fields["pin"] == "REDACTED"


def test_the_request_hook_remembers_a_bounded_number_of_checks() -> None:
    hooks = ScrubHooks()
    for index in range(1100):
        body = json.dumps({"input": f"turn {index}"}).encode()
        request = Request("POST", f"https://api.example.test/v1/r/{index}", body, {})
        assert hooks.before_record_request(request) is request
    assert 0 < len(hooks._verdicts) <= 1024  # pyright: ignore[reportPrivateUsage]
    assert 0 < len(hooks._uris) <= 1024  # pyright: ignore[reportPrivateUsage]


def test_the_request_hook_keeps_a_bounded_size_of_bodies() -> None:
    # Inline images make requests of megabytes: remembering a thousand of them would
    # hold gigabytes. Twenty 1 MiB bodies are checked; at most 16 MiB is kept.
    hooks = ScrubHooks()
    for index in range(20):
        body = json.dumps({"input": f"{index:02d}" + "A" * (1 << 20)}).encode()
        request = Request("POST", "https://api.example.test/v1/responses", body, {})
        assert hooks.before_record_request(request) is request
    kept = hooks._verdicts._found  # pyright: ignore[reportPrivateUsage]
    assert 0 < len(kept) < 20
    assert sum(len(cast(bytes, body)) for body in kept) <= 16 * 1024 * 1024
    # A body larger than the whole bound is checked every time, never kept.
    huge = json.dumps({"input": "B" * (17 << 20)}).encode()
    hooks.before_record_request(Request("POST", "https://api.example.test/v1/r", huge, {}))
    assert huge not in kept and huge not in hooks._verdicts._found  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize("note", ["nothing secret", f"leaked {OPENAI_KEY}"])
def test_before_record_request_decodes_a_compressed_body_with_its_headers(note: str) -> None:
    payload = json.dumps({"note": note}).encode()
    request = Request(
        "POST",
        "https://api.example.test/v1/responses",
        gzip.compress(payload),
        {"Authorization": f"Bearer {OPENAI_KEY}", "Content-Encoding": "gzip"},
    )
    scrubbed = before_record_request(request)
    assert "content-encoding" not in scrubbed.headers  # dropped only with the body decoded
    assert json.loads(scrubbed.body) == {"note": note.replace(OPENAI_KEY, "sk-REDACTED")}
    assert scrubbed.headers["authorization"] == "REDACTED"


def test_before_record_response_hook_decodes_and_scrubs() -> None:
    payload = json.dumps({"note": f"leaked {OPENAI_KEY}"}).encode()
    response = {
        "status": {"code": 200, "message": "OK"},
        "headers": {
            "Content-Type": ["application/json"],
            "Content-Encoding": ["gzip"],
            "Set-Cookie": ["__cf_bm=abc; path=/", "_cfuvid=def; path=/"],
        },
        "body": {"string": gzip.compress(payload)},
    }
    scrubbed = before_record_response(response)
    assert json.loads(scrubbed["body"]["string"]) == {"note": "leaked sk-REDACTED"}
    assert scrubbed["headers"]["set-cookie"] == ["REDACTED", "REDACTED"]
    assert "content-encoding" not in scrubbed["headers"]
    assert scrubbed["status"] == {"code": 200, "message": "OK"}
    plain = {
        "status": {"code": 200, "message": "OK"},
        "headers": {"content-type": ["application/json"]},
        "body": {"string": b'{"ok": true}'},
    }
    assert before_record_response(plain) is plain


def test_the_response_hook_redacts_encrypted_content_and_skips_what_is_redacted() -> None:
    def response(value: str) -> dict[str, Any]:
        item = {"type": "reasoning", "encrypted_content": value}
        return {
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": ["application/json"]},
            "body": {"string": json.dumps({"output": [item]}).encode()},
        }

    fresh = before_record_response(response("gAAAAABopaque"))
    assert json.loads(fresh["body"]["string"])["output"][0]["encrypted_content"] == "REDACTED"
    for already in (response("REDACTED"), response("")):
        assert before_record_response(already) is already
