"""Key-shaped strings are found anywhere: each family, through JSON escapes, inside
base64 text, and across the events of a stream.

Every key below is synthetic: the right shape, never a real credential.
"""

from __future__ import annotations

import base64
import json

import pytest
from vcr.request import Request

from tooltape.testing.cassette import (
    BinaryBody,
    Body,
    Cassette,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    TextBody,
    find_secrets,
    parse_sse,
    scrub_body,
    scrub_tree,
)
from tooltape.testing.vcr import before_record_request, before_record_response

HEADER = CassetteHeader("0.1.0", "synthetic", "synthetic: test_scrub_key_shapes")

FAMILIES = {
    "OpenAI-style key": "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8t",
    "Anthropic API key": "sk-ant-api03-" + "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1",
    "Stripe secret key": "sk_live_" + "51HqLx2eZvKYlo2C0aBcDeFg",
    "Stripe secret key ": "rk_live_" + "51HqLx2eZvKYlo2C0aBcDeFg",
    "Slack token": "xoxb-" + "2468013579-1357924680-AbCdEfGhIjKl",
    "AWS access key id": "ASIA" + "QWERTYUIOPASDFGH",
    "AWS access key id ": "AKIA" + "ZXCVBNMLKJHGFDSA",
    "Hugging Face token": "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "GitLab token": "glpat-" + "xY7wV6uT5sR4qP3oN2mL",
    "GitHub token": "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "Google API key": "AIza" + "SyA1234567890abcdefghijklmnopqrstuv",
    "npm token": "npm_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "JSON web token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXBhcnQ",
    "OpenAI organization id": "org-" + "5OS1KcLJzyWwsx4ok7HaNG8Z",
    "OpenAI project id": "proj_" + "kGBnNoxZLwrofr0DRC3DVVYV",
}


def _cassette(request_body: Body, response_body: Body = EmptyBody()) -> Cassette:  # noqa: B008
    return Cassette(
        HEADER,
        (
            Interaction(
                RecordedRequest("POST", "https://api.example.test/v1/responses", {}, request_body),
                RecordedResponse(200, "OK", {}, response_body),
            ),
        ),
    )


@pytest.mark.parametrize(("kind", "key"), list(FAMILIES.items()))
def test_every_family_is_found_and_redacted(kind: str, key: str) -> None:
    tree = {"input": f"my credential: {key}; keep it safe"}
    [finding] = find_secrets(_cassette(JsonBody(tree)))
    assert finding.kind == kind.strip()
    assert key[:6] not in finding.excerpt
    scrubbed = scrub_tree(tree)
    assert key not in json.dumps(scrubbed)
    assert "keep it safe" in json.dumps(scrubbed)
    assert find_secrets(_cassette(JsonBody(scrubbed))) == []


@pytest.mark.parametrize(
    "text",
    [
        "task-12345678901234567890123 is done",  # "sk-" inside a word
        "call hf_hub_download_for_the_model_weights_here()",
        "the sk_live_ prefix marks a live Stripe key",
        "AKIA is how AWS access key ids start",
        "xoxb- tokens belong to Slack bots",
        "glpat-short",
    ],
)
def test_look_alikes_are_left_alone(text: str) -> None:
    assert scrub_tree({"text": text}) == {"text": text}
    assert find_secrets(_cassette(JsonBody({"text": text}))) == []


# A shape every version knew: a test fails for the way the key hides, not for its family.
KEY = FAMILIES["OpenAI-style key"]


def test_a_key_after_an_escaped_newline_in_json_text_is_found() -> None:
    # A function call's arguments are JSON text: "\n" is two characters there.
    arguments = json.dumps({"note": f"first line\n{KEY}"})
    assert "\\n" + KEY in arguments
    tree = {"output": [{"type": "function_call", "name": "save", "arguments": arguments}]}
    [finding] = find_secrets(_cassette(JsonBody(tree)))
    assert finding.location == "/interactions/0/request/body/json/output/0/arguments"
    scrubbed = scrub_tree(tree)
    assert isinstance(scrubbed, dict)
    saved = json.loads(scrubbed["output"][0]["arguments"])  # type: ignore[index]
    assert saved == {"note": "first line\nsk-REDACTED"}  # still valid JSON text


@pytest.mark.parametrize(
    "escaped",
    [
        "\\u0073\\u006b" + KEY[2:],  # s and k spelled as escapes
        "x\\t" + KEY,
        "\\\\n" + KEY,  # an escaped backslash, then n: escapes within escapes
    ],
)
def test_keys_behind_json_escapes_are_found_in_text_bodies(escaped: str) -> None:
    text = 'log, cut short: {"input": "' + escaped + '", "more": '  # not a JSON document
    body = TextBody(text)
    assert find_secrets(_cassette(body))
    scrubbed = scrub_body(body)
    assert isinstance(scrubbed, TextBody)
    assert KEY[8:] not in scrubbed.text
    assert find_secrets(_cassette(scrubbed)) == []


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_base64_that_decodes_to_text_is_searched_and_stays_base64() -> None:
    payload = _b64(f"# notes\napi key = {KEY}\n")
    tree = {"file_data": f"data:text/plain;base64,{payload}"}
    [finding] = find_secrets(_cassette(JsonBody(tree)))
    assert finding.kind == "OpenAI-style key in base64"
    scrubbed = scrub_tree(tree)
    assert isinstance(scrubbed, dict)
    data_url = scrubbed["file_data"]
    assert isinstance(data_url, str) and data_url.startswith("data:text/plain;base64,")
    assert (
        base64.b64decode(data_url.split(",", 1)[1]).decode() == "# notes\napi key = sk-REDACTED\n"
    )
    assert find_secrets(_cassette(JsonBody(scrubbed))) == []


