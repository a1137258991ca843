"""Custom tools: the model calls them with free-form text, optionally shaped by a grammar.

Unlike a function tool, a custom tool takes no JSON arguments: the model
writes one string (a SQL query, a diff, a shell line) that a Lark or regex
``Grammar`` may constrain, and the handler returns text.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from tooltape.prompt import PromptValidationError, ToolContext, ToolResult
from tooltape.prompt.section import EnabledPredicate
from tooltape.prompt.signature import signature_of
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.client_section import ClientToolSection
from tooltape.tools.function_options import PLAIN, FunctionOptions
from tooltape.tools.validation import check_choice, invalid

GrammarSyntax = Literal["lark", "regex"]


@dataclass(frozen=True, slots=True)
class Grammar:
    """The shape the model's input must take: a Lark grammar or a regular expression."""

    syntax: GrammarSyntax
    definition: str

    def __post_init__(self) -> None:
        check_choice("Grammar", "syntax", self.syntax, ("lark", "regex"))
        if not isinstance(self.definition, str) or not self.definition.strip():
            invalid("Grammar", "definition", "is empty", "write the grammar or the pattern")


@dataclass(frozen=True, slots=True)
class CustomToolConfig:
    """How a custom tool is offered: its input ``grammar`` (``None``: free text) and options."""

    grammar: Grammar | None = None
    options: FunctionOptions = PLAIN

    def __post_init__(self) -> None:
        if self.grammar is not None and not isinstance(self.grammar, Grammar):
            invalid(
                "CustomToolConfig",
                "grammar",
                f"{self.grammar!r}",
                "use Grammar(syntax, definition)",
            )
        if not isinstance(self.options, FunctionOptions):
            invalid("CustomToolConfig", "options", f"{self.options!r}", "use FunctionOptions(...)")


DEFAULT_CUSTOM_TOOL_CONFIG = CustomToolConfig()


@dataclass(frozen=True, slots=True)
class CustomInput:
    """The text the model wrote for one ``custom_tool_call``."""

    input: str = field(metadata={"description": "The model's free-form input."})


CustomHandler = Callable[..., "str | ToolResult[str]"]
"""``fn(text) -> str`` (or a ``ToolResult``); a keyword-only ``context`` receives the context."""


def _takes_context(fn: Callable[..., Any], owner: str) -> bool:
    sig = signature_of(fn, owner=owner)
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    context = sig.parameters.get("context")
    if len(positional) != 1 or (context is not None and context.kind != context.KEYWORD_ONLY):
        raise PromptValidationError(
            f"{owner}: handler{sig} must take the input text as its one positional parameter "
            "(and optionally a keyword-only context); write it as `def run(text: str) -> str`."
        )
    return context is not None


def custom_tool(
    handler: CustomHandler,
    config: CustomToolConfig = DEFAULT_CUSTOM_TOOL_CONFIG,
    *,
    name: str | None = None,
    description: str | None = None,
) -> ClientExecutedTool[CustomInput, str]:
    """A custom tool answered by ``handler(text)``.

    ``name`` defaults to the handler's name and ``description`` to its
    docstring's first line. A plain returned string is the output the model
    reads; a raised exception or a failed ``ToolResult`` fails the call and
    its message goes back to the model instead.
    """
    owner = f"custom_tool({getattr(handler, '__name__', handler)!r})"
    with_context = _takes_context(handler, owner)
    tool_name = name if name is not None else getattr(handler, "__name__", "")
    summary = description
    if summary is None:
        summary = (inspect.getdoc(handler) or "").strip().split("\n\n", 1)[0].replace("\n", " ")
    if not summary:
        raise PromptValidationError(f"{owner}: no description; add a docstring or description=.")
    if not isinstance(config, CustomToolConfig):
        raise PromptValidationError(f"{owner}: config must be a CustomToolConfig.")

    def run(params: CustomInput, *, context: ToolContext) -> ToolResult[str]:
        outcome: object = (
            handler(params.input, context=context) if with_context else handler(params.input)
        )
        if isinstance(outcome, ToolResult):
            return outcome
        if not isinstance(outcome, str):
            return ToolResult.error(
                f"Custom tool {tool_name!r} returned {type(outcome).__name__}; it must return text."
            )
        return ToolResult.ok(outcome)

    return ClientExecutedTool(
        name=tool_name,
        description=summary,
        handler=run,
        params_type=CustomInput,
        result_type=str,
        kind="custom",
        config=config,
        accepts_overrides=True,
    )


class CustomToolSection(ClientToolSection):
    """A section that carries one custom tool and says its input is free-form text."""

    title_text = "Free-form Tool"
    template_text = (
        "One of your tools takes free-form text instead of JSON arguments. Write exactly the "
        "input it expects, with no explanation around it."
    )

    def __init__(
        self,
        tool: ClientExecutedTool[CustomInput, str],
        *,
        key: str = "custom",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        super().__init__(tool, key=key, enabled=enabled)
