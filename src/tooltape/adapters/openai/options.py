"""Request options of the Responses API and of the tool loop, checked before anything is sent.

The same options are keywords of ``OpenAIAdapter(...)`` (defaults for every
call) and of ``evaluate``/``build_request`` (this call; ``None`` resets an
adapter default to the API's own). ``previous_response_id`` belongs to one
call and is a keyword of ``evaluate``/``build_request`` only.

Conversation state, and why the defaults are what they are:

- by default nothing is stored-or-not on the client's behalf (``store`` is
  not sent, so the API's default applies) and every round resends the whole
  conversation: it works for every account, zero-data-retention ones
  included, and the requests match those recorded before these options
  existed;
- ``chain=True`` sends ``previous_response_id`` from the second round on, with
  only the new items (tool outputs, approval responses): nothing the provider
  already has (base64 images included) is sent again. It needs stored
  responses, so it refuses ``store=False``;
- ``conversation="conv_..."`` lets a conversation object hold the history;
  later rounds send only the new items too;
- ``store=False`` asks for ``reasoning.encrypted_content`` and passes
  reasoning items back with it, since the provider cannot look an id up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, get_args

ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]
ReasoningSummary = Literal["auto", "concise", "detailed"]

ENCRYPTED_REASONING = "reasoning.encrypted_content"


class ResponseOptions(TypedDict, total=False):
    """Keywords of ``OpenAIAdapter(...)``, ``evaluate`` and ``build_request``."""

    store: bool | None
    chain: bool
    conversation: str | None
    background: bool
    parallel_tool_calls: bool | None
    max_tool_calls: int | None
    reasoning_effort: ReasoningEffort | None
    reasoning_summary: ReasoningSummary | None


class CallOptions(ResponseOptions, total=False):
    """``ResponseOptions`` plus what only one call can say."""

    previous_response_id: str | None


def _flag(name: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not isinstance(value, bool):
        allowed = "True, False or None" if optional else "True or False"
        raise ValueError(f"{name}={value!r}; use {allowed}.")


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value is not None and value not in allowed:
        raise ValueError(f"{name}={value!r}; use one of {', '.join(allowed)} (or None).")


def _text(name: str, value: object, example: str) -> None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise ValueError(f"{name}={value!r}; give the id as a non-empty string (e.g. {example!r}).")


@dataclass(frozen=True, slots=True)
class RequestOptions:
    """Validated options for one evaluation (see the module docstring for each)."""

    store: bool | None = None
    chain: bool = False
    conversation: str | None = None
    background: bool = False
    parallel_tool_calls: bool | None = None
    max_tool_calls: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    reasoning_summary: ReasoningSummary | None = None
    previous_response_id: str | None = None

    def __post_init__(self) -> None:
        _flag("store", self.store, optional=True)
        _flag("chain", self.chain, optional=False)
        _flag("background", self.background, optional=False)
        _flag("parallel_tool_calls", self.parallel_tool_calls, optional=True)
        _text("conversation", self.conversation, "conv_123")
        _text("previous_response_id", self.previous_response_id, "resp_123")
        limit = self.max_tool_calls
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 1
        ):
            raise ValueError(
                f"max_tool_calls={limit!r}; use a whole number of at least 1 (or None)."
            )
        _choice("reasoning_effort", self.reasoning_effort, get_args(ReasoningEffort))
        _choice("reasoning_summary", self.reasoning_summary, get_args(ReasoningSummary))
        chained = self.chain or self.previous_response_id is not None
        if chained and self.store is False:
            raise ValueError(
                "chain=True and previous_response_id need stored responses, but store=False; "
                "drop store=False, or resend the conversation (chain=False)."
            )
        if self.conversation is not None and chained:
            raise ValueError(
                "conversation cannot be combined with chain=True or previous_response_id (the "
                "API takes one kind of state per request); pick one."
            )

    @classmethod
    def of(cls, options: Mapping[str, Any], *, owner: str) -> RequestOptions:
        """``RequestOptions(**options)``; an unknown keyword is named, the known ones listed."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(
                f"{owner} got an unexpected option {unknown[0]!r}; options are "
                f"{', '.join(sorted(known))}."
            )
        return cls(**options)

    def merged(self, overrides: Mapping[str, Any], *, owner: str) -> RequestOptions:
        """These options with ``overrides`` (a call's keywords) applied."""
        if not overrides:
            return self
        base = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return RequestOptions.of({**base, **overrides}, owner=owner)

    @property
    def sends_new_items_only(self) -> bool:
        """Whether rounds after the first send only the items the provider has not seen."""
        return self.chain or self.previous_response_id is not None or self.conversation is not None

    def includes(self) -> tuple[str, ...]:
        """``include[]`` entries these options need."""
        return (ENCRYPTED_REASONING,) if self.store is False else ()

    def body_fields(self) -> dict[str, Any]:
        """The request fields these options set (only those given)."""
        fields: dict[str, Any] = {}
        if self.store is not None:
            fields["store"] = self.store
        if self.conversation is not None:
            fields["conversation"] = self.conversation
        if self.previous_response_id is not None:
            fields["previous_response_id"] = self.previous_response_id
        if self.background:
            fields["background"] = True
        if self.parallel_tool_calls is not None:
            fields["parallel_tool_calls"] = self.parallel_tool_calls
        if self.max_tool_calls is not None:
            fields["max_tool_calls"] = self.max_tool_calls
        reasoning = {
            key: value
            for key, value in (
                ("effort", self.reasoning_effort),
                ("summary", self.reasoning_summary),
            )
            if value is not None
        }
        if reasoning:
            fields["reasoning"] = reasoning
        return fields
