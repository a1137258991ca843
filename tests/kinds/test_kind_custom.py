"""Custom tools end to end: free-form text in, text out, routed by name."""

from __future__ import annotations

from typing import Any

import pytest
from kind_helpers import evaluate, final_answer, synthetic
from openai.types.responses import Response, ResponseInputItemParam, ToolParam
from openai.types.responses.response_create_params import ToolChoice
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Prompt, Section, ToolContext
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import CustomCodec, default_client_tool_codecs
from tooltape.prompt import PromptValidationError, ToolResult
from tooltape.tools.custom import (
    CustomToolConfig,
    CustomToolSection,
    Grammar,
    custom_tool,
)
from tooltape.tools.function_options import FunctionOptions

STRICT_INPUT: TypeAdapter[Any] = TypeAdapter(
    ResponseInputItemParam, config=ConfigDict(extra="forbid")
)
STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
STRICT_CHOICE: TypeAdapter[Any] = TypeAdapter(ToolChoice, config=ConfigDict(extra="forbid"))
CODEC = CustomCodec()


def sql_query(text: str) -> str:
    """Run a SQL query."""
    return f"ran: {text}"


def test_configs_and_handlers_are_checked_when_built() -> None:
    with pytest.raises(PromptValidationError, match="lark, regex"):
        Grammar("ebnf", "start: x")  # type: ignore[arg-type]
    with pytest.raises(PromptValidationError, match="definition"):
        Grammar("lark", "  ")
    with pytest.raises(PromptValidationError, match="Grammar"):
        CustomToolConfig(grammar="^x$")  # type: ignore[arg-type]

    def two(a: str, b: str) -> str:
        """Two inputs."""
        return a

    with pytest.raises(PromptValidationError, match="one positional parameter"):
        custom_tool(two)
    with pytest.raises(PromptValidationError, match="description"):
        custom_tool(lambda text: text, name="anon")
    tool = custom_tool(sql_query)
    assert (tool.name, tool.description, tool.kind) == ("sql_query", "Run a SQL query.", "custom")


def test_spec_with_and_without_grammar_and_options_is_spec_valid() -> None:
    plain = CODEC.serialize(custom_tool(sql_query))
    assert plain == {"type": "custom", "name": "sql_query", "description": "Run a SQL query."}
    shaped = CODEC.serialize(
        custom_tool(
            sql_query,
            CustomToolConfig(
                Grammar("lark", 'start: "SELECT " /[a-z]+/'),
                FunctionOptions(allowed_callers=("direct", "programmatic")),
            ),
        )
    )
    assert shaped["format"] == {
        "type": "grammar",
        "syntax": "lark",
        "definition": 'start: "SELECT " /[a-z]+/',
    }
    assert shaped["allowed_callers"] == ["direct", "programmatic"]
    for spec in (plain, shaped):
        assert_wire_valid("Tool", spec)
        STRICT_TOOL.validate_python(spec)
    choice = CODEC.tool_choice(custom_tool(sql_query))
    assert choice == {"type": "custom", "name": "sql_query"}
    assert_wire_valid("ToolChoiceParam", choice)
    STRICT_CHOICE.validate_python(choice)
    assert isinstance(default_client_tool_codecs()["custom"], CustomCodec)


def test_a_tool_choice_naming_a_custom_tool_names_it_on_the_wire() -> None:
    tool = custom_tool(sql_query)
    prompt = Prompt(ns="t", key="c", sections=[Section(title="S", tools=(tool,))])
    body = OpenAIAdapter("gpt-5").build_request(prompt, tool_choice="sql_query")
    assert body["tool_choice"] == {"type": "custom", "name": "sql_query"}
    assert_wire_valid("ToolChoiceParam", body["tool_choice"])


@pytest.mark.parametrize("form", ["dict", "sdk"])
def test_codec_reads_the_input_and_answers_with_text(form: str) -> None:
    body = synthetic("custom_tool_call.json")
    item: Any = body["output"][0] if form == "dict" else Response.construct(**body).output[0]
    assert CODEC.call_arguments(item) == {
        "input": "SELECT name FROM cassettes WHERE kind = 'custom'"
    }
    answer = CODEC.output_item(item, ToolResult.ok("3 rows"))
    assert answer == {
        "type": "custom_tool_call_output",
        "call_id": "call_ctc_sql",
        "output": "3 rows",
    }
    assert_wire_valid("CustomToolCallOutput", answer)
    STRICT_INPUT.validate_python(answer)


def test_a_call_from_a_program_is_answered_to_that_program() -> None:
    item = {**synthetic("custom_tool_call.json")["output"][0]}
    item["caller"] = {"type": "program", "caller_id": "call_prog_1"}
    answer = CODEC.output_item(item, ToolResult.ok("ok"))
    assert answer["caller"] == {"type": "program", "caller_id": "call_prog_1"}
    assert_wire_valid("CustomToolCallOutput", answer)
    direct = {**item, "caller": {"type": "direct"}}
    assert "caller" not in CODEC.output_item(direct, ToolResult.ok("ok"))


def test_calls_are_routed_to_the_tool_they_name() -> None:
    ran: list[str] = []

    def explain(text: str, *, context: ToolContext) -> str:
        """Explain a query plan."""
        ran.append(f"explain {text}")
        return "plan"

    def run_sql(text: str) -> str:
        """Run a SQL query."""
        ran.append(f"run {text}")
        return "rows"

    tools = (custom_tool(explain), custom_tool(run_sql, name="sql_query"))
    done = evaluate(synthetic("custom_tool_call.json"), final_answer(), tools=tools)
    assert ran == ["run SELECT name FROM cassettes WHERE kind = 'custom'"]
    (answer,) = done.inputs_of_type(1, "custom_tool_call_output")
    assert answer["output"] == "rows"
    (event,) = done.invocations("custom")
    assert (event.name, event.source, event.result.success) == ("sql_query", "native", True)
    assert [t["name"] for t in done.sent[0]["tools"]] == ["explain", "sql_query"]


def test_a_raising_handler_fails_the_call_and_the_model_reads_why() -> None:
    def sql_query(text: str) -> str:
        """Run a SQL query."""
        raise ValueError("syntax error near WHERE")

    done = evaluate(
        synthetic("custom_tool_call.json"), final_answer(), tools=(custom_tool(sql_query),)
    )
    (event,) = done.invocations("custom")
    assert not event.result.success and event.rendered_output == ""
    (answer,) = done.inputs_of_type(1, "custom_tool_call_output")
    assert "syntax error near WHERE" in answer["output"]
    assert done.response.text == "Done."


def test_section_carries_the_tool() -> None:
    tool = custom_tool(sql_query)
    assert CustomToolSection(tool).tools() == (tool,)
