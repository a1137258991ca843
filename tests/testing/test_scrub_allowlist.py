"""Scrubbing is an allowlist: header and query values are kept only for named safe names.

Every value here is synthetic; the canaries stand for whatever a user's
gateway, proxy or tool puts in a header, a URL or a body field.
"""

from __future__ import annotations

import pytest
from synthetic_interactions import synthetic_interaction

from tooltape.testing.cassette import (
    Cassette,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    TextBody,
    find_secrets,
    scrub_interaction,
    scrub_policy,
)
from tooltape.testing.settings import ScrubSettings

CANARY = "canary-7f3e9b1c"
HEADER = CassetteHeader("0.1.0", "synthetic", "synthetic: test_scrub_allowlist")


def _cassette(interaction: Interaction) -> Cassette:
    return Cassette(HEADER, (interaction,))


@pytest.mark.parametrize(
    "name", ["ocp-apim-subscription-key", "x-custom-auth", "apikey", "x-api-secret", "x-tenant"]
)
def test_a_header_outside_the_safe_set_is_redacted_whatever_its_name(name: str) -> None:
    interaction = synthetic_interaction(
        request_headers={name: (CANARY,)}, response_headers={name: (CANARY, "")}
    )
    assert find_secrets(_cassette(interaction))
    scrubbed = scrub_interaction(interaction)
    assert scrubbed.request.headers[name] == ("REDACTED",)
    assert scrubbed.response.headers[name] == ("REDACTED", "")  # an empty value stays empty
    assert find_secrets(_cassette(scrubbed)) == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("content-type", "application/json"),
        ("x-request-id", "req_8c1f"),
        ("x-ratelimit-remaining-tokens", "149984"),
        ("openai-processing-ms", "1811"),
        ("retry-after", "2"),
        ("x-stainless-retry-count", "1"),
        ("user-agent", "OpenAI/Python 2.3.0"),
    ],
)
def test_safe_headers_keep_their_values(name: str, value: str) -> None:
    interaction = synthetic_interaction(
        request_headers={name: (value,)}, response_headers={name: (value,)}
    )
    assert scrub_interaction(interaction) is interaction
    assert find_secrets(_cassette(interaction)) == []


def test_project_safe_headers_keep_their_values_by_name_or_prefix() -> None:
    policy = scrub_policy(ScrubSettings(safe_headers=("X-Trace-Id", "x-acme-*")))
    interaction = synthetic_interaction(
        request_headers={
            "x-trace-id": ("trace-1",),
            "x-acme-region": ("eu-1",),
            "x-other": (CANARY,),
        }
    )
    scrubbed = scrub_interaction(interaction, policy)
    assert scrubbed.request.headers == {
        "x-trace-id": ("trace-1",),
        "x-acme-region": ("eu-1",),
        "x-other": ("REDACTED",),
    }
    assert find_secrets(_cassette(scrubbed), policy) == []
    # Without the project's names those values would be refused.
    assert len(find_secrets(_cassette(scrubbed))) == 2


@pytest.mark.parametrize("masked", ["REDACTED", "XXXXXX", "[FILTERED]", "<redacted>", "***"])
def test_a_value_already_masked_is_not_reported_and_scrubs_to_the_one_placeholder(
    masked: str,
) -> None:
    interaction = synthetic_interaction(response_headers={"openai-organization": (masked,)})
    assert find_secrets(_cassette(interaction)) == []
    scrubbed = scrub_interaction(interaction)
    assert scrubbed.response.headers["openai-organization"] == ("REDACTED",)


def test_url_userinfo_and_every_query_value_outside_the_safe_set_are_redacted() -> None:
    uri = (
        f"http://user:{CANARY}@gateway.example.test/v1/responses"
        f"?custom_q={CANARY}&limit=5&after=resp_1&include[]=x&sig={CANARY}#access_token={CANARY}"
    )
    interaction = synthetic_interaction(uri=uri)
    [finding] = find_secrets(_cassette(interaction))
    assert finding.location == "/interactions/0/request/uri"
    assert finding.kind == "URL userinfo and query value custom_q, sig, access_token"
    assert CANARY not in finding.excerpt
    scrubbed = scrub_interaction(interaction)
    assert scrubbed.request.uri == (
        "http://REDACTED@gateway.example.test/v1/responses"
        "?custom_q=REDACTED&limit=5&after=resp_1&include[]=x&sig=REDACTED#access_token=REDACTED"
    )
    assert find_secrets(_cassette(scrubbed)) == []


def test_a_bare_query_value_has_no_name_to_allow_and_is_redacted() -> None:
    scrubbed = scrub_interaction(
        synthetic_interaction(uri=f"https://h.example.test/v1/x?{CANARY}&stream")
    )
    assert scrubbed.request.uri == "https://h.example.test/v1/x?REDACTED&stream"


