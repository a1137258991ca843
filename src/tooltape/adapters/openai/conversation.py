"""Conversation state across the rounds of one evaluation: what each request sends.

By default every round resends the conversation so far (the first input,
each response's output items as the provider returned them, reasoning items
with their ``encrypted_content`` included, and the answers). With chaining
(``chain=True`` or a ``previous_response_id``) a round sends
``previous_response_id`` and only the answers; with a ``conversation`` the
conversation object holds the history and a round sends only the answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from tooltape.adapters.openai.options import RequestOptions
from tooltape.adapters.openai.reading import as_dict
from tooltape.prompt import PromptEvaluationError


class ConversationState:
    """The body of each request of one evaluation, from the first one on."""

    def __init__(self, first: Mapping[str, Any], options: RequestOptions, later_choice: object):
        self._first = dict(first)
        self._options = options
        self._later_choice = later_choice
        self._history: list[dict[str, Any]] = list(cast("list[dict[str, Any]]", first["input"]))
        self._next: dict[str, Any] = dict(first)

    def request(self) -> dict[str, Any]:
        """The body the next round sends."""
        return self._next

    def advance(
        self, response: Mapping[str, Any], answers: Sequence[dict[str, Any]], prompt_name: str
    ) -> None:
        """Move past ``response``, whose calls ``answers`` answer."""
        body = dict(self._first)
        if "tool_choice" in body:
            body["tool_choice"] = self._later_choice
        if self._options.conversation is not None:
            body["input"] = list(answers)
        elif self._options.sends_new_items_only:
            response_id = response.get("id")
            if not isinstance(response_id, str) or not response_id:
                raise PromptEvaluationError(
                    "OpenAI returned a response without an id, so the next round cannot chain "
                    "from it (previous_response_id); use chain=False to resend the conversation.",
                    prompt_name=prompt_name,
                    phase="parse",
                    provider_payload=dict(response),
                )
            body["previous_response_id"] = response_id
            body["input"] = list(answers)
        else:
            output = cast("list[object]", response.get("output", []))
            self._history.extend(as_dict(item) for item in output)
            self._history.extend(answers)
            body["input"] = list(self._history)
        self._next = body
