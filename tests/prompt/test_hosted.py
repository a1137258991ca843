"""``HostedTool``: same name and description rules as ``Tool``; config is a frozen dataclass."""

import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest

from tooltape import HostedTool, PromptValidationError


@dataclass(frozen=True, slots=True)
class SearchConfig:
    max_results: int = 5


@dataclass
class MutableConfig:
    max_results: int = 5


def hosted(**overrides: Any) -> HostedTool[Any]:
    arguments: dict[str, Any] = {
        "kind": "web_search",
        "name": "web_search",
        "description": "Search the web.",
        "config": SearchConfig(),
    }
    arguments.update(overrides)
    return HostedTool(**arguments)


def test_a_valid_hosted_tool_keeps_what_it_was_given() -> None:
    config = SearchConfig(max_results=3)
    tool = HostedTool[SearchConfig](
        kind="web_search", name="news_search", description="Search news.", config=config
    )
    assert (tool.kind, tool.name, tool.description, tool.config) == (
        "web_search",
        "news_search",
        "Search news.",
        config,
    )


def test_a_hosted_tool_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        hosted().name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["", "x" * 65, "WebSearch", "web search", "web.search"])
def test_names_breaking_the_tool_name_rule_are_refused(name: str) -> None:
    with pytest.raises(PromptValidationError, match="name"):
        hosted(name=name)


def test_a_64_character_name_is_accepted() -> None:
    assert hosted(name="w" * 64).name == "w" * 64


@pytest.mark.parametrize(
    "description", ["", "d" * 201, "Recherche s\u00e9mantique."], ids=["empty", "201", "non-ascii"]
)
def test_descriptions_breaking_the_rule_are_refused(description: str) -> None:
    with pytest.raises(PromptValidationError, match="description"):
        hosted(description=description)


def test_a_200_character_description_is_accepted() -> None:
    assert len(hosted(description="d" * 200).description) == 200


@pytest.mark.parametrize(
    "config",
    [
        pytest.param(MutableConfig(), id="non-frozen-dataclass"),
        pytest.param(SearchConfig, id="frozen-dataclass-class-not-instance"),
        pytest.param({"max_results": 5}, id="dict"),
        pytest.param(None, id="none"),
    ],
)
def test_config_must_be_a_frozen_dataclass_instance(config: object) -> None:
    with pytest.raises(PromptValidationError, match="frozen dataclass"):
        hosted(config=config)
