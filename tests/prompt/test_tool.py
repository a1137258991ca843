"""``Tool``, ``NativeTool`` and ``ToolExample``: every declaration rule is checked at build time.

Rules (DESIGN, "Public API"): a name matches ``^[a-z0-9_-]{1,64}$``; a description
is 1-200 ASCII characters; a handler takes one positional ``params`` and a
keyword-only ``context``; the params type comes from ``Tool[P, R]``, from
``params_type=`` or from the handler's annotation. Violations raise
``PromptValidationError`` when the tool is built.
"""

import re
import string
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooltape import NativeTool, PromptValidationError, Tool, ToolContext, ToolExample, ToolResult

NAME_RULE = re.compile(r"[a-z0-9_-]{1,64}")
"""The tool name rule, written out from DESIGN independently of the implementation."""


@dataclass(frozen=True)
class Query:
    text: str


@dataclass(frozen=True)
class Answer:
    text: str


def answer(params: Query, *, context: ToolContext) -> ToolResult[Answer]:
    return ToolResult.ok(Answer(params.text))


def lookup(name: str = "lookup", description: str = "Look something up.") -> Tool[Query, Answer]:
    return Tool[Query, Answer](name=name, description=description, handler=answer)


# --- names -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["a", "0", "lookup_entity", "web-search", "x" * 64, "a1_-"])
def test_names_following_the_rule_are_accepted(name: str) -> None:
    assert lookup(name=name).name == name


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("", id="empty"),
        pytest.param("x" * 65, id="65-chars"),
        pytest.param("Lookup", id="uppercase"),
        pytest.param("look up", id="space"),
        pytest.param("lookup.entity", id="dot"),
        pytest.param("lookup\n", id="trailing-newline"),
        pytest.param("recherch\u00e9", id="non-ascii"),
    ],
)
def test_names_breaking_the_rule_are_refused(name: str) -> None:
    with pytest.raises(PromptValidationError, match="name"):
        lookup(name=name)


@pytest.mark.parametrize("name", [None, 7, b"lookup"])
def test_a_name_that_is_not_a_string_is_refused(name: Any) -> None:
    with pytest.raises(PromptValidationError):
        lookup(name=name)


@given(st.from_regex(NAME_RULE, fullmatch=True))
def test_every_name_matching_the_rule_is_accepted(name: str) -> None:
    assert lookup(name=name).name == name


@given(st.text(max_size=80).filter(lambda s: NAME_RULE.fullmatch(s) is None))
def test_every_name_not_matching_the_rule_is_refused(name: str) -> None:
    with pytest.raises(PromptValidationError):
        lookup(name=name)


# --- descriptions ------------------------------------------------------------------------

PRINTABLE_ASCII = st.sampled_from(string.ascii_letters + string.digits + string.punctuation + " ")


@pytest.mark.parametrize("description", ["x", "Fetch an entity by id.", "y" * 200])
def test_descriptions_of_1_to_200_ascii_characters_are_accepted(description: str) -> None:
    assert lookup(description=description).description == description


@pytest.mark.parametrize(
    "description",
    [
        pytest.param("", id="empty"),
        pytest.param("y" * 201, id="201-chars"),
        pytest.param("Cherche un caf\u00e9.", id="non-ascii"),
        pytest.param("Smart \u201cquotes\u201d", id="non-ascii-punctuation"),
    ],
)
def test_descriptions_breaking_the_rule_are_refused(description: str) -> None:
    with pytest.raises(PromptValidationError, match="lookup"):
        lookup(description=description)


@given(st.text(PRINTABLE_ASCII, min_size=1, max_size=200).filter(str.strip))
def test_any_ascii_description_up_to_200_characters_is_accepted(description: str) -> None:
    assert lookup(description=description).description == description


@given(
    st.text(PRINTABLE_ASCII, min_size=1, max_size=100),
    st.characters(min_codepoint=128, exclude_categories=["Cs"]),
)
def test_a_single_non_ascii_character_makes_a_description_invalid(prefix: str, bad: str) -> None:
    with pytest.raises(PromptValidationError):
        lookup(description=prefix + bad)


@given(st.integers(min_value=201, max_value=1000))
def test_any_description_longer_than_200_characters_is_refused(length: int) -> None:
    with pytest.raises(PromptValidationError):
        lookup(description="d" * length)


# --- handler signature -------------------------------------------------------------------