def test_urls_inside_bodies_lose_userinfo_and_query_values() -> None:
    mcp = {
        "type": "mcp",
        "server_label": "tickets",
        "server_url": f"https://mcp.example.test/mcp?token={CANARY}&region=eu",
        "require_approval": "never",
    }
    interaction = synthetic_interaction(
        request_body={"tools": [mcp], "input": f"fetch https://bot:{CANARY}@git.example.test/x"},
        # the API echoes the tools it was sent
        response_body=JsonBody({"tools": [mcp], "output": []}),
    )
    findings = find_secrets(_cassette(interaction))
    assert {f.location for f in findings} == {
        "/interactions/0/request/body/json/tools/0/server_url",
        "/interactions/0/request/body/json/input",
        "/interactions/0/response/body/json/tools/0/server_url",
    }
    scrubbed = scrub_interaction(interaction)
    assert isinstance(scrubbed.request.body, JsonBody)
    request = scrubbed.request.body.data
    assert request == {
        "tools": [
            {**mcp, "server_url": "https://mcp.example.test/mcp?token=REDACTED&region=REDACTED"}
        ],
        "input": "fetch https://REDACTED@git.example.test/x",
    }
    assert find_secrets(_cassette(scrubbed)) == []


def test_citation_urls_keep_their_campaign_tags_and_safe_parameters() -> None:
    body = {
        "output": [
            {
                "type": "message",
                "content": [
                    {
                        "type": "output_text",
                        "text": "See https://weather.gov/sf?utm_source=openai.",
                        "annotations": [
                            {
                                "type": "url_citation",
                                "url": "https://weather.gov/sf?utm_source=openai",
                            }
                        ],
                    }
                ],
            }
        ]
    }
    interaction = synthetic_interaction(response_body=JsonBody(body))
    assert scrub_interaction(interaction) is interaction


def test_project_safe_query_params_are_kept() -> None:
    policy = scrub_policy(ScrubSettings(safe_query_params=("page", "q_*")))
    interaction = synthetic_interaction(
        uri=f"https://h.example.test/v1/x?page=2&q_lang=en&key={CANARY}"
    )
    scrubbed = scrub_interaction(interaction, policy)
    assert scrubbed.request.uri == "https://h.example.test/v1/x?page=2&q_lang=en&key=REDACTED"


def test_secret_body_fields_are_redacted_wherever_they_appear() -> None:
    policy = scrub_policy(ScrubSettings(secret_body_fields=("Customer-PIN",)))
    body = {
        "metadata": {"password": CANARY, "customer_pin": 4321, "note": "kept"},
        "items": [{"CUSTOMER_PIN": [1, "x", None, True]}],
    }
    interaction = synthetic_interaction(request_body=body)
    assert {f.kind for f in find_secrets(_cassette(interaction), policy)} == {"secret body field"}
    scrubbed = scrub_interaction(interaction, policy)
    assert isinstance(scrubbed.request.body, JsonBody)
    assert scrubbed.request.body.data == {
        "metadata": {"password": "REDACTED", "customer_pin": "REDACTED", "note": "kept"},
        "items": [{"CUSTOMER_PIN": ["REDACTED", "REDACTED", None, True]}],
    }
    assert find_secrets(_cassette(scrubbed), policy) == []
    assert scrub_interaction(scrubbed, policy) is scrubbed


def test_secret_fields_in_json_kept_as_text_are_redacted_too() -> None:
    text = '{"client_secret": "' + CANARY + '", "grant_type": "client_credentials"}'
    interaction = Interaction(
        RecordedRequest("POST", "https://auth.example.test/token", {}, TextBody(text)),
        RecordedResponse(200, "OK", {}, EmptyBody()),
    )
    [finding] = find_secrets(_cassette(interaction))
    assert finding.kind == "secret body field"
    scrubbed = scrub_interaction(interaction)
    assert isinstance(scrubbed.request.body, TextBody)
    assert CANARY not in scrubbed.request.body.text
    assert find_secrets(_cassette(scrubbed)) == []


def test_project_secret_patterns_are_redacted_and_refused() -> None:
    policy = scrub_policy(ScrubSettings(secret_patterns=("acme_[0-9a-f]{16}",)))
    token = "acme_0123456789abcdef"
    interaction = synthetic_interaction(request_body={"input": f"use {token} please"})
    assert find_secrets(_cassette(interaction)) == []  # tooltape alone does not know the shape
    [finding] = find_secrets(_cassette(interaction), policy)
    assert finding.kind == "project secret pattern #1"
    scrubbed = scrub_interaction(interaction, policy)
    assert isinstance(scrubbed.request.body, JsonBody)
    assert scrubbed.request.body.data == {"input": "use REDACTED please"}
