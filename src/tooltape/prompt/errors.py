"""Errors raised while declaring, rendering and evaluating prompts."""

from __future__ import annotations

from typing import Literal, get_args

PromptEvaluationPhase = Literal["render", "request", "response", "parse", "tool"]

_PHASES: frozenset[str] = frozenset(get_args(PromptEvaluationPhase))


class PromptValidationError(ValueError):
    """A tool, section or prompt was declared in a way that can never work.

    Raised when the object is built, never later, so a broken declaration
    fails at import time rather than mid-conversation.
    """


class PromptRenderError(ValueError):
    """A prompt could not be rendered with the parameters it was given."""


class PromptEvaluationError(RuntimeError):
    """Evaluating a prompt against a provider failed.

    ``phase`` says where: ``"render"`` (before anything was sent),
    ``"request"`` (provider communication), ``"response"`` (the provider
    answered with a failure), ``"parse"`` (the answer could not be read) or
    ``"tool"``. ``provider_payload`` carries the provider's own error body
    when there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        prompt_name: str,
        phase: PromptEvaluationPhase,
        provider_payload: object = None,
    ) -> None:
        if phase not in _PHASES:
            raise ValueError(f"Unknown evaluation phase {phase!r}; use one of {sorted(_PHASES)}.")
        super().__init__(message)
        self.message = message
        self.prompt_name = prompt_name
        self.phase: PromptEvaluationPhase = phase
        self.provider_payload = provider_payload

    def __str__(self) -> str:
        return f"[{self.prompt_name}:{self.phase}] {self.message}"
