"""A structured output type whose schema JSON cannot carry is refused before anything is sent."""

from __future__ import annotations

from dataclasses import dataclass, field

import openai
import pytest

from tooltape import MarkdownSection, Prompt, PromptEvaluationError
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.provider.loopback import LoopbackProvider


@dataclass
class Verdict:
    mood: str = field(metadata={"description": "How it felt \ud83d"})


def test_an_output_type_whose_schema_is_not_json_fails_at_render_naming_the_field(
    provider: LoopbackProvider,
) -> None:
    prompt = Prompt[Verdict](
        ns="tests", key="verdict", sections=[MarkdownSection(title="T", template="judge")]
    )
    client = openai.OpenAI(api_key="sk-loopback", base_url=provider.base_url, max_retries=0)

    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5", client=client).evaluate(prompt)

    assert raised.value.phase == "render"
    assert "Verdict" in raised.value.message
    assert "`properties.mood.description`" in raised.value.message
    assert provider.requests == []