def test_base64_that_is_not_text_is_left_alone() -> None:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4).decode()
    tree = {"result": png}
    assert scrub_tree(tree) is tree


def test_a_binary_body_holding_a_key_is_reported_not_rewritten() -> None:
    body = BinaryBody(b"\x00\x01" + KEY.encode() + b"\xff")
    assert scrub_body(body) is body  # bytes are never edited in place
    [finding] = find_secrets(_cassette(EmptyBody(), body))
    assert finding.location == "/interactions/0/response/body/base64"


def _stream(*deltas: str, event: str = "response.output_text.delta") -> SseBody:
    blocks = [
        f"event: {event}\ndata: "
        + json.dumps(
            {"type": event, "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": d},
            separators=(",", ":"),
            ensure_ascii=False,
        )
        + "\n\n"
        for d in deltas
    ]
    done = {"type": "response.output_text.done", "text": "".join(deltas)}
    blocks.append(
        "event: response.output_text.done\ndata: "
        + json.dumps(done, separators=(",", ":"), ensure_ascii=False)
        + "\n\n"
    )
    return parse_sse("".join(blocks))


def _deltas(body: Body) -> list[str]:
    assert isinstance(body, SseBody)
    return [e.data["delta"] for e in body.events if isinstance(e.data, dict) and "delta" in e.data]  # type: ignore[misc]


def test_a_key_split_across_stream_deltas_is_redacted_in_every_event_holding_a_piece() -> None:
    pieces = ["Your key is ", KEY[:5], KEY[5:15], KEY[15:], " — keep it."]
    body = _stream(*pieces)
    assert all(KEY not in piece for piece in pieces)
    findings = find_secrets(_cassette(EmptyBody(), body))
    split = [f for f in findings if "split across events" in f.kind]
    assert [(f.location, f.kind) for f in split] == [
        (
            "/interactions/0/response/body/sse/1/data/delta",
            "OpenAI-style key split across events 1-3",
        )
    ]
    scrubbed = scrub_body(body)
    assert _deltas(scrubbed) == ["Your key is ", "sk-REDACTED", "", "", " — keep it."]
    assert isinstance(scrubbed, SseBody)
    assert parse_sse(scrubbed.to_text()) == scrubbed  # still a stream that replays as written
    assert find_secrets(_cassette(EmptyBody(), scrubbed)) == []
    assert scrub_body(scrubbed) is scrubbed


def test_function_call_arguments_split_across_deltas_are_redacted() -> None:
    arguments = json.dumps({"token": f"line\n{KEY}"})
    cut = arguments.index(KEY) + 4
    body = _stream(arguments[:cut], arguments[cut:], event="response.function_call_arguments.delta")
    scrubbed = scrub_body(body)
    assert json.loads("".join(_deltas(scrubbed))) == {"token": "line\nsk-REDACTED"}


def test_chat_completions_deltas_are_reassembled_too() -> None:
    chunks = [
        {"choices": [{"index": 0, "delta": {"content": piece}}]} for piece in (KEY[:9], KEY[9:])
    ]
    body = parse_sse("".join(f"data: {json.dumps(c, separators=(',', ':'))}\n\n" for c in chunks))
    scrubbed = scrub_body(body)
    assert isinstance(scrubbed, SseBody)
    contents = [e.data["choices"][0]["delta"]["content"] for e in scrubbed.events]  # type: ignore[index]
    assert contents == ["sk-REDACTED", ""]


def test_the_response_hook_redacts_a_split_key_in_recorded_stream_bytes() -> None:
    raw = _stream("key: ", KEY[:12], KEY[12:]).to_bytes()
    response = before_record_response(
        {
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": ["text/event-stream; charset=utf-8"]},
            "body": {"string": raw},
        }
    )
    recorded = response["body"]["string"].decode()
    assert KEY[:12] not in recorded and KEY[12:] not in recorded
    assert "key: sk-REDACTED" in recorded


def test_the_request_hook_finds_a_key_inside_base64_without_a_literal_needle() -> None:
    body = json.dumps({"file_data": "data:text/plain;base64," + _b64(f"key={KEY}")}).encode()
    request = before_record_request(Request("POST", "https://api.example.test/v1/x", body, {}))
    data_url = json.loads(request.body)["file_data"]
    assert base64.b64decode(data_url.split(",", 1)[1]) == b"key=sk-REDACTED"


def test_a_rate_limit_message_keeps_no_organization_or_project_id() -> None:
    """The ids the openai-organization and openai-project headers carry (redacted there)
    are in a 429's message too."""
    message = (
        f"Rate limit reached for gpt-4o in organization {FAMILIES['OpenAI organization id']} "
        f"(project {FAMILIES['OpenAI project id']}) on tokens per min (TPM): Limit 30000."
    )

    scrubbed = scrub_tree({"error": {"message": message, "type": "tokens"}})

    assert scrubbed == {
        "error": {
            "message": "Rate limit reached for gpt-4o in organization org-REDACTED "
            "(project proj_REDACTED) on tokens per min (TPM): Limit 30000.",
            "type": "tokens",
        }
    }


@pytest.mark.parametrize(
    "text",
    [
        "org-chart-for-the-whole-company-2024",
        "the org-abcdefghijklmnopqrstuvwx slug",
        "proj_ABCDEFGHIJKLMNOPQRSTUVWX",
        "myorg-5OS1KcLJzyWwsx4ok7HaNG8Z",
        "proj_kGBnNoxZLwrofr0DRC3DVVYVextra",
    ],
)
def test_what_only_looks_like_an_organization_or_project_id_is_kept(text: str) -> None:
    assert scrub_tree(text) == text
