"""web_search_preview end to end: config, spec (OpenAPI and SDK), parsing, evaluation, cards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import ToolParam
from openapi_tools import assert_wire_valid
from pydantic import ConfigDict, TypeAdapter

from tooltape import Prompt, Section, Session
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs import WebSearchPreviewCodec, default_hosted_tool_codecs
from tooltape.adapters.openai.native_tools import OpenAIWebSearchPreviewSection
from tooltape.cards import load_card
from tooltape.prompt import PromptValidationError
from tooltape.testing.provider.faults import ProviderFaults, response_json
from tooltape.tools.web_search import GeoHint, WebSearchResult
from tooltape.tools.web_search_preview import (
    WebSearchPreviewConfig,
    WebSearchPreviewResult,
    WebSearchPreviewSection,
    web_search_preview_tool,
)

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "responses"
STRICT_TOOL: TypeAdapter[Any] = TypeAdapter(ToolParam, config=ConfigDict(extra="forbid"))
CODEC = WebSearchPreviewCodec()


def body() -> dict[str, Any]:
    data = json.loads((FIXTURE / "web_search_preview_completed.json").read_text())
    return {k: v for k, v in data.items() if k != "_provenance"}


@pytest.mark.parametrize(
    ("build", "fragments"),
    [
        (
            lambda: WebSearchPreviewConfig(content_types=("video",)),
            ("content_types", "text, image"),
        ),
        (lambda: WebSearchPreviewConfig(content_types="text"), ("content_types", "('text',)")),
        (lambda: WebSearchPreviewConfig(content_types=("text", "text")), ("repeats",)),
        (lambda: WebSearchPreviewConfig(alias="web_search_preview_2024"), ("alias", "2025_03_11")),
        (lambda: WebSearchPreviewConfig(context_size="max"), ("context_size", "low")),
        (lambda: WebSearchPreviewConfig(geo_hint="US"), ("geo_hint", "GeoHint")),
    ],
)
def test_bad_configs_name_the_field_and_the_choices(build: Any, fragments: tuple[str, ...]) -> None:
    with pytest.raises(PromptValidationError) as raised:
        build()
    for fragment in fragments:
        assert fragment in str(raised.value)


def test_spec_sets_only_what_is_configured_and_validates() -> None:
    plain = CODEC.serialize(web_search_preview_tool())
    assert plain == {"type": "web_search_preview"}
    full = CODEC.serialize(
        web_search_preview_tool(
            WebSearchPreviewConfig(
                geo_hint=GeoHint("GB", "London", timezone="Europe/London"),
                context_size="high",
                content_types=("text", "image"),
                alias="web_search_preview_2025_03_11",
            )
        )
    )
    assert full == {
        "type": "web_search_preview_2025_03_11",
        "user_location": {
            "type": "approximate",
            "country": "GB",
            "city": "London",
            "timezone": "Europe/London",
        },
        "search_context_size": "high",
        "search_content_types": ["text", "image"],
    }
    for spec in (plain, full):
        assert_wire_valid("Tool", spec)
        STRICT_TOOL.validate_python(spec)


def test_tool_choice_names_the_alias_sent() -> None:
    dated = web_search_preview_tool(WebSearchPreviewConfig(alias="web_search_preview_2025_03_11"))
    assert CODEC.tool_choice(dated) == {"type": "web_search_preview_2025_03_11"}
    assert_wire_valid("ToolChoiceParam", CODEC.tool_choice(dated))
    assert_wire_valid("ToolChoiceParam", CODEC.tool_choice(web_search_preview_tool()))


def test_calls_and_citations_parse_into_the_preview_result() -> None:
    items = body()["output"]
    tool = web_search_preview_tool()
    (call,) = CODEC.parse_calls(items, tool)
    assert call.success and isinstance(call.output, WebSearchPreviewResult)
    output = CODEC.parse_output(items, tool)
    assert isinstance(output, WebSearchPreviewResult) and isinstance(output, WebSearchResult)
    assert output.queries == ("Python 3.13 release date",)
    (citation,) = output.citations
    assert citation.url == "https://www.python.org/downloads/release/python-3130/"
    assert output.text[slice(*citation.span)] == output.text  # type: ignore[misc]


def test_evaluation_records_one_hosted_invocation_and_the_typed_output() -> None:
    faults = ProviderFaults()
    faults.script(faults.ok(response_json(output=body()["output"])))
    tool = web_search_preview_tool()
    prompt = Prompt(ns="t", key="preview", sections=[Section(title="S", hosted_tools=(tool,))])
    session = Session()
    adapter = OpenAIAdapter("gpt-4o", client=faults.client(max_retries=0))
    response = adapter.evaluate(prompt, session=session)
    sent = json.loads(faults.calls[0].body)
    assert sent["tools"] == [{"type": "web_search_preview"}]
    assert sent["include"] == ["web_search_call.action.sources"]
    assert isinstance(response.hosted_outputs["web_search_preview"], WebSearchPreviewResult)
    (event,) = session.tool_invocations
    assert (event.kind, event.source, event.result.success) == (
        "web_search_preview",
        "hosted",
        True,
    )


def test_failed_call_is_a_failed_result_with_the_provider_error() -> None:
    item = {
        **body()["output"][0],
        "status": "failed",
        "error": {"code": "blocked", "message": "no"},
    }
    (call,) = CODEC.parse_calls([item], None)
    assert not call.success and "blocked" in (call.error or "")
    assert not call.to_result().success


def test_registered_sections_and_cards() -> None:
    assert isinstance(default_hosted_tool_codecs()["web_search_preview"], WebSearchPreviewCodec)
    section = WebSearchPreviewSection(WebSearchPreviewConfig(context_size="low"), name="search")
    assert section.hosted_tools()[0].kind == "web_search_preview"
    native = OpenAIWebSearchPreviewSection(model="gpt-4o")
    assert native.render(None) == ""
    with pytest.raises(PromptValidationError, match="does not support"):
        OpenAIWebSearchPreviewSection(model="o1", capabilities={"o1": frozenset({"web_search"})})


def test_a_card_declares_the_preview_tool(tmp_path: Path) -> None:
    card = tmp_path / "card.md"
    card.write_text(
        "---\nname: researcher\nhosted_tools:\n"
        "  - kind: web_search_preview\n"
        "    config: {context_size: low, content_types: [text], alias: web_search_preview}\n"
        "---\nFind it.\n"
    )
    prompt = load_card(card)
    (tool,) = prompt.render().hosted_tools
    assert tool.kind == "web_search_preview"
    assert tool.config == WebSearchPreviewConfig(context_size="low", content_types=("text",))
