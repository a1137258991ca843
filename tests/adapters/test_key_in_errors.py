"""The client's API key never reaches an evaluation error, whatever the provider echoes.

A compatible provider (or a proxy in front of one) may put the key it was sent
into its error message, as OpenAI once did before it masked keys. The
``PromptEvaluationError`` that reports it, its ``provider_payload`` and the
SDK exception chained under it are all printed by a traceback: the key is
replaced in each. Every body here is synthetic.
"""

from __future__ import annotations

import traceback

import openai
import pytest

from tooltape import MarkdownSection, Prompt, PromptEvaluationError
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

KEY = "sk-proj-TRIALKEY0123456789abcdefABCDEF"
ECHOED = {"error": {"message": f"Incorrect API key provided: {KEY}.", "code": "invalid_api_key"}}


def evaluate(provider: LoopbackProvider, reply: LoopbackReply) -> PromptEvaluationError:
    provider.queue(reply)
    client = openai.OpenAI(api_key=KEY, base_url=provider.base_url, max_retries=0)
    prompt: Prompt[None] = Prompt(
        ns="tests", key="keyed", sections=[MarkdownSection(title="T", template="go")]
    )
    with pytest.raises(PromptEvaluationError) as caught:
        OpenAIAdapter("gpt-4o", client=client).evaluate(prompt)
    return caught.value


@pytest.mark.parametrize(
    "reply",
    [
        LoopbackReply.json(
            {
                "error": {
                    "message": f"Incorrect API key provided: {KEY}.",
                    "code": "invalid_api_key",
                }
            },
            status=401,
        ),
        LoopbackReply(status=502, body=f"<html>upstream refused key {KEY}</html>".encode()),
        LoopbackReply.json(
            {
                "id": "resp_1",
                "status": "failed",
                "output": [],
                "error": {"code": "server_error", "message": f"key {KEY} is not allowed"},
            }
        ),
        LoopbackReply(body=f'{{"output": [], "note": "{KEY}"'.encode()),
    ],
    ids=["401-json", "502-html", "failed-response", "truncated-body"],
)
def test_an_echoed_key_is_redacted_in_the_error_its_payload_and_its_cause(
    provider: LoopbackProvider, reply: LoopbackReply
) -> None:
    error = evaluate(provider, reply)

    printed = "".join(traceback.format_exception(error))
    assert KEY not in printed
    assert KEY not in repr(error.provider_payload)
    # the place the key was is still shown
    assert "REDACTED" in str(error) + repr(error.provider_payload)


def test_what_the_provider_said_around_the_key_is_kept(provider: LoopbackProvider) -> None:
    error = evaluate(
        provider,
        LoopbackReply.json(
            {
                "error": {
                    "message": f"Incorrect API key provided: {KEY}.",
                    "code": "invalid_api_key",
                }
            },
            status=401,
        ),
    )

    assert error.phase == "request"
    assert "HTTP 401" in str(error)
    assert "invalid_api_key: Incorrect API key provided: REDACTED." in str(error)
    assert error.provider_payload == {
        "message": "Incorrect API key provided: REDACTED.",
        "code": "invalid_api_key",
    }
    assert isinstance(error.__cause__, openai.AuthenticationError)
