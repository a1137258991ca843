"""Evaluate a prompt carrying one tool against a scripted provider and see what was sent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tooltape import Prompt, Section, Session
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.prompt import HostedTool, Tool
from tooltape.runtime import PromptResponse
from tooltape.testing.provider.faults import ProviderFaults, response_json

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "responses"


def synthetic(name: str) -> dict[str, Any]:
    """A labelled synthetic response body, without its label."""
    body = json.loads((FIXTURES / name).read_text())
    assert body["_provenance"].startswith("synthetic: ")
    return {k: v for k, v in body.items() if k != "_provenance"}


def final_answer(text: str = "Done.") -> dict[str, Any]:
    """A response whose only item is an assistant message."""
    message = {
        "id": "msg_final",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
    }
    return response_json(output=[message])


@dataclass
class Evaluation:
    """A finished evaluation: the response, the session, and every request body sent."""

    response: PromptResponse[Any]
    session: Session
    sent: list[dict[str, Any]]

    def invocations(self, kind: str) -> list[Any]:
        return [e for e in self.session.tool_invocations if e.kind == kind]

    def inputs_of_type(self, request: int, item_type: str) -> list[dict[str, Any]]:
        return [i for i in self.sent[request]["input"] if i.get("type") == item_type]


def evaluate(
    *replies: dict[str, Any],
    tools: tuple[Tool[Any, Any], ...] = (),
    hosted: tuple[HostedTool[Any], ...] = (),
    model: str = "gpt-5",
    session: Session | None = None,
    **options: Any,
) -> Evaluation:
    """Run the tool loop against ``replies`` (one response body per request)."""
    faults = ProviderFaults()
    faults.script(*(faults.ok(reply) for reply in replies))
    prompt = Prompt(
        ns="tests.kinds",
        key="kind",
        sections=[Section(title="Use the tools", tools=tools, hosted_tools=hosted)],
    )
    session = session if session is not None else Session()
    adapter = OpenAIAdapter(model, client=faults.client(max_retries=0))
    response = adapter.evaluate(prompt, session=session, **options)
    sent = [json.loads(call.body) for call in faults.calls]
    return Evaluation(response, session, sent)
