"""``Tool.from_function``: a plain typed function becomes a tool.

Rules (DESIGN and the ``Tool.from_function`` docstring): params come from the
signature, the description from the docstring's first paragraph; a
keyword-only ``context`` parameter receives the ``ToolContext`` and is not a
parameter the model sees; a plain return value is wrapped in
``ToolResult.ok``; a returned ``ToolResult`` is kept as is. Signatures that
cannot be described to a model are refused with ``PromptValidationError``.
"""

from dataclasses import dataclass, field
from typing import Any

import pydantic
import pytest

from tooltape import PromptValidationError, Tool, ToolContext, ToolResult


def add_one(x: int) -> int:
    """Add one to x.

    Everything after the first paragraph is detail for humans, not the model.
    """
    return x + 1


def call(tool: Tool[Any, Any], arguments: dict[str, Any], context: ToolContext) -> ToolResult[Any]:
    assert tool.handler is not None
    return tool.handler(tool.schema.validate(arguments), context=context)


def test_add_one_becomes_a_tool_named_after_the_function() -> None:
    tool = Tool.from_function(add_one)
    assert tool.name == "add_one"
    assert tool.source == "function"


def test_description_is_the_first_paragraph_of_the_docstring() -> None:
    assert Tool.from_function(add_one).description == "Add one to x."


def test_schema_mirrors_the_signature() -> None:
    schema = Tool.from_function(add_one).parameters_schema()
    assert schema["type"] == "object"
    assert set(schema["properties"]) == {"x"}
    assert schema["properties"]["x"]["type"] == "integer"
    assert schema["required"] == ["x"]
    assert schema["additionalProperties"] is False


def test_plain_return_value_is_wrapped_in_a_successful_result(tool_context: ToolContext) -> None:
    result = call(Tool.from_function(add_one), {"x": 41}, tool_context)
    assert result.success is True
    assert result.value == 42


def test_returned_tool_result_is_kept_as_is(tool_context: ToolContext) -> None:
    refusal = ToolResult.error("x must be positive")

    def checked_add_one(x: int) -> ToolResult[int]:
        """Add one to a positive x."""
        return refusal if x <= 0 else ToolResult.ok(x + 1, message="added")

    tool = Tool.from_function(checked_add_one)
    assert call(tool, {"x": 0}, tool_context) is refusal
    kept = call(tool, {"x": 1}, tool_context)
    assert (kept.value, kept.message, kept.success) == (2, "added", True)


def test_keyword_only_context_is_injected_and_hidden_from_the_model(
    tool_context: ToolContext,
) -> None:
    seen: list[ToolContext] = []

    def whoami(prefix: str, *, context: ToolContext) -> str:
        """Say which prompt is running."""
        seen.append(context)
        return prefix + context.prompt.name

    tool = Tool.from_function(whoami)
    assert set(tool.parameters_schema()["properties"]) == {"prefix"}
    result = call(tool, {"prefix": "in "}, tool_context)
    assert seen == [tool_context]
    assert result.value == "in " + tool_context.prompt.name


def test_a_positional_context_for_the_tool_context_is_refused_saying_to_make_it_keyword_only() -> (
    None
):
    def whoami(prefix: str, context: ToolContext) -> str:
        """Say which prompt is running."""
        return prefix

    def untyped(prefix: str, context) -> str:  # pyright: ignore[reportMissingParameterType]
        """Say which prompt is running."""
        return prefix

    for fn in (whoami, untyped):
        with pytest.raises(PromptValidationError) as raised:
            Tool.from_function(fn)
        message = str(raised.value)
        assert "parameter 'context'" in message
        assert f"def {fn.__name__}(prefix: str, *, context: ToolContext)" in message


def test_a_model_parameter_may_be_called_context(tool_context: ToolContext) -> None:
    def summarize(text: str, context: str = "") -> str:
        """Summarize a text."""
        return f"{context}: {text}"

    tool = Tool.from_function(summarize)
    assert set(tool.parameters_schema()["properties"]) == {"text", "context"}
    assert call(tool, {"text": "t", "context": "c"}, tool_context).value == "c: t"


def test_defaulted_parameters_are_optional_and_keep_their_default(
    tool_context: ToolContext,
) -> None:
    def search(query: str, limit: int = 10) -> str:
        """Search."""
        return f"{query}:{limit}"

    tool = Tool.from_function(search)
    assert tool.parameters_schema()["required"] == ["query"]
    assert call(tool, {"query": "q"}, tool_context).value == "q:10"
    assert call(tool, {"query": "q", "limit": 3}, tool_context).value == "q:3"