class Handlers:
    """Handlers whose shape is right or wrong; none of them is ever called."""

    @staticmethod
    def canonical(params: Query, *, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def positional_only(params: Query, /, *, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def optional_extra_keyword(
        params: Query, *, context: ToolContext, verbose: bool = False
    ) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def no_context(params: Query) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def context_positional(params: Query, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def context_as_var_keyword(params: Query, **context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def two_positionals(params: Query, other: int, *, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def extra_required_keyword(
        params: Query, *, context: ToolContext, flag: bool
    ) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def no_params(*, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")

    @staticmethod
    def star_args(*params: Query, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")


class BoundHandler:
    def handle(self, params: Query, *, context: ToolContext) -> ToolResult[Answer]:
        raise AssertionError("never called")


@pytest.mark.parametrize(
    "handler",
    [
        Handlers.canonical,
        Handlers.positional_only,
        Handlers.optional_extra_keyword,
        BoundHandler().handle,
    ],
    ids=["canonical", "positional-only-params", "optional-extra-keyword", "bound-method"],
)
def test_handlers_of_the_canonical_shape_are_accepted(handler: Any) -> None:
    tool = Tool[Query, Answer](name="lookup", description="Look up.", handler=handler)
    assert tool.handler is handler


@pytest.mark.parametrize(
    "handler",
    [
        Handlers.no_context,
        Handlers.context_positional,
        Handlers.context_as_var_keyword,
        Handlers.two_positionals,
        Handlers.extra_required_keyword,
        Handlers.no_params,
        Handlers.star_args,
    ],
    ids=[
        "no-context",
        "context-positional",
        "context-as-var-keyword",
        "two-positionals",
        "extra-required-keyword-only",
        "no-params",
        "star-args",
    ],
)
def test_handlers_of_another_shape_are_refused_when_the_tool_is_built(handler: Any) -> None:
    with pytest.raises(PromptValidationError, match="context"):
        Tool[Query, Answer](name="lookup", description="Look up.", handler=handler)


async def async_answer(params: Query, *, context: ToolContext) -> ToolResult[Answer]:
    raise AssertionError("never called")


def test_an_async_handler_is_refused_when_the_tool_is_built() -> None:
    with pytest.raises(PromptValidationError, match="async_answer is async"):
        Tool[Query, Answer](name="lookup", description="Look up.", handler=async_answer)


def test_a_handler_that_is_not_callable_is_refused() -> None:
    with pytest.raises(PromptValidationError, match="not callable"):
        Tool[Query, Answer](name="lookup", description="Look up.", handler="answer")  # type: ignore[arg-type]


# --- params type -------------------------------------------------------------------------


def unannotated(params, *, context):  # type: ignore[no-untyped-def]
    raise AssertionError("never called")


def params_annotation_only_resolvable(
    params: "Query",
    *,
    context: "NotImportedAtRunTime",  # type: ignore[name-defined]  # noqa: F821
) -> "ToolResult[Answer]":
    """Written as with ``from __future__ import annotations`` and a TYPE_CHECKING-only import."""
    raise AssertionError("never called")


def test_params_type_from_the_subscript() -> None:
    tool = Tool[Query, Answer](name="lookup", description="Look up.")
    assert tool.params_type is Query
    assert tool.result_type is Answer


def test_params_type_from_the_keyword() -> None:
    tool: Tool[Query, Any] = Tool(name="lookup", description="Look up.", params_type=Query)
    assert tool.params_type is Query


def test_params_type_from_the_handler_annotation() -> None:
    tool = Tool(name="lookup", description="Look up.", handler=answer)
    assert tool.params_type is Query


def test_params_type_from_the_handler_even_when_context_annotation_cannot_be_resolved() -> None:
    tool = Tool(name="lookup", description="Look up.", handler=params_annotation_only_resolvable)
    assert tool.params_type is Query


@pytest.mark.parametrize("handler", [None, unannotated], ids=["no-handler", "unannotated-handler"])
def test_without_any_source_of_params_type_the_tool_is_refused(handler: Any) -> None:
    with pytest.raises(PromptValidationError, match="params type"):
        Tool(name="lookup", description="Look up.", handler=handler)


def test_a_params_type_that_is_not_a_dataclass_is_refused() -> None:
    class NotADataclass:
        text: str

    with pytest.raises(PromptValidationError, match="dataclass"):
        Tool(name="lookup", description="Look up.", params_type=NotADataclass)


# --- NativeTool --------------------------------------------------------------------------


def test_native_tool_refuses_a_handler() -> None:
    with pytest.raises(PromptValidationError, match="handler"):
        NativeTool[Query, Answer](name="computer", description="Use a computer.", handler=answer)


def test_native_tool_does_not_accept_overrides_by_default_while_tool_does() -> None:
    native = NativeTool[Query, Answer](name="computer", description="Use a computer.")
    function = Tool[Query, Answer](name="computer", description="Use a computer.")
    assert native.accepts_overrides is False
    assert function.accepts_overrides is True
    assert native.handler is None
    assert native.params_type is Query


def test_native_tool_can_opt_in_to_overrides_and_follows_the_naming_rules() -> None:
    native = NativeTool[Query, Answer](
        name="computer", description="Use a computer.", accepts_overrides=True
    )
    assert native.accepts_overrides is True
    with pytest.raises(PromptValidationError):
        NativeTool[Query, Answer](name="Computer Use", description="Use a computer.")


def test_native_and_function_tools_report_where_they_run() -> None:
    assert NativeTool[Query, Answer](name="computer", description="d").source == "native"
    assert lookup().source == "function"


# --- examples ----------------------------------------------------------------------------


def test_examples_with_inputs_of_the_params_type_are_kept_in_order() -> None:
    first = ToolExample[Query, Answer](description="One", input=Query("a"), output=Answer("A"))
    second = ToolExample(description="Two", input=Query("b"), output=Answer("B"))
    tool = Tool[Query, Answer](
        name="lookup", description="Look up.", handler=answer, examples=[first, second]
    )
    assert tool.examples == (first, second)


def test_an_example_whose_input_is_not_the_params_type_is_refused() -> None:
    wrong = ToolExample(description="Wrong", input=Answer("a"), output=Answer("A"))
    with pytest.raises(PromptValidationError, match="example"):
        Tool[Query, Answer](name="lookup", description="Look up.", examples=[wrong])