def test_required_keyword_only_parameter_after_a_defaulted_one(tool_context: ToolContext) -> None:
    def search(query: str, limit: int = 10, *, exact: bool) -> str:
        """Search."""
        return f"{query}:{limit}:{exact}"

    tool = Tool.from_function(search)
    assert set(tool.parameters_schema()["required"]) == {"query", "exact"}
    assert call(tool, {"query": "q", "exact": True}, tool_context).value == "q:10:True"


def test_positional_only_parameters_are_passed_positionally(tool_context: ToolContext) -> None:
    def double(x: int, /) -> int:
        """Double x."""
        return 2 * x

    assert call(Tool.from_function(double), {"x": 4}, tool_context).value == 8


def test_name_and_description_can_be_given_explicitly() -> None:
    def undocumented(x: int) -> int:
        return x

    tool = Tool.from_function(undocumented, name="identity", description="Return x.")
    assert (tool.name, tool.description) == ("identity", "Return x.")


def test_a_parameter_without_annotation_is_refused() -> None:
    def loose(x, y: int) -> int:  # type: ignore[no-untyped-def]
        """Loose."""
        return y

    with pytest.raises(PromptValidationError, match="'x'"):
        Tool.from_function(loose)


def test_star_args_are_refused() -> None:
    def total(*numbers: int) -> int:
        """Sum numbers."""
        return sum(numbers)

    with pytest.raises(PromptValidationError, match="numbers"):
        Tool.from_function(total)


def test_star_star_kwargs_are_refused() -> None:
    def anything(**options: int) -> int:
        """Take anything."""
        return len(options)

    with pytest.raises(PromptValidationError, match="options"):
        Tool.from_function(anything)


def test_a_function_without_docstring_or_description_is_refused() -> None:
    def undocumented(x: int) -> int:
        return x

    with pytest.raises(PromptValidationError, match="docstring"):
        Tool.from_function(undocumented)


def test_the_tool_rules_still_apply_to_the_function_name() -> None:
    def addOne(x: int) -> int:
        """Add one."""
        return x + 1

    with pytest.raises(PromptValidationError, match="name"):
        Tool.from_function(addOne)


async def fetch_page(url: str) -> str:
    """Fetch a page."""
    return f"page at {url}"


def test_an_async_function_is_refused_when_the_tool_is_built() -> None:
    # Tools run synchronously: an async function would hand the model an un-awaited
    # coroutine as its "successful" output.
    with pytest.raises(PromptValidationError, match=r"fetch_page is async.*def fetch_page"):
        Tool.from_function(fetch_page)


def test_a_function_returning_an_awaitable_fails_the_call(tool_context: ToolContext) -> None:
    def fetch_later(url: str) -> Any:
        """Fetch a page later."""
        return fetch_page(url)

    with pytest.raises(TypeError, match=r"fetch_later returned a coroutine.*await"):
        call(Tool.from_function(fetch_later), {"url": "https://example.com"}, tool_context)


@dataclass
class Filters:
    """A plain (unhashable) dataclass: what most people write."""

    tags: list[str] = field(default_factory=lambda: ["all"])


class Paging(pydantic.BaseModel):
    size: int = 20


def test_a_default_of_a_mutable_type_is_kept_and_never_shared_between_calls(
    tool_context: ToolContext,
) -> None:
    seen: list[tuple[Filters, Paging, list[str]]] = []

    # what a user writes: mutable defaults, as ruff's B006/B008 warn
    def search(
        query: str,
        filters: Filters = Filters(),  # noqa: B008
        paging: Paging = Paging(),  # noqa: B008
        tags: list[str] = [],  # noqa: B006
    ) -> int:
        """Search."""
        filters.tags.append(query)
        tags.append(query)
        seen.append((filters, paging, tags))
        return paging.size

    tool = Tool.from_function(search)
    assert tool.parameters_schema()["required"] == ["query"]
    assert call(tool, {"query": "a"}, tool_context).value == 20
    assert call(tool, {"query": "b"}, tool_context).value == 20
    # each call starts from the default as written, whatever an earlier call did to it
    assert [(f.tags, t) for f, _, t in seen] == [(["all", "a"], ["a"]), (["all", "b"], ["b"])]
    assert call(tool, {"query": "c", "paging": {"size": 5}}, tool_context).value == 5
